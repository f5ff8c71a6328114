/// Where a userscript runs, for the parts of `GM_info` that describe it: `platform`,
/// `userAgentData`, `sandboxMode` and `injectInto`.
///
/// PageScript takes the browser's name and version from what its WebDriver session reports
/// (a remote endpoint's own), the operating system from the session's `platformName`, and the
/// processor from the machine PageScript runs on.
///
/// ```swift
/// let environment = GMEnvironment(browserName: "chrome", browserVersion: "156.0.7000.0", os: "linux", arch: "x86-64")
/// let info = GMInfo.make(for: script, id: id, handlerVersion: "0.1.0", environment: environment)
/// ```
public struct GMEnvironment: Sendable, Hashable {
    /// The browser's name as its driver reports it (`chrome`, `MiniBrowser`, `firefox`); empty when unknown.
    public var browserName: String
    /// The browser's version as its driver reports it; empty when unknown.
    public var browserVersion: String
    /// The operating system in the managers' words (`linux`, `mac`, `win`, `android`, `cros`, `openbsd`).
    public var os: String
    /// The processor in the managers' words (`x86-64`, `x86-32`, `arm64`, `arm`).
    public var arch: String
    /// Whether the script runs in an isolated world (`@inject-into content` on Chromium).
    public var isolated: Bool

    /// An environment; the defaults describe a browser PageScript knows nothing about on this machine.
    public init(browserName: String = "", browserVersion: String = "", os: String = "linux", arch: String = GMEnvironment.machineArch,
                isolated: Bool = false) {
        self.browserName = browserName
        self.browserVersion = browserVersion
        self.os = os
        self.arch = arch
        self.isolated = isolated
    }

    /// The environment of a WebDriver session with `capabilities` (`browserName`,
    /// `browserVersion`, `platformName`).
    public init(capabilities: [String: String], isolated: Bool = false) {
        let platform = (capabilities["platformName"] ?? "linux").lowercased()
        let os = switch platform {
        case "windows": "win"
        case "macos", "mac", "darwin": "mac"
        case "": "linux"
        default: platform
        }
        self.init(browserName: capabilities["browserName"] ?? "", browserVersion: capabilities["browserVersion"] ?? "", os: os,
                  isolated: isolated)
    }

    /// The processor PageScript was built for, in the managers' words.
    public static let machineArch: String = {
        #if arch(x86_64)
        "x86-64"
        #elseif arch(arm64)
        "arm64"
        #elseif arch(i386)
        "x86-32"
        #elseif arch(arm)
        "arm"
        #else
        ""
        #endif
    }()
}
