import Foundation
import SystemSupport
import UserScripts

/// The objects scripts keep per tab with `GM_saveTab`, for `GM_getTab` and `GM_getTabs`: per
/// script and per tab, for as long as the tab is open (across its navigations), as Tampermonkey
/// keeps them. A script reaches its own objects only.
///
/// A tab is named by the caller (``PageSession/identify(asTab:)``: in `browse`, the tab's
/// DevTools target or WebDriver window); `GM_getTabs` numbers the tabs from 1 in the order they
/// were first seen, as Tampermonkey gives tab IDs.
final class GMTabObjects: @unchecked Sendable {
    private let lock = NSLock()
    /// By script, then by tab: the object last saved.
    private var objects: [ScriptID: [String: JSONValue]] = [:]
    private var numbers: [String: Int] = [:]
    private var counted = 0

    /// What `script` saved in `tab`; an empty object when it saved nothing there.
    func object(of script: ScriptID, in tab: String) -> JSONValue {
        lock.withLock { objects[script]?[tab] ?? .object([]) }
    }

    /// Keeps `object` as `script`'s in `tab`.
    func save(_ object: JSONValue, of script: ScriptID, in tab: String) {
        lock.withLock {
            if numbers[tab] == nil {
                counted += 1
                numbers[tab] = counted
            }
            objects[script, default: [:]][tab] = object
        }
    }

    /// `script`'s objects in every open tab where it saved one, by the tab's number.
    func objects(of script: ScriptID) -> JSONValue {
        lock.withLock {
            let saved = (objects[script] ?? [:]).compactMap { tab, object in numbers[tab].map { (number: $0, object: object) } }
            return .object(saved.sorted { $0.number < $1.number }.map { (key: String($0.number), value: $0.object) })
        }
    }

    /// Forgets what every script saved in `tab`, which is closed.
    func close(_ tab: String) {
        lock.withLock {
            numbers[tab] = nil
            for script in objects.keys { objects[script]?[tab] = nil }
        }
    }
}
