import Foundation
import TestSupport

/// Zip archives for the tests, written by Python's `zipfile` (a real, independent zip writer):
/// each entry deflated or stored, any name, hostile ones included.
enum ZipFixture {
    enum Method: String {
        case deflated, stored
    }

    struct Entry {
        let name: String
        let bytes: [UInt8]
        var method: Method = .deflated

        init(_ name: String, _ text: String, method: Method = .deflated) {
            self.name = name
            bytes = Array(text.utf8)
            self.method = method
        }

        init(_ name: String, bytes: [UInt8], method: Method = .deflated) {
            self.name = name
            self.bytes = bytes
            self.method = method
        }
    }

    /// The archive's bytes.
    static func archive(_ entries: [Entry]) throws -> [UInt8] {
        let folder = try TemporaryDirectory("zip-fixture")
        var manifest: [[String: String]] = []
        for (index, entry) in entries.enumerated() {
            let file = folder.file("part-\(index)")
            try Data(entry.bytes).write(to: file)
            manifest.append(["name": entry.name, "file": file.path, "method": entry.method.rawValue])
        }
        let output = folder.file("out.zip")
        let script = """
            import json, sys, zipfile
            spec = json.load(sys.stdin)
            with zipfile.ZipFile(sys.argv[1], "w") as archive:
                for entry in spec:
                    method = zipfile.ZIP_DEFLATED if entry["method"] == "deflated" else zipfile.ZIP_STORED
                    with open(entry["file"], "rb") as part:
                        archive.writestr(zipfile.ZipInfo(entry["name"], (2024, 1, 2, 3, 4, 6)), part.read(), compress_type=method)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, output.path]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: manifest))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError(reason: "python3 zipfile exited with \(process.terminationStatus)") }
        return Array(try Data(contentsOf: output))
    }

    /// Writes the archive into `folder` as `name` and returns its path.
    static func write(_ entries: [Entry], to name: String, in folder: TemporaryDirectory) throws -> String {
        let file = folder.file(name)
        try Data(try archive(entries)).write(to: file)
        return file.path
    }

    /// Where the data of the entry named `name` starts, read from its local header.
    static func dataOffset(of name: String, in archive: [UInt8]) throws -> Int {
        let nameBytes = Array(name.utf8)
        var offset = 0
        while offset + 30 < archive.count {
            if archive[offset..<(offset + 4)].elementsEqual([0x50, 0x4B, 0x03, 0x04]) {
                let nameLength = Int(archive[offset + 26]) | Int(archive[offset + 27]) << 8
                let extraLength = Int(archive[offset + 28]) | Int(archive[offset + 29]) << 8
                if archive[(offset + 30)..<(offset + 30 + nameLength)].elementsEqual(nameBytes) {
                    return offset + 30 + nameLength + extraLength
                }
            }
            offset += 1
        }
        throw FixtureError(reason: "no local header for \(name)")
    }

    /// Where the central-directory header of the entry named `name` starts.
    static func centralHeaderOffset(of name: String, in archive: [UInt8]) throws -> Int {
        let nameBytes = Array(name.utf8)
        for offset in 0..<(archive.count - 46) where archive[offset..<(offset + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]) {
            let nameLength = Int(archive[offset + 28]) | Int(archive[offset + 29]) << 8
            if archive[(offset + 46)..<(offset + 46 + nameLength)].elementsEqual(nameBytes) { return offset }
        }
        throw FixtureError(reason: "no central header for \(name)")
    }

    struct FixtureError: Error {
        let reason: String
    }
}
