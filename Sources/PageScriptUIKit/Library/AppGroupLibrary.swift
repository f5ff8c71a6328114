#if canImport(UIKit)
import Foundation
import UserScripts

/// The script library that the app and its Action Extension share, in their App Group container.
///
/// An extension runs in its own sandbox, so the folder of `.user.js` files lives in the App
/// Group container both can reach. The group's identifier is read from the Info.plist
/// (``identifierKey``), where the project sets it from the same build setting as the App Groups
/// entitlement, so the code never names a team's group.
///
/// There is deliberately no fallback to the app's own container: the app and the extension would
/// each see a different, silently diverging library.
///
/// ```swift
/// let library = try AppGroupLibrary.open()
/// let siteScript = try library.scriptForSite(url: pageURL)
/// ```
public enum AppGroupLibrary {
    /// The Info.plist key holding the App Group identifier.
    public static let identifierKey = "PageScriptAppGroupIdentifier"

    /// The library's folder inside the App Group container.
    public static let folderName = "Scripts"

    /// The App Group identifier from a bundle's Info.plist.
    ///
    /// - Parameter bundle: The app's or the extension's bundle.
    /// - Throws: ``AppGroupLibraryError/missingIdentifier(key:)`` when the key is absent, empty,
    ///   or still an unexpanded build setting.
    public static func identifier(in bundle: Bundle = .main) throws(AppGroupLibraryError) -> String {
        guard let identifier = bundle.object(forInfoDictionaryKey: identifierKey) as? String,
              !identifier.isEmpty, !identifier.hasPrefix("$(") else {
            throw .missingIdentifier(key: identifierKey)
        }
        return identifier
    }

    /// The library folder in the App Group container; it may not exist yet.
    ///
    /// - Parameters:
    ///   - bundle: The bundle whose Info.plist names the App Group.
    ///   - fileManager: The file manager that resolves the container.
    public static func directory(
        bundle: Bundle = .main,
        fileManager: FileManager = .default
    ) throws(AppGroupLibraryError) -> URL {
        let identifier = try identifier(in: bundle)
        guard let container = fileManager.containerURL(forSecurityApplicationGroupIdentifier: identifier) else {
            throw .containerUnavailable(identifier: identifier)
        }
        return container.appendingPathComponent(folderName, isDirectory: true)
    }

    /// Opens the shared library, creating its folder when needed.
    ///
    /// - Parameters:
    ///   - bundle: The bundle whose Info.plist names the App Group.
    ///   - fileManager: The file manager that resolves the container.
    public static func open(
        bundle: Bundle = .main,
        fileManager: FileManager = .default
    ) throws(AppGroupLibraryError) -> ScriptLibrary {
        let folder = try directory(bundle: bundle, fileManager: fileManager)
        do {
            return try ScriptLibrary(directory: folder)
        } catch {
            throw .library(error)
        }
    }
}

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
