import Foundation
import UserScripts

extension ScriptImporter {
    /// `source` when it is an http or https address, `nil` when it is a path.
    ///
    /// - Throws: ``ScriptImportError/unsupportedAddress(_:reason:)`` for an address of another
    ///   scheme (`ftp://`, `file://`): a path is given as it is.
    static func address(in source: String) throws(ScriptImportError) -> String? {
        guard let separator = source.range(of: "://") else { return nil }
        let scheme = source[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) else { return nil }
        guard ["http", "https"].contains(scheme.lowercased()) else {
            throw .unsupportedAddress(source, reason: "only http and https addresses are downloaded; give a file by its path")
        }
        return source
    }

    /// Whether the file at `path` is a zip archive: named `.zip`, or starting as one does.
    static func isBackup(atPath path: String) throws(ScriptImportError) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
        if path.lowercased().hasSuffix(".zip") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 4)).map { Array($0) } ?? []
        return start.count == 4 && ZipArchiveText.isZipArchive(start)
    }

    /// Downloads the script at `address`, and checks that it is one: UTF-8 text with a
    /// `// ==UserScript==` block.
    func download(_ address: String, with fetcher: DependencyFetcher) async throws(ScriptImportError) -> [UInt8] {
        let url: PageURL
        do {
            url = try PageURL(address)
        } catch {
            throw .unsupportedAddress(address, reason: "\(error)")
        }
        let download: DependencyFetcher.Download
        do {
            download = try await fetcher.download(url)
        } catch {
            throw .download(address: address, failure: error)
        }
        // A zip archive's bytes can happen to be UTF-8 (a small one, stored): it is never a script.
        if ZipArchiveText.isZipArchive(download.bytes) { throw .zipArchive(address: address) }
        guard let text = String(validating: download.bytes, as: UTF8.self) else { throw .notText(address: address) }
        guard UserScript(text: text).hasMetadataBlock else { throw .notAUserScript(address: address) }
        return download.bytes
    }
}
