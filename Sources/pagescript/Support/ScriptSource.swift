import Foundation

/// Reads the script from `-e`, `-f` or standard input.
enum ScriptSource {
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    static func read(code: String?, file: String?, standardInput: Bool) throws -> String {
        if let code { return code }
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw Unreadable(description: "cannot read the script file '\(file)': \(FileManager.default.fileExists(atPath: file) ? "permission denied or not a regular file" : "no such file")")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw Unreadable(description: "the script file '\(file)' is not UTF-8 text")
            }
            return text
        }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(data: data, encoding: .utf8) else {
            throw Unreadable(description: "standard input is not UTF-8 text")
        }
        return text
    }
}
