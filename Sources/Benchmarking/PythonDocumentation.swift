import Foundation
import SystemSupport

/// The HTML documentation of Python 3.11 from Debian's `python3.11-doc`: the real pages of the
/// real-page batch rows (``RealPageBenchmark``), installed by the bench when missing, as it
/// installs its Python peers.
///
/// The package puts the pages Sphinx generated (with their scripts, style sheets and images) in
/// ``folder``; its `jquery.js` and `underscore.js` are links into the packages it depends on.
/// The bench installs it with `apt-get` when it runs as root; otherwise, or when `apt-get` fails,
/// the error says which command installs it.
///
/// ```swift
/// let folder = try PythonDocumentation.prepare { note in print(note) }
/// let site = try StaticSite(serving: folder)
/// ```
public enum PythonDocumentation {
    /// The Debian package.
    public static let package = "python3.11-doc"
    /// Where the package puts its HTML.
    public static let folder = URL(fileURLWithPath: "/usr/share/doc/python3.11/html", isDirectory: true)

    /// Whether the documentation is in ``folder``.
    public static var isInstalled: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path(percentEncoded: false))
    }

    /// ``folder``, after installing the package when the documentation is not there.
    ///
    /// The install runs `apt-get install` without recommended packages; when that fails (the
    /// package lists are missing or old), `apt-get update` and the install once more.
    ///
    /// - Parameter progress: Told what is being done, for the user.
    /// - Throws: ``BenchmarkError/pagesUnavailable(reason:)``, naming the command that installs
    ///   the package, when it is missing and cannot be installed here (not root, no `apt-get`,
    ///   the install failed).
    public static func prepare(progress: (String) -> Void) throws(BenchmarkError) -> URL {
        if isInstalled { return folder }
        let command = "sudo apt-get install \(package)"
        guard geteuid() == 0 else {
            throw .pagesUnavailable(reason: "\(package) is not installed, and the bench installs it only as root; run `\(command)`")
        }
        guard let aptGet = ExecutableLocator.find("apt-get") else {
            throw .pagesUnavailable(reason: "\(package) is not installed and apt-get is not on PATH (this is not Debian); install Debian's \(package) for its \(folder.path(percentEncoded: false))")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        let install = ["install", "--yes", "--no-install-recommends", package]
        progress("installing the pages of the real-page rows (apt-get install \(package))")
        do {
            _ = try MeasuredProcess.run(executable: aptGet, arguments: install, environment: environment, timeout: 900, label: "apt-get install \(package)")
        } catch {
            progress("apt-get install \(package) failed; updating the package lists (apt-get update) and trying again")
            do {
                _ = try MeasuredProcess.run(executable: aptGet, arguments: ["update"], environment: environment, timeout: 900, label: "apt-get update")
                _ = try MeasuredProcess.run(executable: aptGet, arguments: install, environment: environment, timeout: 900, label: "apt-get install \(package)")
            } catch {
                throw .pagesUnavailable(reason: "\(error); run `\(command)`")
            }
        }
        guard isInstalled else {
            throw .pagesUnavailable(reason: "\(package) was installed but \(folder.path(percentEncoded: false)) has no index.html; run `\(command)`")
        }
        return folder
    }
}
