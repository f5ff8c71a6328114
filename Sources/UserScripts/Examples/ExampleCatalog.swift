import Foundation

/// The built-in example scripts, read from the `Scripts` folder of the `UserScripts` resource bundle.
///
/// ```swift
/// let catalog = try ExampleCatalog.builtIn()
/// for example in catalog.examples { print(example.id, example.summary ?? "") }
/// let copy = try library.newFromExample(try catalog.example(named: "word-count"))
/// ```
public struct ExampleCatalog: Sendable {
    /// The folder the examples were read from.
    public let directory: URL
    /// The examples, sorted by ``ExampleScript/id``.
    public let examples: [ExampleScript]

    /// Reads the examples in `directory` (every `.user.js` file in it).
    public init(directory: URL) throws(LibraryError) {
        self.directory = directory
        let path = directory.path(percentEncoded: false)
        let names: [String]
        do {
            names = try FileSystem.listDirectory(atPath: path)
                .filter { $0.status.isRegularFile && $0.name.hasSuffix(ScriptFileName.fileExtension) }
                .map(\.name)
                .sorted()
        } catch {
            throw LibraryError(error)
        }
        var examples: [ExampleScript] = []
        for name in names {
            let filePath = (path.hasSuffix("/") ? path : path + "/") + name
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readFile(atPath: filePath).bytes
            } catch {
                throw LibraryError(error)
            }
            guard let text = ScriptLibrary.decodeUTF8(bytes) else { throw .notUTF8(path: filePath) }
            let id = String(name.dropLast(ScriptFileName.fileExtension.count))
            examples.append(ExampleScript(id: id, file: URL(fileURLWithPath: filePath), script: UserScript(text: text, fallbackName: id)))
        }
        self.examples = examples
    }

    /// The examples installed with PageScript.
    ///
    /// - Parameter bundleName: The resource bundle's name without extension. `nil` looks for
    ///   `PageScript_UserScripts` and then any `<package>_UserScripts` bundle, so the same code
    ///   works in a package with another name.
    /// - Throws: ``LibraryError/examplesUnavailable(searched:)`` with every place it looked.
    public static func builtIn(bundleName: String? = nil) throws(LibraryError) -> ExampleCatalog {
        try builtIn(bundleName: bundleName, sourceFile: #filePath)
    }

    /// ``builtIn(bundleName:)`` with the source file whose folder is the last place looked in.
    static func builtIn(bundleName: String?, sourceFile: String) throws(LibraryError) -> ExampleCatalog {
        let (folder, searched) = ResourceBundleLocator.locate(
            folder: "Scripts", target: "UserScripts", bundleName: bundleName, sourceDirectory: FileSystem.parentDirectory(of: sourceFile))
        guard let folder else { throw .examplesUnavailable(searched: searched) }
        return try ExampleCatalog(directory: URL(fileURLWithPath: folder, isDirectory: true))
    }

    /// The example with this ``ExampleScript/id`` (`word-count`) or name (`Word count`), without
    /// regard to case.
    public func example(named name: String) throws(LibraryError) -> ExampleScript {
        let wanted = name.lowercased()
        guard let example = examples.first(where: { $0.id.lowercased() == wanted || $0.name.lowercased() == wanted }) else {
            throw .exampleNotFound(name, available: examples.map(\.id))
        }
        return example
    }
}
