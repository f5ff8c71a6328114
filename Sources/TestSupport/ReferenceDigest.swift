import Foundation

/// Digests computed by the system's own tools (coreutils' `md5sum`, `sha1sum`, `sha256sum`,
/// `sha384sum`, `sha512sum`), so that a test's expected hash does not come from the code it tests.
///
/// ```swift
/// let expected = try ReferenceDigest.hex("sha256", of: [0x61])   // "ca978112..."
/// ```
public enum ReferenceDigest {
    /// The digest of `bytes` by `algorithm`'s tool (`md5`, `sha1`, `sha256`, `sha384`, `sha512`).
    public static func bytes(_ algorithm: String, of bytes: [UInt8]) throws -> [UInt8] {
        let folder = try TemporaryDirectory("digest")
        let file = folder.file("input")
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(algorithm)sum")
        process.arguments = [file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let hex = Array(text.prefix { $0 != " " }.utf8)
        guard process.terminationStatus == 0, hex.count.isMultiple(of: 2), !hex.isEmpty else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(algorithm)sum said: \(text)"])
        }
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
    }

    /// The digest in lowercase hex.
    public static func hex(_ algorithm: String, of bytes: [UInt8]) throws -> String {
        try self.bytes(algorithm, of: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
