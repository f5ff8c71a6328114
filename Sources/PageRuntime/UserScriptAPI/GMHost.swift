import Foundation
import GMAPI
import SystemSupport
import UserScripts

/// The host half of the GM API for one page session: values kept with ``GMAPI/ScriptValueStore``,
/// `GM_xmlhttpRequest` performed by ``GMAPI/GMRequestPerformer`` within the script's `@connect`
/// lines, `@require`/`@resource` files from ``GMAPI/DependencyCache`` (fetched by
/// ``GMAPI/DependencyFetcher`` when missing), `GM_download` fetched the same way and saved into
/// the downloads folder (``GMAPI/DownloadFolder``), the tab objects of `GM_saveTab`, and the
/// value changes every run hears of (``GMValueFeed``: what the host's other runs wrote, in any
/// tab it serves, and what another process wrote to the library).
///
/// One host serves every userscript run of a session; call ``shutdown()`` when the session ends
/// (it closes the connections `GM_xmlhttpRequest` opened). Scripts from the library keep their
/// values in it; a script that is not in the library (`-e` code with a metadata block, an
/// example) keeps them for the host's life only.
///
/// ```swift
/// let host = GMHost(libraryDirectory: library.directory, handlerVersion: "0.1.0")
/// let userScript = try await host.prepare(stored.script, id: stored.id)
/// let result = try await page.run(try PreparedScript(stored.script.text, userScript: userScript))
/// await host.shutdown()
/// ```
public final class GMHost: Sendable {
    /// PageScript's version, as `GM_info.version` gives it unless the host is told another.
    public static let defaultHandlerVersion = ProductVersion.current

    /// The library folder values and files are kept in.
    public let libraryDirectory: URL
    /// PageScript's version, for `GM_info.version`.
    public let handlerVersion: String
    let store: ScriptValueStore
    let cache: DependencyCache
    /// The value changes made by the host's runs and, for library scripts, by other processes.
    let valueFeed = GMValueFeed()
    /// The objects scripts keep per tab with `GM_saveTab`.
    let tabObjects = GMTabObjects()
    /// Hosts every script may reach beyond its `@connect` lines (`--connect`).
    let connecting: [String]
    /// Asks the person about a host a script's `@connect` lines do not name; `nil` refuses it.
    let asker: ConnectAsker?
    /// Where `GM_download` saves files; `nil`: downloads are off (`not_enabled`).
    public let downloads: DownloadFolder?
    /// Where `GM_notification` is shown; `nil`: notifications are reported and closed at once.
    public let notifications: GMNotificationDisplay?
    /// Where `GM_setClipboard` puts its data; `nil`: it is reported only.
    public let clipboard: X11Clipboard?
    private let answers: ConnectAnswers
    private let requestConfiguration: GMRequestPerformer.Configuration
    private let state = LockedState()

    /// A host for the library in `libraryDirectory`. Nothing is opened until a script needs it.
    ///
    /// - Parameters:
    ///   - connecting: `@connect` values every script gets for the session (`run --connect HOST`).
    ///   - asker: Asks about a host a script's `@connect` lines do not name (`browse` on a
    ///     terminal); answers kept for good are kept per library script. `nil`: such a request
    ///     is refused, naming the line to add.
    ///   - downloads: The folder `GM_download` saves files in (`--downloads`; made on the first
    ///     download); `nil` turns downloads off.
    ///   - notifications: Shows `GM_notification` on the desktop and hears its clicks (`browse`,
    ///     `edit`); the host stops it in ``shutdown()``. `nil`: notifications are reported, and
    ///     closed unclicked at once.
    ///   - clipboard: The display's clipboard, which `GM_setClipboard` sets (`browse`); the host
    ///     stops it in ``shutdown()``. `nil`: the data is reported only.
    public init(libraryDirectory: URL, handlerVersion: String = GMHost.defaultHandlerVersion,
                requests: GMRequestPerformer.Configuration = GMRequestPerformer.Configuration(),
                connecting: [String] = [], asker: ConnectAsker? = nil, downloads: URL? = nil,
                notifications: GMNotificationDisplay? = nil, clipboard: X11Clipboard? = nil) {
        self.libraryDirectory = libraryDirectory
        self.notifications = notifications
        self.clipboard = clipboard
        self.downloads = downloads.map(DownloadFolder.init(directory:))
        self.handlerVersion = handlerVersion
        requestConfiguration = requests
        self.connecting = connecting
        self.asker = asker
        answers = ConnectAnswers(libraryDirectory: libraryDirectory)
        store = ScriptValueStore(libraryDirectory: libraryDirectory)
        cache = DependencyCache(libraryDirectory: libraryDirectory)
    }

    /// Gets a run of `script` ready: its values now, `GM_info`, its files (fetching the ones not
    /// in the cache yet), its `@connect` policy and grants.
    ///
    /// - Parameters:
    ///   - id: The script's ID in the library; `nil` for a script that is not in it (its values
    ///     then last as long as this host).
    ///   - environment: The browser and world it runs in, for `GM_info`.
    /// - Throws: ``InjectionError/library(_:)`` when a `@require` or `@resource` file cannot be
    ///   had (each named with its line, URL and why), or the values cannot be read.
    public func prepare(_ script: UserScript, id: ScriptID?, environment: GMEnvironment = GMEnvironment()) async throws(InjectionError) -> GMScriptRun {
        let scriptID = id ?? Self.adHocID(for: script)
        var values = state.memoryValues(of: scriptID)
        var cursor = valueFeed.cursor()
        if id != nil {
            do {
                (values, cursor) = try valueFeed.snapshot(of: scriptID, in: store)
            } catch {
                throw .library("the values of \(script.name) cannot be read: \(error.description)")
            }
        }
        let files = try await runFiles(for: script, id: scriptID)
        var resources: [(key: String, value: JSONValue)] = []
        for file in files.resources {
            guard let name = file.dependency.resourceName else { continue }
            resources.append((name, ["text": .string(file.text), "url": .string(file.dataURL)]))
        }
        return GMScriptRun(
            script: script, id: scriptID, keepsValues: id != nil, grants: GMGrants(script: script), values: values,
            info: GMInfo.make(for: script, id: scriptID, handlerVersion: handlerVersion, environment: environment), requires: files.requires.map(\.text),
            resources: .object(resources), policy: ConnectPolicy(script: script).adding(connecting), host: self,
            valueCursor: cursor)
    }

    /// Closes the connections `GM_xmlhttpRequest` opened, stops hearing notifications' clicks and
    /// stops the program that holds the clipboard. Call once, when the session ends; a request
    /// made after it gets `onerror`.
    public func shutdown() async {
        if let notifications { await BlockingWork.run { notifications.stop() } }
        if let clipboard { await BlockingWork.run { clipboard.stop() } }
        if let performer = state.takePerformer() { await performer.shutdown() }
    }

    /// Writes the value changes of `run` (whose ID in the page is `runID`), for the other runs
    /// to hear of; returns a problem to report when they could not be saved.
    func apply(_ changes: [ValueChange], for run: GMScriptRun, runID: String) -> String? {
        guard !changes.isEmpty else { return nil }
        guard run.keepsValues else {
            state.applyInMemory(changes, to: run.id)
            valueFeed.record(changes, by: runID, of: run.id)
            return nil
        }
        do throws(ValueStoreError) {
            try valueFeed.write(changes, by: runID, of: run.id) { () throws(ValueStoreError) -> (values: ScriptValues, stamp: ValueFileStamp?) in
                let written = try store.apply(changes, to: run.id)
                return (written, store.fileStamp(of: run.id))
            }
            return nil
        } catch {
            return "the values of \(run.script.name) could not be saved: \(error.description)"
        }
    }

    /// The changes to the values of `runs` (each with its ID in the page) that reached none of
    /// them yet, made by the host's other runs or, for library scripts, by another process
    /// (their files are looked at now), as the page half's `valueChanged` deliveries.
    func valueChanges(for runs: [(id: String, run: GMScriptRun)]) -> [JSONValue] {
        valueFeed.look(at: Set(runs.filter { $0.run.keepsValues }.map { $0.run.id }), in: store)
        var deliveries: [JSONValue] = []
        for (id, run) in runs {
            for entry in valueFeed.changes(of: run.id, for: id, at: run.valueCursor) {
                var change: [(key: String, value: JSONValue)] = [("run", .string(id)), ("key", .string(entry.change.key)),
                                                                 ("from", entry.run.map(JSONValue.string) ?? .null)]
                if case let .set(_, value) = entry.change { change.append(("value", value)) } else { change.append(("deleted", true)) }
                deliveries.append(["valueChanged": .object(change)])
            }
        }
        return deliveries
    }

    /// Forgets the objects scripts saved with `GM_saveTab` in `tab` (a name given with
    /// ``PageSession/identify(asTab:)``), which was closed.
    public func tabClosed(_ tab: String) {
        tabObjects.close(tab)
    }

    /// Does one `GM_getTab`, `GM_saveTab` or `GM_getTabs` call of `run` in `tab` (its
    /// `action`: `get`, `save` or `list`), and returns the answer for the page half.
    func tabCall(_ item: JSONValue, for run: GMScriptRun, in tab: String) -> JSONValue {
        guard run.grants.tabs else { return ["error": .string("\(run.script.name) has no @grant for GM_getTab, GM_saveTab or GM_getTabs")] }
        switch item["action"]?.stringValue {
        case "save":
            tabObjects.save(item["tab"] ?? .object([]), of: run.id, in: tab)
            return .object([])
        case "list":
            return ["tabs": tabObjects.objects(of: run.id)]
        default:
            return ["tab": tabObjects.object(of: run.id, in: tab)]
        }
    }

    /// Performs one `GM_xmlhttpRequest` of `run` and returns what the page half hands to the
    /// callback (``GMAPI/GMResponse/json`` or ``GMAPI/GMRequestFailure/json``).
    func perform(_ details: JSONValue, for run: GMScriptRun, pageURL: String) async -> JSONValue {
        do throws(GMRequestFailure) {
            let request = try GMRequest(json: details)
            guard let performer = state.performer(configuration: requestConfiguration) else {
                throw .network(url: request.url, reason: "PageScript's session for this page has ended")
            }
            let asking: @Sendable (String, String) async -> Bool? = { @Sendable host, url in await self.consent(to: host, url: url, for: run) }
            return try await performer.perform(request, policy: run.policy, pageURL: try? PageURL(pageURL), asking: asking).json
        } catch {
            return error.json
        }
    }

    /// Performs one `GM_download` of `run` (see ``GMAPI/GMRequestPerformer/download(_:policy:pageURL:into:asking:)``):
    /// refused unless the script was granted it. The record tells the page which callback to call
    /// (``GMAPI/GMDownloadRecord/pageJSON``) and goes into the run's result.
    /// `key` (``downloadKey(run:request:)``): under which a saved file is remembered, for
    /// ``removeSavedDownload(_:)``.
    func download(_ details: JSONValue, for run: GMScriptRun, pageURL: String, key: String) async -> GMDownloadRecord {
        let record = await performDownload(details, for: run, pageURL: pageURL)
        if record.path != nil { state.rememberSaved(record, under: key) }
        return record
    }

    /// The key of a download: the run that asked and its request's number in the document.
    static func downloadKey(run: String, request: JSONValue) -> String {
        run + "#" + request.serialized
    }

    /// Removes the file a download saved, for a script that aborted it before the answer reached
    /// it (an overwritten file's old content is gone already); the record of what was removed.
    func removeSavedDownload(_ key: String) -> GMDownloadRecord? {
        guard let record = state.takeSaved(key), let path = record.path else { return nil }
        unlink(path)
        return record.aborted()
    }

    private func performDownload(_ details: JSONValue, for run: GMScriptRun, pageURL: String) async -> GMDownloadRecord {
        let url = details["url"]?.stringValue ?? ""
        guard run.grants.downloads else {
            return GMDownloadRecord(url: url, error: .notPermitted, message: "\(run.script.name) has no @grant GM_download or GM.download")
        }
        let download: GMDownload
        do throws(GMRequestFailure) {
            download = try GMDownload(json: details)
        } catch {
            return GMDownloadRecord(url: url, error: .notSucceeded, message: GMRequestPerformer.downloadMessage(error))
        }
        guard let performer = state.performer(configuration: requestConfiguration) else {
            return GMDownloadRecord(url: url, error: .notSucceeded, message: "PageScript's session for this page has ended")
        }
        let asking: @Sendable (String, String) async -> Bool? = { @Sendable host, url in await self.consent(to: host, url: url, for: run) }
        return await performer.download(download, policy: run.policy, pageURL: try? PageURL(pageURL), into: downloads, asking: asking)
    }

    /// Whether `run`'s script may reach `host`, which its `@connect` lines do not name: the
    /// answer given before (this session's, or kept for a library script), else the person's
    /// when there is someone to ask; `nil` when nobody answered.
    private func consent(to host: String, url: String, for run: GMScriptRun) async -> Bool? {
        if let given = state.answer(host: host, for: run.id) { return given }
        if run.keepsValues, let kept = answers.answer(host: host, for: run.id) { return kept }
        guard let asker else { return nil }
        let answer = await asker(ConnectQuestion(scriptName: run.script.name, script: run.keepsValues ? run.id : nil, host: host, url: url))
        state.remember(answer.allows, host: host, for: run.id)
        if answer.isKept, run.keepsValues { try? answers.remember(answer.allows, host: host, for: run.id) }
        return answer.allows
    }

    private func runFiles(for script: UserScript, id: ScriptID) async throws(InjectionError) -> ScriptRunFiles {
        do {
            var files = try cache.runFiles(for: script, id: id)
            if !files.isRunnable {
                _ = try await DependencyFetcher.withFetcher(cache: cache) { fetcher in
                    try await fetcher.fetch(for: script, id: id)
                }
                files = try cache.runFiles(for: script, id: id)
            }
            guard files.isRunnable else {
                throw InjectionError.filesMissing("\(script.name) cannot run without its files: "
                    + files.missing.map(\.description).joined(separator: "; "))
            }
            return files
        } catch let error as InjectionError {
            throw error
        } catch let error as DependencyError {
            throw .library("the files of \(script.name) cannot be read: \(error.description)")
        } catch {
            throw .library("the files of \(script.name) cannot be read: \(error)")
        }
    }

    /// An ID for a script that is not in the library, from its name and namespace, so that its
    /// fetched files are found again on the next run.
    static func adHocID(for script: UserScript) -> ScriptID {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (script.namespace ?? "").utf8 + [0] + script.name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return ScriptID("unsaved-" + String(hash, radix: 36))
    }
}

/// What a ``GMHost`` keeps between calls, behind a lock.
private final class LockedState: @unchecked Sendable {
    private let lock = NSLock()
    private var performer: GMRequestPerformer?
    private var isShutDown = false
    private var memory: [ScriptID: ScriptValues] = [:]
    private var connectAnswers: [ScriptID: [String: Bool]] = [:]
    /// Files downloads saved lately, by ``GMHost/downloadKey(run:request:)``, the oldest first.
    private var savedDownloads: [(key: String, record: GMDownloadRecord)] = []
    /// How many saved downloads are remembered for a late abort.
    private static let rememberedDownloads = 64

    func rememberSaved(_ record: GMDownloadRecord, under key: String) {
        lock.withLock {
            savedDownloads.append((key, record))
            if savedDownloads.count > Self.rememberedDownloads { savedDownloads.removeFirst() }
        }
    }

    func takeSaved(_ key: String) -> GMDownloadRecord? {
        lock.withLock {
            guard let index = savedDownloads.firstIndex(where: { $0.key == key }) else { return nil }
            return savedDownloads.remove(at: index).record
        }
    }

    func answer(host: String, for id: ScriptID) -> Bool? {
        lock.withLock { connectAnswers[id]?[host] }
    }

    func remember(_ allowed: Bool, host: String, for id: ScriptID) {
        lock.withLock { connectAnswers[id, default: [:]][host] = allowed }
    }

    /// The performer, made on the first request; `nil` once the host is shut down.
    func performer(configuration: GMRequestPerformer.Configuration) -> GMRequestPerformer? {
        lock.withLock {
            guard !isShutDown else { return nil }
            if let performer { return performer }
            let made = GMRequestPerformer(configuration: configuration)
            performer = made
            return made
        }
    }

    func takePerformer() -> GMRequestPerformer? {
        lock.withLock {
            defer {
                performer = nil
                isShutDown = true
            }
            return performer
        }
    }

    func memoryValues(of id: ScriptID) -> ScriptValues {
        lock.withLock { memory[id] ?? ScriptValues(scriptID: id) }
    }

    func applyInMemory(_ changes: [ValueChange], to id: ScriptID) {
        lock.withLock { memory[id] = (memory[id] ?? ScriptValues(scriptID: id)).applying(changes) }
    }
}
