import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import GMAPI

/// Saving into the downloads folder on a real file system: atomic, never replacing a file unless
/// asked, never leaving the folder.
struct DownloadFolderTests {
    static func name(_ text: String) -> DownloadName {
        DownloadName(requested: text, url: nil)
    }

    @Test func aTakenNameIsMadeUniqueAndTheOldFileKept() throws {
        let temporary = try TemporaryDirectory("downloads")
        let folder = DownloadFolder(directory: temporary.url.appendingPathComponent("Downloads"))
        let first = try folder.save(Array("one".utf8), as: Self.name("notes/a.txt"), conflict: .uniquify)
        let second = try folder.save(Array("two".utf8), as: Self.name("notes/a.txt"), conflict: .uniquify)
        let third = try folder.save(Array("three".utf8), as: Self.name("notes/a.txt"), conflict: .prompt)
        #expect(first.relativePath == "notes/a.txt")
        #expect(!first.uniquified)
        #expect(second.relativePath == "notes/a (1).txt")
        #expect(second.uniquified)
        #expect(third.relativePath == "notes/a (2).txt")
        #expect(try temporary.read("Downloads/notes/a.txt") == "one")
        #expect(try temporary.read("Downloads/notes/a (1).txt") == "two")
        // Nothing else is left beside them: no temporary file.
        #expect(try temporary.entries("Downloads/notes") == ["a (1).txt", "a (2).txt", "a.txt"])
    }

    @Test func overwriteReplacesTheFileAndNothingElse() throws {
        let temporary = try TemporaryDirectory("downloads")
        let folder = DownloadFolder(directory: temporary.url)
        _ = try folder.save(Array("old".utf8), as: Self.name("a.txt"), conflict: .uniquify)
        let saved = try folder.save(Array("new".utf8), as: Self.name("a.txt"), conflict: .overwrite)
        #expect(saved.replaced)
        #expect(saved.path == temporary.path("a.txt"))
        #expect(try temporary.read("a.txt") == "new")
        #expect(try temporary.entries() == ["a.txt"])
    }

    /// A symbolic link in the folder is replaced itself by `overwrite`, never written through.
    @Test func overwriteNeverWritesThroughALink() throws {
        let temporary = try TemporaryDirectory("downloads")
        let outside = try temporary.write("precious", to: "outside.txt")
        try FileManager.default.createDirectory(at: temporary.file("Downloads"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: temporary.path("Downloads/a.txt"), withDestinationPath: outside.path)
        _ = try DownloadFolder(directory: temporary.file("Downloads")).save(Array("new".utf8), as: Self.name("a.txt"), conflict: .overwrite)
        #expect(try temporary.read("outside.txt") == "precious")
        #expect(try temporary.read("Downloads/a.txt") == "new")
    }

    /// A subfolder that is a symbolic link (out of the folder) is refused, nothing written.
    @Test func aSubfolderThatIsALinkIsRefused() throws {
        let temporary = try TemporaryDirectory("downloads")
        try FileManager.default.createDirectory(at: temporary.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: temporary.file("Downloads"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: temporary.path("Downloads/sub"), withDestinationPath: temporary.path("elsewhere"))
        let folder = DownloadFolder(directory: temporary.file("Downloads"))
        #expect(throws: DownloadFolder.SaveFailure.self) {
            try folder.save(Array("x".utf8), as: Self.name("sub/a.txt"), conflict: .uniquify)
        }
        #expect(try temporary.entries("elsewhere").isEmpty)
    }

    @Test func theXDGFolderIsReadFromUserDirs() throws {
        let home = try TemporaryDirectory("home")
        try home.write("# comment\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOWNLOAD_DIR=\"$HOME/Fetched\"\n", to: ".config/user-dirs.dirs")
        #expect(DownloadFolder.standardDirectory(environment: ["HOME": home.path]).path == home.path("Fetched"))
        try home.write("XDG_DOWNLOAD_DIR=\"$HOME/\"\n", to: ".config/user-dirs.dirs")
        #expect(DownloadFolder.standardDirectory(environment: ["HOME": home.path]).path == home.path("Downloads"))
        let config = try TemporaryDirectory("config")
        try config.write("XDG_DOWNLOAD_DIR=\"/srv/incoming\"\n", to: "user-dirs.dirs")
        #expect(DownloadFolder.standardDirectory(environment: ["HOME": home.path, "XDG_CONFIG_HOME": config.path]).path == "/srv/incoming")
        #expect(DownloadFolder.standardDirectory(environment: ["HOME": "/nonexistent-home"]).path == "/nonexistent-home/Downloads")
    }
}
