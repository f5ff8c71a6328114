import Foundation
import SystemSupport
import TestSupport
import Testing

/// `run --screenshot` writes the format its file's name asks for, or refuses the name before
/// anything opens; `--full-page` pictures the whole page; `--viewport` draws pages at one size on
/// both engines.
@Suite(.serialized)
struct PictureCommandTests {
    static let engines = ["webkit", "chromium", "firefox"]

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer(pages: [
            "/": "<!doctype html><title>Picture</title><p>hi</p>",
            "/tall": "<!doctype html><title>Tall</title><body style=\"margin:0\"><div style=\"height:3000px;background:linear-gradient(red,blue)\"></div></body>",
        ])
    }

    /// A folder in the temporary directory, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-picture-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }
    }

    func run(_ arguments: [String]) async throws -> PageScriptBinary.Outcome {
        let marker = ProcessProbe.newMarker()
        let outcome = try await PageScriptBinary.outcome(of: ["run"] + arguments, environment: [marker.name: marker.value])
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after pagescript \(arguments): \(leftovers)")
        return outcome
    }

    /// A PNG's height, from its header.
    static func pngHeight(_ data: Data) -> Int {
        let bytes = Array(data)
        guard bytes.count > 24 else { return 0 }
        return bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test(arguments: engines)
    func aViewportDrawsPagesAtOneSizeOnBothEngines(engine: String) async throws {
        let standard = try await run([server.url(), "-e", "innerWidth + 'x' + innerHeight", "--engine", engine])
        #expect(standard.status == 0, "\(standard.standardError)")
        // Unasked, both engines draw pages at one size, without a resize.
        #expect(standard.standardOutput == "\"1024x768\"\n", "\(engine): \(standard.standardOutput)")
        let asked = try await run([server.url(), "-e", "innerWidth + 'x' + innerHeight", "--engine", engine, "--viewport", "900x700"])
        #expect(asked.standardOutput == "\"900x700\"\n", "\(engine): \(asked.standardError)")
        let bad = try await run([server.url(), "-e", "1", "--engine", engine, "--viewport", "wide"])
        #expect(bad.status == 2, "\(bad.standardError)")
    }

    @Test func chromiumWritesTheFormatTheNameAsksFor() async throws {
        let folder = try Folder()
        let expected: [(name: String, check: (Data) -> Bool)] = [
            ("shot.jpg", { $0.starts(with: [0xFF, 0xD8, 0xFF]) }),
            ("shot.JPEG", { $0.starts(with: [0xFF, 0xD8, 0xFF]) }),
            ("shot.webp", { $0.starts(with: Array("RIFF".utf8)) && $0.dropFirst(8).starts(with: Array("WEBP".utf8)) }),
            ("shot.png", { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) }),
        ]
        for (name, check) in expected {
            let outcome = try await run([server.url(), "-e", "1", "--engine", "chromium", "--screenshot", folder.path(name)])
            #expect(outcome.status == 0, "\(name): \(outcome.standardError)")
            let data = try Data(contentsOf: URL(fileURLWithPath: folder.path(name)))
            #expect(check(data), "\(name): \(Array(data.prefix(12)))")
        }
    }

    /// Chromium through DevTools, Firefox through geckodriver's own command.
    @Test(arguments: ["chromium", "firefox"])
    func theWholePageIsPictured(engine: String) async throws {
        let folder = try Folder()
        let viewport = try await run([server.url("/tall"), "-e", "1", "--engine", engine, "--screenshot", folder.path("view.png"), "--viewport", "1280x800"])
        #expect(viewport.status == 0, "\(viewport.standardError)")
        #expect(Self.pngHeight(try Data(contentsOf: URL(fileURLWithPath: folder.path("view.png")))) == 800)
        let whole = try await run([server.url("/tall"), "-e", "1", "--engine", engine, "--screenshot", folder.path("whole.png"), "--full-page"])
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(Self.pngHeight(try Data(contentsOf: URL(fileURLWithPath: folder.path("whole.png")))) == 3000)
    }

    /// WebKit's driver gives PNG pictures of the viewport only: anything else is refused at once,
    /// before a browser starts, and no file is written.
    @Test func webKitRefusesWhatItCannotDrawBeforeOpening() async throws {
        let folder = try Folder()
        for arguments in [["--screenshot", folder.path("shot.jpg")], ["--screenshot", folder.path("shot.webp")],
                          ["--screenshot", folder.path("shot.png"), "--full-page"], ["--screenshot", folder.path("shot.gif")]] {
            let outcome = try await run([server.url(), "-e", "1", "--engine", "webkit"] + arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.lowercased().contains("png") || outcome.standardError.contains("viewport"), "\(outcome.standardError)")
            #expect(!outcome.standardError.contains("Picture"), "no page was opened: \(outcome.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
