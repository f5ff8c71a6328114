import Foundation

/// Finds programs on `PATH`, the way a shell would.
public enum ExecutableLocator {
    /// The absolute path of the first executable named `name` on `path`, or `nil`.
    ///
    /// - Parameters:
    ///   - name: A program name (`chromedriver`), or a path, which is returned if executable.
    ///   - path: A colon-separated search path; defaults to this process's `PATH`.
    public static func find(_ name: String, path: String? = nil) -> String? {
        if name.contains("/") {
            return access(name, X_OK) == 0 ? name : nil
        }
        let searchPath = path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory),
               !isDirectory.boolValue, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}
