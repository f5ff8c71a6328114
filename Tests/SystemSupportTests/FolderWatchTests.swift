import Foundation
import SystemSupport
import Testing

/// `FolderWatch` on a real folder, saved into the ways editors and tools save: written in place
/// through `>` (a truncation, writes, a close), by `sed -i` and by a temporary renamed over the
/// file (both replace the inode), several writes in a burst, and a deletion. Each save is one
/// name, once.
struct FolderWatchTests {
    /// A fresh folder with `script.user.js` in it, and a watch on it.
    final class Folder {
        let url: URL
        let file: URL
        let watch: FolderWatch

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("folder-watch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            file = url.appendingPathComponent("script.user.js")
            try Data("one\n".utf8).write(to: file)
            watch = try FolderWatch(folder: url, quietPeriod: .milliseconds(80))
        }

        deinit {
            watch.cancel()
            try? FileManager.default.removeItem(at: url)
        }

        /// Every name handed out until nothing more has come for `seconds` after the first (the
        /// bound is a guard against a hang, not a measurement).
        func namesAfter(_ save: () throws -> Void, waiting seconds: Double = 1.5) rethrows -> [String] {
            try save()
            var names: [String] = []
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                names += watch.settledNames()
                Thread.sleep(forTimeInterval: 0.02)
            }
            return names
        }
    }

    @Test func aTruncatingWriteInPlaceIsOneSave() throws {
        let folder = try Folder()
        let names = try folder.namesAfter {
            let handle = try FileHandle(forWritingTo: folder.file)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data("two\n".utf8))
            try handle.write(contentsOf: Data("three\n".utf8))
            try handle.close()
        }
        #expect(names == ["script.user.js"])
    }

    @Test func sedInPlaceReplacingTheFileIsOneSaveOfIt() throws {
        let folder = try Folder()
        let names = try folder.namesAfter {
            let sed = Process()
            sed.executableURL = URL(fileURLWithPath: "/bin/sed")
            sed.arguments = ["-i", "s/one/two/", folder.file.path]
            try sed.run()
            sed.waitUntilExit()
            #expect(sed.terminationStatus == 0)
        }
        #expect(names.filter { $0 == "script.user.js" }.count == 1, "\(names)")
        #expect(try String(contentsOf: folder.file, encoding: .utf8) == "two\n")
    }

    @Test func aTemporaryRenamedOverTheFileIsOneSaveOfIt() throws {
        let folder = try Folder()
        let names = try folder.namesAfter {
            let temporary = folder.url.appendingPathComponent(".script.user.js.swp")
            try Data("two\n".utf8).write(to: temporary)
            #expect(rename(temporary.path, folder.file.path) == 0)
        }
        #expect(names.filter { $0 == "script.user.js" }.count == 1, "\(names)")
    }

    @Test func writesInABurstAreOneSave() throws {
        let folder = try Folder()
        let names = try folder.namesAfter {
            for line in 1...5 {
                try Data("line \(line)\n".utf8).write(to: folder.file)
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        #expect(names == ["script.user.js"])
    }

    @Test func aDeletionIsReportedAndSoIsANewFile() throws {
        let folder = try Folder()
        let names = try folder.namesAfter {
            try FileManager.default.removeItem(at: folder.file)
            try Data("new\n".utf8).write(to: folder.url.appendingPathComponent("other.user.js"))
        }
        #expect(names.sorted() == ["other.user.js", "script.user.js"])
    }

    @Test func aCancelledWatchEndsItsWaitAndSeesNothingMore() async throws {
        let folder = try Folder()
        folder.watch.cancel()
        let names = await folder.watch.nextSettledNames(isStopped: { false })
        #expect(names == nil)
        #expect(folder.namesAfter({ try? Data("two\n".utf8).write(to: folder.file) }, waiting: 0.5).isEmpty)
    }

    @Test func aFolderThatIsNotThereIsRefusedWithTheReason() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("folder-watch-missing-\(UUID().uuidString)")
        #expect {
            _ = try FolderWatch(folder: missing)
        } throws: { error in
            (error as? FolderWatch.Failure)?.description.contains("No such file or directory") == true
        }
    }
}
