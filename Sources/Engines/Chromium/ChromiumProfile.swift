import Foundation

/// A Chromium profile folder PageScript makes for one browser and removes after it.
///
/// An empty `--user-data-dir` makes Chromium open its New Tab page first, a WebUI page that is
/// still loading when the session's first navigation starts. The navigation then waits for it,
/// far longer than with chromedriver's own profile (which opens `data:,`), and now and then very
/// long. A profile made here starts on `about:blank` instead (the `session` preferences a user
/// sets under "On startup"), which makes a whole session plus first page much shorter. A user's
/// own profile (`--profile DIR`) is never written to.
///
/// ```swift
/// try ChromiumProfile.makeThrowaway(at: NSTemporaryDirectory() + "my-profile")
/// ```
public enum ChromiumProfile {
    /// The preferences a throwaway profile starts with: open `about:blank` at startup.
    static let startupPreferences = #"{"session":{"restore_on_startup":4,"startup_urls":["about:blank"]}}"#

    /// Makes the folder `path` (and its parents) a profile that starts on `about:blank`.
    ///
    /// - Throws: The file system's error when the folder or its preferences cannot be written.
    public static func makeThrowaway(at path: String) throws {
        try FileManager.default.createDirectory(atPath: path + "/Default", withIntermediateDirectories: true)
        try Data(startupPreferences.utf8).write(to: URL(fileURLWithPath: path + "/Default/Preferences"))
    }
}
