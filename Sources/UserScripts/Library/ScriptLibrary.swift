import Foundation

/// The user's scripts: a folder of `.user.js` files, one per script.
///
/// **On disk.** Each script is `<slug>-<id>.user.js`, where the slug comes from the script's name
/// when it was created and the ID is eight random characters that never change (see
/// ``ScriptID``); renaming a script rewrites its `@name` only, so two scripts may share a name and
/// a rename never clobbers another file. Files dropped into the folder by hand are picked up too.
/// Enabled and per-site switches live in `.pagescript-state.json`; deleted scripts go to `.trash/`;
/// `.pagescript.lock` lets PageScript processes take turns. Nothing else is stored.
///
/// **Safety.** Every write is atomic (a temporary file in the same folder, flushed, renamed over
/// the old file, then the folder flushed), so a writer killed at any moment leaves the old file or
/// the new one, never a mixture. A save refuses to overwrite a file that changed since it was read
/// (``LibraryError/changedOnDisk(path:)``). A file that cannot be read as a script is reported in
/// ``problems()`` and never written to. Nothing is ever deleted outright.
///
/// **Freshness.** Every call first compares the folder's files (size, times, inode) with what it
/// read before and rereads only what changed, so an edit made in another editor is what runs next.
///
/// ```swift
/// let library = try ScriptLibrary(directory: try LibraryLocation.resolve(environment: env).directory)
/// let url = try PageURL("https://www.example.com/")
/// for match in try library.which(url: url) {
///     print(match.script.name, match.pattern)
/// }
/// ```
public final class ScriptLibrary: @unchecked Sendable {
    /// The library folder.
    public let directory: URL
    let directoryPath: String

    static let stateFileName = ".pagescript-state.json"
    static let lockFileName = ".pagescript.lock"
    static let trashFolderName = ".trash"
    /// A leftover temporary file of a writer that died is removed once it is this old.
    static let staleTemporaryAge: Int64 = 60

    /// When the folder is checked for changes made by other programs.
    public let reloadPolicy: ReloadPolicy

    /// Guards ``cache``: one call at a time per library object. Other processes are kept in
    /// step by the lock file.
    private let mutex = NSLock()
    private var cache = Cache()
    /// Told about each stage of every atomic write; set by tests that stop a writer mid-save.
    var writeObserver: (@Sendable (FileSystem.WriteStage) -> Void)?

    private struct CachedFile {
        var status: FileSystem.Status
        var content: Content
    }

    private enum Content {
        case script(ScriptID, UserScript, FileFingerprint)
        case problem(LibraryProblem)
    }

    private struct Cache {
        var isLoaded = false
        var files: [String: CachedFile] = [:]
        var stateStatus: FileSystem.Status?
        var state = LibraryState()
        var stateError: LibraryError?
        var scripts: [StoredScript] = []
        var indexByID: [ScriptID: Int] = [:]
        var problems: [LibraryProblem] = []
        var matcher = ScriptMatcher([])
        var lastCheck: ContinuousClock.Instant?
    }

    /// Opens (and if needed creates, with its parents) the library folder.
    ///
    /// - Parameters:
    ///   - directory: The library folder (see ``LibraryLocation``).
    ///   - reloadPolicy: When to look for changes made by other programs; by default on every call.
    public init(directory: URL, reloadPolicy: ReloadPolicy = .onEveryAccess) throws(LibraryError) {
        self.reloadPolicy = reloadPolicy
        self.directory = directory.standardizedFileURL
        var path = self.directory.path(percentEncoded: false)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        directoryPath = path
        do {
            try FileSystem.createDirectory(atPath: directoryPath)
        } catch {
            throw LibraryError(error)
        }
    }

    /// Opens the library at a resolved location.
    public convenience init(location: LibraryLocation, reloadPolicy: ReloadPolicy = .onEveryAccess) throws(LibraryError) {
        try self.init(directory: location.directory, reloadPolicy: reloadPolicy)
    }

    // MARK: Reading

    /// Rereads whatever changed on disk since the last look; returns whether anything did.
    /// With the default ``ReloadPolicy/onEveryAccess`` every other method does this first.
    @discardableResult
    public func reloadIfChanged() throws(LibraryError) -> Bool {
        try locked { () throws(LibraryError) in try refresh(force: true) }
    }

    /// Every readable script, sorted by name (then ID).
    public func scripts() throws(LibraryError) -> [StoredScript] {
        try locked { () throws(LibraryError) in
            try refresh()
            return cache.scripts
        }
    }

    /// The files that could not be read as scripts, and a state file that cannot be read.
    public func problems() throws(LibraryError) -> [LibraryProblem] {
        try locked { () throws(LibraryError) in
            try refresh()
            var problems = cache.problems
            if case .unreadableState(let path, let reason)? = cache.stateError {
                problems.append(LibraryProblem(path: path, reason: reason))
            }
            return problems
        }
    }

    /// The script with this ID.
    public func script(id: ScriptID) throws(LibraryError) -> StoredScript {
        try locked { () throws(LibraryError) in
            try refresh()
            guard let index = cache.indexByID[id] else { throw .notFound(id.rawValue) }
            return cache.scripts[index]
        }
    }

    /// The script a person means by `reference`: an ID, the start of exactly one ID, or a name
    /// (compared without regard to case) that exactly one script has.
    public func find(_ reference: String) throws(LibraryError) -> StoredScript {
        try locked { () throws(LibraryError) in
            try refresh()
            if let index = cache.indexByID[ScriptID(reference)] { return cache.scripts[index] }
            let byPrefix = cache.scripts.filter { $0.id.rawValue.hasPrefix(reference) }
            if byPrefix.count == 1, reference.count >= 3 { return byPrefix[0] }
            let byName = cache.scripts.filter { $0.name.lowercased() == reference.lowercased() }
            if byName.count == 1 { return byName[0] }
            let candidates = byName.isEmpty ? (reference.count >= 3 ? byPrefix : []) : byName
            if candidates.isEmpty { throw .notFound(reference) }
            throw .ambiguous(reference, candidates: candidates.map(\.id))
        }
    }

    // MARK: Matching

    /// The scripts that run automatically on `url`, each with the rule and pattern that matched,
    /// in the order they run (by name, then ID). Disabled scripts, scripts switched off for the
    /// page's site, and scripts without `@run-at` are left out unless `includingInactive` is set,
    /// and then their ``ScriptMatch/status`` says why they do not run.
    ///
    /// - Parameters:
    ///   - url: The page.
    ///   - isFrame: Whether the page is a frame; `@noframes` scripts do not run in one.
    ///   - includingInactive: Whether to list matching scripts that do not run, too.
    /// - Throws: ``LibraryError/unreadableState(path:reason:)`` when the switches cannot be read:
    ///   then it is unknown what the user switched off, so nothing is reported as running.
    public func which(url: PageURL, isFrame: Bool = false, includingInactive: Bool = false) throws(LibraryError) -> [ScriptMatch] {
        try locked { () throws(LibraryError) in
            try refresh()
            if let stateError = cache.stateError { throw stateError }
            let site = Site(url: url)
            var matches: [ScriptMatch] = []
            for hit in cache.matcher.matches(url) {
                guard let index = cache.indexByID[hit.id] else { continue }
                let stored = cache.scripts[index]
                let status: ScriptMatch.Status
                if !stored.isEnabled {
                    status = .disabled
                } else if stored.disabledSites.contains(site) {
                    status = .disabledOnSite(site)
                } else if isFrame, stored.script.noFrames {
                    status = .notInFrames
                } else if stored.script.runsAutomatically, let runAt = stored.script.runAt {
                    status = .runs(runAt)
                } else {
                    status = .onDemandOnly
                }
                let match = ScriptMatch(script: stored, rule: hit.rule, pattern: hit.pattern, status: status)
                if includingInactive || match.runsAutomatically { matches.append(match) }
            }
            return matches
        }
    }

    /// The scripts to inject into the page at `url`: enabled, not switched off for its site, with
    /// `@run-at`, matched by their patterns and not excluded. ``StoredScript/script`` tells when.
    public func matches(url: PageURL, isFrame: Bool = false) throws(LibraryError) -> [StoredScript] {
        try which(url: url, isFrame: isFrame).map(\.script)
    }

    // MARK: Writing

    /// Adds a new script to the library, in a new file with a new ID.
    ///
    /// - Throws: ``LibraryError/invalidScript(path:issues:)`` when it has invalid site rules or an
    ///   unsupported `@run-at`.
    public func create(_ script: UserScript) throws(LibraryError) -> StoredScript {
        try locked { () throws(LibraryError) in
            try refresh()
            try Self.validate(script, path: nil)
            let slug = ScriptFileName.slug(for: script.name)
            var id = ScriptID.random()
            while cache.indexByID[id] != nil || cache.files.keys.contains(where: { ScriptID.fromFileName($0) == id }) {
                id = ScriptID.random()
            }
            let name = ScriptFileName.libraryName(slug: slug, id: id)
            let path = directoryPath + "/" + name
            let stored: UserScript
            do throws(MetadataError) {
                stored = try UserScript(text: script.text, fallbackName: ScriptFileName.fallbackName(forFileName: name))
            } catch {
                throw .malformedScript(path: path, error)
            }
            let bytes = Array(stored.text.utf8)
            let status = try withLibraryLock { () throws(LibraryError) in
                try write(bytes, to: path) { () throws(LibraryError) in
                    if try exists(path) { throw .fileSystem(operation: "create", path: path, reason: "a file with this name appeared") }
                }
            }
            cache.files[name] = CachedFile(status: status, content: .script(id, stored, FileFingerprint(bytes: bytes, status: status)))
            rebuild()
            return try storedScript(id)
        }
    }

    /// Adds a script from its text; see ``create(_:)``.
    ///
    /// - Parameter fallbackName: The name to use when the text has no `@name`.
    public func create(text: String, fallbackName: String = "Untitled script") throws(LibraryError) -> StoredScript {
        let script: UserScript
        do {
            script = try UserScript(text: text, fallbackName: fallbackName)
        } catch {
            throw .malformedScript(path: nil, error)
        }
        return try create(script)
    }

    /// Writes an edited script back to its file.
    ///
    /// - Parameters:
    ///   - stored: The script as read from this library, with ``StoredScript/script`` edited.
    ///   - overwritingChangesOnDisk: Replace the file even if another program changed it since it
    ///     was read. Off by default: then such a save throws ``LibraryError/changedOnDisk(path:)``
    ///     and writes nothing.
    /// - Returns: The script as saved, with its new fingerprint; use it for the next save.
    public func save(_ stored: StoredScript, overwritingChangesOnDisk: Bool = false) throws(LibraryError) -> StoredScript {
        try locked { () throws(LibraryError) in
            try refresh()
            let path = stored.file.path(percentEncoded: false)
            let name = FileSystem.baseName(of: path)
            guard FileSystem.parentDirectory(of: path) == directoryPath, ScriptID.fromFileName(name) == stored.id else {
                throw .notFound(stored.id.rawValue)
            }
            try Self.validate(stored.script, path: path)
            let bytes = Array(stored.script.text.utf8)
            let status = try withLibraryLock { () throws(LibraryError) in
                try write(bytes, to: path) { () throws(LibraryError) in
                    guard !overwritingChangesOnDisk else { return }
                    guard let current = try fingerprint(ofFileAt: path) else { throw .missingOnDisk(path: path) }
                    guard current == stored.fingerprint else { throw .changedOnDisk(path: path) }
                }
            }
            let script: UserScript
            do throws(MetadataError) {
                script = try UserScript(text: stored.script.text, fallbackName: ScriptFileName.fallbackName(forFileName: name))
            } catch {
                throw .malformedScript(path: path, error)
            }
            cache.files[name] = CachedFile(status: status, content: .script(stored.id, script, FileFingerprint(bytes: bytes, status: status)))
            rebuild()
            return try storedScript(stored.id)
        }
    }

    /// Moves a script's file to the library's `.trash/` folder (never deleting it) and forgets its
    /// switches. Returns where the file went; a name already in the trash gets a number.
    @discardableResult
    public func delete(id: ScriptID) throws(LibraryError) -> URL {
        try locked { () throws(LibraryError) in
            try refresh()
            let stored = try storedScript(id)
            let path = stored.file.path(percentEncoded: false)
            let name = FileSystem.baseName(of: path)
            let trash = directoryPath + "/" + Self.trashFolderName
            let destination = try withLibraryLock { () throws(LibraryError) in
                do throws(FileSystem.Failure) {
                    try FileSystem.createDirectory(atPath: trash)
                } catch {
                    throw LibraryError(error)
                }
                let stem = String(name.dropLast(ScriptFileName.fileExtension.count))
                var destination = trash + "/" + name
                var number = 1
                while try exists(destination) {
                    number += 1
                    destination = trash + "/\(stem).\(number)\(ScriptFileName.fileExtension)"
                }
                do throws(FileSystem.Failure) {
                    try FileSystem.move(path, to: destination)
                } catch {
                    throw LibraryError(error)
                }
                // The script is gone either way; switches left behind in a state file that cannot
                // be read now are harmless, and apply again if the file is restored from the trash.
                try? changeStateHoldingLock { $0.forget(id) }
                return destination
            }
            cache.files[name] = nil
            rebuild()
            return URL(fileURLWithPath: destination)
        }
    }

    /// Switches a script on or off everywhere (a disabled script runs only on demand).
    public func setEnabled(_ enabled: Bool, id: ScriptID) throws(LibraryError) {
        try changeState(of: id) { entry in
            entry.enabled = enabled ? nil : false
        }
    }

    /// Switches a script off (or back on) for one site: `disable-for URL`.
    public func setDisabled(_ disabled: Bool, id: ScriptID, on site: Site) throws(LibraryError) {
        try changeState(of: id) { entry in
            var sites = Set(entry.disabledOn ?? [])
            if disabled { sites.insert(site.description) } else { sites.remove(site.description) }
            entry.disabledOn = sites.isEmpty ? nil : sites.sorted()
        }
    }

    // MARK: Internals shared with the other files of the library

    /// Runs `body` with the object's mutex held.
    func locked<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }

    func storedScript(_ id: ScriptID) throws(LibraryError) -> StoredScript {
        guard let index = cache.indexByID[id] else { throw .notFound(id.rawValue) }
        return cache.scripts[index]
    }

    var currentState: LibraryState { cache.state }

    /// Records which script is a site's own; called with the mutex held.
    func recordSiteScript(_ id: ScriptID, for site: Site) throws(LibraryError) {
        guard cache.state.sites[site.description] != id.rawValue else { return }
        try withLibraryLock { () throws(LibraryError) in
            try changeStateHoldingLock { $0.sites[site.description] = id.rawValue }
        }
        rebuild()
    }

    static func validate(_ script: UserScript, path: String?) throws(LibraryError) {
        let blocking = script.issues.filter(\.preventsAutomaticRunning)
        guard blocking.isEmpty else { throw .invalidScript(path: path, issues: blocking) }
    }

    /// Reads a file's text, refusing anything that is not UTF-8 (byte for byte: a BOM is kept).
    static func decodeUTF8(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    // MARK: Private

    private func changeState(of id: ScriptID, _ change: @escaping (inout LibraryState.ScriptEntry) -> Void) throws(LibraryError) {
        try locked { () throws(LibraryError) in
            try refresh()
            _ = try storedScript(id)
            try withLibraryLock { () throws(LibraryError) in
                try changeStateHoldingLock { $0.update(id, change) }
            }
            rebuild()
        }
    }

    /// Rereads the state file, applies `change` and writes it back; the library lock must be held,
    /// so that two processes changing switches at once both keep their change.
    private func changeStateHoldingLock(_ change: (inout LibraryState) -> Void) throws(LibraryError) {
        let path = statePath
        var state = try readState(at: path).state
        change(&state)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(state)
        } catch {
            throw .fileSystem(operation: "encode", path: path, reason: "\(error)")
        }
        let status = try write(Array(data) + [UInt8(ascii: "\n")], to: path) { () throws(LibraryError) in }
        cache.state = state
        cache.stateStatus = status
        cache.stateError = nil
    }

    private var statePath: String { directoryPath + "/" + Self.stateFileName }

    private func readState(at path: String) throws(LibraryError) -> (state: LibraryState, status: FileSystem.Status?) {
        let bytes: [UInt8]
        let status: FileSystem.Status
        do {
            (bytes, status) = try FileSystem.readFile(atPath: path)
        } catch {
            if error.isNotFound { return (LibraryState(), nil) }
            throw .unreadableState(path: path, reason: error.message)
        }
        let state: LibraryState
        do {
            state = try JSONDecoder().decode(LibraryState.self, from: Data(bytes))
        } catch {
            throw .unreadableState(path: path, reason: "it is not valid state JSON")
        }
        guard state.format <= LibraryState.currentFormat else {
            throw .unreadableState(path: path, reason: "it was written by a newer PageScript (format \(state.format))")
        }
        return (state, status)
    }

    /// Runs `body` holding the library's lock file, so other PageScript processes wait.
    func withLibraryLock<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        do {
            return try FileSystem.withExclusiveLock(onFile: directoryPath + "/" + Self.lockFileName) {
                try body()
            }
        } catch let error as LibraryError {
            throw error
        } catch let error as FileSystem.Failure {
            throw LibraryError(error)
        } catch {
            throw .fileSystem(operation: "lock", path: directoryPath, reason: "\(error)")
        }
    }

    /// Writes atomically; `check` runs just before the new file replaces the old one.
    func write(_ bytes: [UInt8], to path: String, check: () throws(LibraryError) -> Void) throws(LibraryError) -> FileSystem.Status {
        do {
            return try FileSystem.writeAtomically(bytes, toPath: path, beforeReplacing: { try check() }, observer: writeObserver)
        } catch let error as LibraryError {
            throw error
        } catch let error as FileSystem.Failure {
            throw LibraryError(error)
        } catch {
            throw .fileSystem(operation: "write", path: path, reason: "\(error)")
        }
    }

    func exists(_ path: String) throws(LibraryError) -> Bool {
        do {
            return try FileSystem.linkStatus(atPath: path) != nil
        } catch {
            throw LibraryError(error)
        }
    }

    private func fingerprint(ofFileAt path: String) throws(LibraryError) -> FileFingerprint? {
        do {
            let (bytes, status) = try FileSystem.readFile(atPath: path)
            return FileFingerprint(bytes: bytes, status: status)
        } catch {
            if error.isNotFound { return nil }
            throw LibraryError(error)
        }
    }

    /// Compares the folder with the cache and rereads what changed, when the reload policy (or
    /// `force`) says to.
    @discardableResult
    private func refresh(force: Bool = false) throws(LibraryError) -> Bool {
        let now = ContinuousClock.now
        if cache.isLoaded, !force {
            switch reloadPolicy {
            case .onEveryAccess:
                break
            case .atMostEvery(let interval):
                if let lastCheck = cache.lastCheck, now - lastCheck < interval { return false }
            case .manual:
                return false
            }
        }
        cache.lastCheck = now
        let entries: [(name: String, status: FileSystem.Status)]
        do {
            entries = try FileSystem.listDirectory(atPath: directoryPath)
        } catch {
            throw LibraryError(error)
        }
        var changed = !cache.isLoaded
        var files: [String: CachedFile] = [:]
        for (name, status) in entries {
            if name.hasPrefix(".") {
                removeIfStaleTemporary(name, status: status)
                continue
            }
            guard name.hasSuffix(ScriptFileName.fileExtension), !status.isDirectory else { continue }
            if let cached = cache.files[name], cached.status == status {
                files[name] = cached
                continue
            }
            changed = true
            files[name] = load(name)
        }
        if files.count != cache.files.count || !files.keys.allSatisfy({ cache.files[$0] != nil }) {
            changed = true
        }
        cache.files = files

        let statusOfState: FileSystem.Status?
        do {
            statusOfState = try FileSystem.status(atPath: statePath)
        } catch {
            throw LibraryError(error)
        }
        if !cache.isLoaded || statusOfState != cache.stateStatus {
            changed = true
            do {
                let (state, status) = try readState(at: statePath)
                cache.state = state
                cache.stateStatus = status
                cache.stateError = nil
            } catch {
                // Unknown switches: keep nothing, and let matching refuse until it is fixed.
                cache.state = LibraryState()
                cache.stateStatus = statusOfState
                cache.stateError = error
            }
        }
        cache.isLoaded = true
        if changed { rebuild() }
        return changed
    }

    private func load(_ name: String) -> CachedFile {
        let path = directoryPath + "/" + name
        let bytes: [UInt8]
        let status: FileSystem.Status
        do {
            (bytes, status) = try FileSystem.readFile(atPath: path)
        } catch {
            let placeholder = (try? FileSystem.status(atPath: path)) ?? nil
            return CachedFile(
                status: placeholder ?? FileSystem.Status.unreadable,
                content: .problem(LibraryProblem(path: path, reason: "cannot be read: \(error.message)"))
            )
        }
        guard let text = Self.decodeUTF8(bytes) else {
            return CachedFile(status: status, content: .problem(LibraryProblem(path: path, reason: "is not UTF-8 text")))
        }
        guard let id = ScriptID.fromFileName(name) else {
            return CachedFile(status: status, content: .problem(LibraryProblem(path: path, reason: "has no usable file name")))
        }
        do {
            let script = try UserScript(text: text, fallbackName: ScriptFileName.fallbackName(forFileName: name))
            return CachedFile(status: status, content: .script(id, script, FileFingerprint(bytes: bytes, status: status)))
        } catch {
            return CachedFile(status: status, content: .problem(LibraryProblem(path: path, reason: error.reason, line: error.line)))
        }
    }

    /// Rebuilds the script list, the ID index and the matcher from the cached files and state.
    private func rebuild() {
        var scripts: [StoredScript] = []
        var problems: [LibraryProblem] = []
        var owners: [ScriptID: String] = [:]
        for name in cache.files.keys.sorted() {
            guard let file = cache.files[name] else { continue }
            let path = directoryPath + "/" + name
            switch file.content {
            case .problem(let problem):
                problems.append(problem)
            case .script(let id, let script, let fingerprint):
                if let owner = owners[id] {
                    problems.append(LibraryProblem(
                        path: path,
                        reason: "has the same ID (\(id)) as \(owner); remove `-\(id)` from one of the two file names to give it an ID of its own"
                    ))
                    continue
                }
                owners[id] = name
                scripts.append(StoredScript(
                    id: id,
                    file: URL(fileURLWithPath: path),
                    script: script,
                    fingerprint: fingerprint,
                    isEnabled: cache.state.isEnabled(id),
                    disabledSites: cache.state.disabledSites(id)
                ))
            }
        }
        scripts.sort { lhs, rhs in
            let left = lhs.name.lowercased()
            let right = rhs.name.lowercased()
            return left != right ? left < right : lhs.id < rhs.id
        }
        cache.scripts = scripts
        cache.problems = problems
        cache.indexByID = Dictionary(uniqueKeysWithValues: scripts.enumerated().map { ($0.element.id, $0.offset) })
        cache.matcher = ScriptMatcher(scripts.map { (id: $0.id, rules: $0.script.siteRules) })
    }

    /// A temporary file left by a writer that was killed is removed once the writer is gone.
    private func removeIfStaleTemporary(_ name: String, status: FileSystem.Status) {
        guard let writer = FileSystem.writerProcessID(inTemporaryName: name),
              FileSystem.now - status.modificationSeconds > Self.staleTemporaryAge,
              !FileSystem.isProcessAlive(writer) else { return }
        FileSystem.removeFile(atPath: directoryPath + "/" + name)
    }
}
