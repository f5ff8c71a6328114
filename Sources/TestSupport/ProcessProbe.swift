import Foundation

/// Finds live processes whose environment carries a marker, to prove that a run left nothing
/// behind: every process PageScript starts inherits its environment, and so does everything
/// those processes start.
public enum ProcessProbe {
    /// A fresh marker variable for one test run: `(name, value)`.
    public static func newMarker() -> (name: String, value: String) {
        ("PAGESCRIPT_TEST_MARKER", UUID().uuidString)
    }

    /// The live (not zombie) processes whose environment holds `name=value`, with their commands.
    public static func processes(withEnvironment name: String, value: String) -> [String] {
        let needle = Array("\(name)=\(value)".utf8)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var found: [String] = []
        for entry in entries where Int32(entry) != nil {
            guard let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
            let variables = environ.split(separator: 0)
            guard variables.contains(where: { Array($0) == needle }) else { continue }
            let stat = (try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].split(separator: " ").first == "Z" {
                continue
            }
            let command = (FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") ?? Data())
                .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            found.append("\(entry) \(command)")
        }
        return found
    }
}
