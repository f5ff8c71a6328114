import Foundation
import UserScripts

/// Where GMAPI keeps what it stores beside the user's scripts, inside the library folder.
///
/// ```text
/// .pagescript-values/<id>.json     a script's values (GM_setValue)
/// .pagescript-cache/<sha256>       a fetched @require or @resource file, named by its SHA-256
/// .pagescript-fetched/<id>.json    what was fetched for a script: its requires, resources, itself
/// .pagescript.lock                 the library's lock file, shared with ScriptLibrary
/// ```
///
/// Every folder is hidden, so the library's own listing never mistakes it for a script, and
/// everything is keyed by the script's ID, so a rename changes nothing here.
struct LibraryFolder: Sendable {
    /// The library folder, without a trailing slash.
    let path: String

    /// The library's lock file, the same one `ScriptLibrary` takes for its read-check-write
    /// sequences, so that GMAPI's writes and the library's take turns across processes.
    static let lockFileName = ".pagescript.lock"
    static let valuesFolderName = ".pagescript-values"
    static let cacheFolderName = ".pagescript-cache"
    static let fetchedFolderName = ".pagescript-fetched"

    init(_ directory: URL) {
        var path = directory.standardizedFileURL.path(percentEncoded: false)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }

    var lockFile: String { path + "/" + Self.lockFileName }
    var valuesFolder: String { path + "/" + Self.valuesFolderName }
    var cacheFolder: String { path + "/" + Self.cacheFolderName }
    var fetchedFolder: String { path + "/" + Self.fetchedFolderName }

    func valuesFile(for id: ScriptID) -> String { valuesFolder + "/" + Self.fileName(for: id) + ".json" }
    func fetchedRecord(for id: ScriptID) -> String { fetchedFolder + "/" + Self.fileName(for: id) + ".json" }
    func cacheFile(sha256 hex: String) -> String { cacheFolder + "/" + hex }

    /// Runs `body` holding the library's lock file.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        try FileSystem.withExclusiveLock(onFile: lockFile, body)
    }

    /// A script ID as a file name. IDs of files put into the library by hand are their file
    /// names, so they never hold `/`; anything outside a safe set is percent-encoded all the same.
    static func fileName(for id: ScriptID) -> String {
        var name = ""
        for byte in id.rawValue.utf8 {
            let isSafe = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            if isSafe, !(name.isEmpty && byte == UInt8(ascii: ".")) {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name
    }

    /// The script ID a file in one of the per-script folders belongs to.
    static func scriptID(fromFileName name: String) -> ScriptID? {
        guard name.hasSuffix(".json"), !name.hasPrefix(".") else { return nil }
        let stem = name.dropLast(".json".count)
        var bytes: [UInt8] = []
        var index = stem.utf8.startIndex
        let utf8 = stem.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low < utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return ScriptID(text)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
