import DevTools
import Foundation
import SystemSupport
import WebDriver

extension DirectDevTools {
    /// A new isolated world in the current window's document (`Page.createIsolatedWorld` on its
    /// main frame): it shares the DOM with the page and none of its JavaScript globals, as an
    /// extension's content scripts do. Returns the document's loader (DevTools' name for it) and
    /// a route whose `Runtime.evaluate` runs there; `nil` when the window cannot be reached this way.
    func isolatedWorld() async -> (loader: String, route: DevToolsRoute)? {
        guard let tab = await attachedTab(),
              let tree = try? await tab.devTools.send("Page.getFrameTree", [:], timeout: 5),
              let frame = tree["frameTree"]?["frame"]?["id"]?.stringValue,
              let loader = tree["frameTree"]?["frame"]?["loaderId"]?.stringValue,
              let world = try? await tab.devTools.send("Page.createIsolatedWorld", ["frameId": .string(frame), "worldName": "PageScript"], timeout: 5),
              let context = world["executionContextId"]?.intValue else { return nil }
        return (loader, Self.route(in: tab.devTools, context: context))
    }

    /// The loader of the current window's document, as DevTools names it; `nil` when unknown.
    func documentLoader() async -> String? {
        await attachedTab()?.mainFrameLoader()
    }
}
