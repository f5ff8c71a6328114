import Testing
import UserScripts
@testable import GMAPI

/// The names `GM_download` saves under: what a script asks for, made safe, never leaving the
/// downloads folder.
struct DownloadNameTests {
    static let url = try! PageURL("https://files.example.com/docs/Annual%20Report.pdf?x=1")

    /// (asked, saved as, whether the name was changed)
    static let vectors: [(String?, String, Bool)] = [
        ("report.pdf", "report.pdf", false),
        ("covers/front.jpg", "covers/front.jpg", false),
        ("../../etc/passwd", "etc/passwd", true),
        ("/etc/passwd", "etc/passwd", true),
        ("a/../../b.txt", "a/b.txt", true),
        ("..\\..\\windows\\win.ini", "windows/win.ini", true),
        ("./x/./y.txt", "x/y.txt", true),
        ("bad\u{0}name\u{7}\n.txt", "badname.txt", true),
        ("tab\u{9}\u{85}.txt", "tab.txt", true),
        ("  spaced  /  name.txt ", "spaced/name.txt", true),
        ("..", "Annual Report.pdf", true),
        ("", "Annual Report.pdf", true),
        ("/", "Annual Report.pdf", true),
        (nil, "Annual Report.pdf", false),
    ]

    @Test(arguments: vectors)
    func aNameIsMadeSafe(asked: String?, saved: String, changed: Bool) {
        let name = DownloadName(requested: asked, url: Self.url)
        #expect(name.relativePath == saved)
        #expect(name.changed == changed)
        #expect(!name.segments.contains(".."))
        #expect(name.segments.allSatisfy { !$0.isEmpty && !$0.contains("/") })
    }

    @Test func theServersNameComesBeforeTheURLsButAfterTheScripts() {
        #expect(DownloadName(requested: nil, url: Self.url, suggested: "../server.bin").relativePath == "server.bin")
        #expect(DownloadName(requested: "mine.bin", url: Self.url, suggested: "server.bin").relativePath == "mine.bin")
        #expect(DownloadName(requested: nil, url: try? PageURL("https://example.com/"), suggested: nil).relativePath == "download")
    }

    @Test func aLongSegmentIsShortenedWithItsExtensionKept() throws {
        let name = DownloadName(requested: String(repeating: "é", count: 300) + ".tar.gz", url: nil)
        let segment = try #require(name.segments.last)
        #expect(segment.utf8.count <= 255)
        #expect(segment.hasSuffix(".tar.gz"))
    }

    @Test(arguments: [("report.pdf", "report", ".pdf"), ("archive.tar.gz", "archive", ".tar.gz"), (".hidden", ".hidden", ""), ("README", "README", "")])
    func fileNamesSplitIntoStemAndExtension(name: String, stem: String, extension: String) {
        let parts = FileNameParts(name)
        #expect(parts.stem == stem)
        #expect(parts.extension == `extension`)
    }

    @Test func contentDispositionGivesAFileName() {
        #expect(GMRequestPerformer.fileName(inDisposition: "attachment; filename=\"a b.pdf\"") == "a b.pdf")
        #expect(GMRequestPerformer.fileName(inDisposition: "attachment; filename=plain.txt; filename*=UTF-8''caf%C3%A9.txt") == "café.txt")
        #expect(GMRequestPerformer.fileName(inDisposition: "inline") == nil)
    }
}
