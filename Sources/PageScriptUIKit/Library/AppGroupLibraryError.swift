#if canImport(UIKit)
import UserScripts

/// Why the script library shared by the app and its extension could not be opened.
public enum AppGroupLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bundle's Info.plist names no App Group under the key.
    case missingIdentifier(key: String)
    /// The system gave no container for the App Group: the target lacks the App Group entitlement,
    /// or the group is not registered for the team that signed it.
    case containerUnavailable(identifier: String)
    /// The library folder could not be created or read.
    case library(LibraryError)

    /// A one-line explanation that says what to fix.
    public var description: String {
        switch self {
        case .missingIdentifier(let key):
            "The Info.plist has no \(key); set it to the App Group shared by the app and its extension."
        case .containerUnavailable(let identifier):
            "There is no container for the App Group \(identifier); add it to the target's App Groups entitlement."
        case .library(let error):
            error.description
        }
    }
}
#endif
