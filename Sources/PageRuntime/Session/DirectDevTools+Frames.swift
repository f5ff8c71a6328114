import DevTools
import Foundation
import NIOConcurrencyHelpers
import SystemSupport
import WebDriver

extension DirectDevTools {
    /// Calls `visit` with a route into each frame of the current window's document, depth-first
    /// (`depth` 1 for the document's own frames), at most `limit` frames and `maxDepth` deep.
    ///
    /// A frame in the window's own renderer is reached in its main world (`Runtime.evaluate` with
    /// the frame's default execution context, read once with `Runtime.enable`); a frame on
    /// another site, which Chromium runs in a process of its own, through a flat session attached
    /// to its target (its parent target as `Target.getTargets` says), and its own frames the same
    /// way, detached again afterwards.
    /// Every call is compiled by the browser's DevTools, never by anything of the page's.
    ///
    /// - Returns: `false` when the window could not be reached this way (its target not attached
    ///   within a few seconds): nothing was visited.
    func visitFrames(limit: Int, maxDepth: Int,
                     _ visit: (_ depth: Int, _ route: DevToolsRoute) async throws(InjectionError) -> Void) async throws(InjectionError) -> Bool {
        guard let tab = await attachedTab() else { return false }
        // Which frames run in processes of their own, under which target: one look at them all.
        let targets = (try? await tab.devTools.connection.browser.send("Target.getTargets", [:], timeout: 10))?["targetInfos"]?.arrayValue ?? []
        let outOfProcess = targets.filter { $0["type"]?.stringValue == "iframe" }.compactMap { info -> (id: String, parent: String)? in
            guard let id = info["targetId"]?.stringValue, let parent = info["parentId"]?.stringValue else { return nil }
            return (id, parent)
        }
        var visited = 0
        try await Self.visitFrames(in: tab.devTools, target: tab.windowHandle, outOfProcess: outOfProcess, depth: 0, limit: limit, maxDepth: maxDepth,
                                   visited: &visited, visit)
        return true
    }

    /// The frames of the target `session` is attached to (its main frame at `depth`), then of its
    /// frames in processes of their own (`outOfProcess`: every such frame's target and its parent
    /// target), each attached while it is visited.
    private static func visitFrames(in session: DevToolsSession, target: String, outOfProcess: [(id: String, parent: String)], depth: Int,
                                    limit: Int, maxDepth: Int, visited: inout Int,
                                    _ visit: (Int, DevToolsRoute) async throws(InjectionError) -> Void) async throws(InjectionError) {
        guard depth < maxDepth, visited < limit else { return }
        // This target's own frames, in document order, with their depth under its main frame.
        var local: [(id: String, depth: Int)] = []
        func collect(_ node: JSONValue, depth: Int) {
            for child in node["childFrames"]?.arrayValue ?? [] {
                if let id = child["frame"]?["id"]?.stringValue, depth <= maxDepth { local.append((id, depth)) }
                collect(child, depth: depth + 1)
            }
        }
        if let tree = try? await session.send("Page.getFrameTree", [:], timeout: 10), let root = tree["frameTree"] {
            collect(root, depth: depth + 1)
        }
        let contexts = local.isEmpty ? [:] : await defaultContexts(in: session, frames: Set(local.map(\.id)))
        for frame in local where visited < limit {
            guard let context = contexts[frame.id] else { continue }
            visited += 1
            try await visit(frame.depth, route(in: session, context: context))
        }
        // Frames on other sites: each a target of its own, attached while it is visited.
        let browser = session.connection.browser
        for child in outOfProcess where child.parent == target && visited < limit {
            guard let frame = try? await browser.attach(toTarget: child.id) else { continue }
            visited += 1
            do {
                try await visit(depth + 1, DevToolsRoute { method, parameters, timeout throws(WebDriverError) in
                    try await send(method, parameters, timeout, on: frame)
                })
                try await visitFrames(in: frame, target: child.id, outOfProcess: outOfProcess, depth: depth + 1, limit: limit, maxDepth: maxDepth,
                                      visited: &visited, visit)
            } catch {
                try? await browser.detach(frame)
                throw error
            }
            try? await browser.detach(frame)
        }
    }

    /// The current window's tab once attached (waiting a few seconds for it); `nil` when it is not.
    func attachedTab() async -> Tab? {
        var tab = readyTab()
        let deadline = ContinuousClock.now + .seconds(5)
        while tab == nil, ContinuousClock.now < deadline, !isUnavailable {
            try? await Task.sleep(for: .milliseconds(20))
            tab = readyTab()
        }
        return tab
    }

    /// A route whose `Runtime.evaluate` runs in the execution context `context` of the target
    /// `session` is attached to; every other command goes to that target as it is.
    static func route(in session: DevToolsSession, context: Int) -> DevToolsRoute {
        DevToolsRoute { method, parameters, timeout throws(WebDriverError) in
            var parameters = parameters
            if method == "Runtime.evaluate", case let .object(members) = parameters {
                parameters = .object(members.filter { $0.key != "contextId" } + [(key: "contextId", value: .integer(Int64(context)))])
            }
            return try await send(method, parameters, timeout, on: session)
        }
    }

    static func send(_ method: String, _ parameters: JSONValue, _ timeout: Double, on session: DevToolsSession) async throws(WebDriverError) -> JSONValue {
        do throws(DevToolsError) {
            return try await session.send(method, parameters, timeout: timeout)
        } catch {
            throw error.asWebDriverError(method: method)
        }
    }

    /// The main world's execution context of each of `frames`, as `Runtime.enable` reports the
    /// contexts there are (then disabled again).
    private static func defaultContexts(in session: DevToolsSession, frames: Set<String>) async -> [String: Int] {
        let found = NIOLockedValueBox<[String: Int]>([:])
        let events = session.events(["Runtime.executionContextCreated"])
        let reading = Task {
            for await event in events {
                let context = event.parameters["context"]
                guard let id = context?["id"]?.intValue, context?["auxData"]?["isDefault"] == .bool(true),
                      let frame = context?["auxData"]?["frameId"]?.stringValue, frames.contains(frame) else { continue }
                found.withLockedValue { $0[frame] = id }
            }
        }
        defer { reading.cancel() }
        _ = try? await session.send("Runtime.enable", [:], timeout: 10)
        _ = try? await session.send("Runtime.disable", [:], timeout: 10)
        // The browser sends the contexts there are before its reply; they may still be on their
        // way to the reading task. A frame with no document of its own yet has none.
        let deadline = ContinuousClock.now + .milliseconds(500)
        while found.withLockedValue({ $0.count }) < frames.count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return found.withLockedValue { $0 }
    }
}
