/// Why a library operation failed. Every case says what to do about it in ``description``.
public enum LibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file was changed by another program since it was read; the save was refused and
    /// nothing was written. Read the script again, reapply the edit, and save that.
    case changedOnDisk(path: String)
    /// The file was deleted or moved away since it was read; the save was refused.
    case missingOnDisk(path: String)
    /// The script has lines that must be fixed before it can be saved (rule 9: site rules that
    /// cannot be read safely are refused with the reason and a suggested fix).
    case invalidScript(path: String?, problems: [ScriptNote])
    /// An edit to the script's metadata cannot be made.
    case malformedScript(path: String?, MetadataError)
    /// The file is not UTF-8 text.
    case notUTF8(path: String)
    /// No script has this ID or name.
    case notFound(String)
    /// `scripts restore`: nothing in the trash has this ID or name.
    case notInTrash(String)
    /// `scripts restore`: a script with this ID is in the library already.
    case alreadyInLibrary(id: ScriptID, path: String)
    /// Several scripts answer to this name or ID prefix.
    case ambiguous(String, candidates: [ScriptID])
    /// A file-system call failed.
    case fileSystem(operation: String, path: String, reason: String)
    /// The state file (enabled and per-site switches) cannot be read; nothing runs automatically
    /// and nothing changes it until it is fixed or removed.
    case unreadableState(path: String, reason: String)
    /// No library location can be worked out: `HOME` is not set and no directory was given.
    case noHomeDirectory
    /// The built-in examples are not installed next to the program or in the build folder.
    case examplesUnavailable(searched: [String])
    /// No built-in example has this name.
    case exampleNotFound(String, available: [String])
    /// A file to import or a folder to export to does not exist or is not the right kind.
    case invalidSource(path: String, reason: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .changedOnDisk(let path):
            "\(path) was changed by another program since it was read; nothing was saved. Read it again and reapply your edit."
        case .missingOnDisk(let path):
            "\(path) was deleted or moved since it was read; nothing was saved."
        case .invalidScript(let path, let problems):
            "\(path.map { "\($0): " } ?? "")the script cannot be saved:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
        case .malformedScript(let path, let error):
            "\(path.map { "\($0): " } ?? "")the metadata cannot be changed: \(error)"
        case .notUTF8(let path):
            "\(path) is not UTF-8 text"
        case .notFound(let reference):
            "no script is called or has the ID `\(reference)`"
        case .notInTrash(let reference):
            "nothing in the library's trash is called or has the ID `\(reference)`; `pagescript scripts restore` lists what is there"
        case .alreadyInLibrary(let id, let path):
            "a script with the ID \(id) is in the library already (\(path)); remove or rename it first"
        case .ambiguous(let reference, let candidates):
            "`\(reference)` could be any of \(candidates.map(\.rawValue).joined(separator: ", ")); use the ID"
        case .fileSystem(_, _, let reason):
            reason
        case .unreadableState(let path, let reason):
            "the library state file \(path) cannot be read (\(reason)); no script runs automatically until it is fixed or removed"
        case .noHomeDirectory:
            "cannot find the script library: HOME is not set; set PAGESCRIPT_LIBRARY or give a directory"
        case .examplesUnavailable(let searched):
            "the built-in examples are not installed; looked in:\n" + searched.map { "  \($0)" }.joined(separator: "\n")
        case .exampleNotFound(let name, let available):
            "no built-in example is called `\(name)`; the examples are: \(available.joined(separator: ", "))"
        case .invalidSource(let path, let reason):
            "\(path): \(reason)"
        }
    }

    init(_ failure: FileSystem.Failure) {
        self = .fileSystem(operation: failure.operation, path: failure.path, reason: failure.explanation)
    }
}
