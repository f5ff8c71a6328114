import ActionExtensionSupport
import Foundation
import Testing

/// The extension's page side is the PageRuntime module's Action.js, one file for the command line
/// and for Safari; these tests read the checked-in files, as Xcode would.
@Suite("Action.js in the Action Extension")
struct ActionScriptSourceTests {
    private let spec: XcodeGenSpec

    init() throws {
        spec = try XcodeGenSpec(contentsOf: RepositoryPaths.xcodeGenSpec)
    }

    /// The one JavaScript file among the extension target's sources.
    private func referencedScript() throws -> XcodeGenSpec.Source {
        let scripts = try spec.sources(ofTarget: "ActionExtension").filter { $0.path.hasSuffix(".js") }
        try #require(scripts.count == 1, "the extension target should list exactly one .js source, found \(scripts.map(\.path))")
        return scripts[0]
    }

    private func extensionInfo() throws -> [String: Any] {
        let path = try spec.setting("INFOPLIST_FILE", ofTarget: "ActionExtension")
        return try Self.propertyList(at: RepositoryPaths.apple.appendingPathComponent(path))
    }

    @Test("the project's Action.js is the PageRuntime module's, byte for byte")
    func extensionShipsThePageRuntimeModulesScript() throws {
        let script = try referencedScript()
        #expect(script.buildPhase == "resources")
        let referenced = RepositoryPaths.apple.appendingPathComponent(script.path).standardizedFileURL
        let injection = RepositoryPaths.pageRuntimeActionScript.standardizedFileURL
        #expect(referenced.path == injection.path, "project.yml should reference the PageRuntime module's file itself, not a copy")
        let shipped = try Data(contentsOf: referenced)
        let original = try Data(contentsOf: injection)
        #expect(!original.isEmpty)
        #expect(shipped == original, "\(referenced.path) differs from \(injection.path)")
    }

    @Test("Apple/ holds no copy of Action.js")
    func noCopyUnderApple() {
        let copies = RepositoryPaths.files(under: RepositoryPaths.apple, endingIn: ".js")
        #expect(copies.isEmpty, "copies drift from the original: \(copies.map(\.path))")
    }

    @Test("Info.plist names the referenced file without its extension, as Safari appends .js")
    func preprocessingFileNamesTheScript() throws {
        let script = try referencedScript()
        let attributes = try #require(extensionAttributes(try extensionInfo()))
        let preprocessingFile = attributes["NSExtensionJavaScriptPreprocessingFile"] as? String
        let scriptName = URL(fileURLWithPath: script.path).deletingPathExtension().lastPathComponent
        #expect(preprocessingFile == scriptName)
        #expect(preprocessingFile == "Action")
    }

    @Test("the extension is an action for one web page, with a principal class that exists")
    func extensionIsAnActionForOneWebPage() throws {
        let info = try extensionInfo()
        let extensionInfo = try #require(info["NSExtension"] as? [String: Any])
        #expect(extensionInfo["NSExtensionPointIdentifier"] as? String == "com.apple.ui-services")
        let attributes = try #require(extensionAttributes(info))
        let rule = try #require(attributes["NSExtensionActivationRule"] as? [String: Any])
        let maxCount = rule["NSExtensionActivationSupportsWebPageWithMaxCount"]
        #expect((maxCount as? Int ?? (maxCount as? NSNumber)?.intValue) == 1)
        let principal = try #require(extensionInfo["NSExtensionPrincipalClass"] as? String)
        #expect(principal.hasPrefix("$(PRODUCT_MODULE_NAME)."))
        let className = String(principal.split(separator: ".").last ?? "")
        let declarations = try RepositoryPaths.files(under: RepositoryPaths.apple.appendingPathComponent("ActionExtension"), endingIn: ".swift")
            .map { try String(contentsOf: $0, encoding: .utf8) }
        #expect(declarations.contains { $0.contains("class \(className):") }, "no class \(className) in Apple/ActionExtension")
    }

    @Test("the keys the extension reads and writes are the ones Action.js sends and reads")
    func protocolKeysAgree() throws {
        let actionScript = try String(contentsOf: RepositoryPaths.pageRuntimeActionScript, encoding: .utf8)
        #expect(actionScript.contains(#"parameters.completionFunction({ "URL": document.URL, "title": document.title })"#))
        #expect(actionScript.contains("parameters.customJavaScript"))
        #expect(actionScript.contains("\"\(ActionPage.urlKey)\": document.URL"))
        #expect(actionScript.contains("\"\(ActionPage.titleKey)\": document.title"))
        #expect(actionScript.contains("parameters.\(ActionReply.scriptKey)"))
    }

    @Test("the app and the extension share one App Group, set in one place")
    func targetsShareTheAppGroup() throws {
        let group = try spec.setting("PAGESCRIPT_APP_GROUP")
        #expect(group.hasPrefix("group."))
        for target in ["PageScriptApp", "ActionExtension"] {
            let info = try Self.propertyList(at: RepositoryPaths.apple.appendingPathComponent(try spec.setting("INFOPLIST_FILE", ofTarget: target)))
            #expect(info["PageScriptAppGroupIdentifier"] as? String == "$(PAGESCRIPT_APP_GROUP)", "\(target)'s Info.plist")
            let entitlementsPath = try spec.setting("CODE_SIGN_ENTITLEMENTS", ofTarget: target)
            let entitlements = try Self.propertyList(at: RepositoryPaths.apple.appendingPathComponent(entitlementsPath))
            #expect(entitlements["com.apple.security.application-groups"] as? [String] == ["$(PAGESCRIPT_APP_GROUP)"], "\(target)'s entitlements")
        }
    }

    private func extensionAttributes(_ info: [String: Any]) -> [String: Any]? {
        (info["NSExtension"] as? [String: Any])?["NSExtensionAttributes"] as? [String: Any]
    }

    private static func propertyList(at url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        return try #require(plist as? [String: Any], "\(url.path) is not a dictionary")
    }
}
