import Foundation

/// The user's scripts: a folder of `.user.js` files, one per script.
///
/// **On disk.** Each script is `<slug>-<id>.user.js`, where the slug comes from the script's name
/// when it was created and the ID is eight random characters that never change (see
/// ``ScriptID``); renaming a script rewrites its `@name` only, so two scripts may share a name and
/// a rename never clobbers another file. Files dropped into the folder by hand are picked up too.
/// Enabled and per-site switches live in `.pagescript-state.json`; deleted scripts go to `.trash/`;
/// `.pagescript.lock` lets PageScript processes take turns; `.pagescript-index` keeps what
/// PageScript concluded about each file (its ``ScriptInterpretation``), so that a cold start does
/// not read and compile every script again. PageScript never writes into a script it did not
/// create or was not asked to edit.
///
/// **Safety.** Every write is atomic (a temporary file in the same folder, flushed, renamed over
/// the old file, then the folder flushed), so a writer killed at any moment leaves the old file or
/// the new one, never a mixture. A save refuses to overwrite a file that changed since it was read
/// (``LibraryError/changedOnDisk(path:)``). A file that cannot be read as text is reported in
/// ``problems()`` and never written to. Nothing is ever deleted outright.
///
/// **Freshness.** Every call first compares the folder's files (size, times, inode) with what it
/// read before and rereads only what changed, so an edit made in another editor is what runs next.
/// A script's text is read when it is first asked for; matching needs only the index.
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
    /// Where the Public Suffix List is read from, for `.tld` rules.
    public let publicSuffixListPath: String

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

    /// A script file as the library knows it: its interpretation always, its text once read.
    private struct Record {
        let id: ScriptID
        var fingerprint: FileFingerprint
        var interpretation: ScriptInterpretation
        var script: UserScript?
    }

    private struct CachedFile {
        var status: FileSystem.Status
        var content: Content
    }

    /// Boxed: a library keeps one per file, and the dictionary of files stays small.
    private indirect enum Content {
        case script(Record)
        case problem(LibraryProblem)
    }

    private struct Cache {
        var isLoaded = false
        var files: [String: CachedFile] = [:]
        var stateStatus: FileSystem.Status?
        var state = LibraryState()
        var stateError: LibraryError?
        /// The scripts' file names, in library order: by name, then ID.
        var order: [String] = []
        var fileByID: [ScriptID: String] = [:]
        var problems: [LibraryProblem] = []
        var matcher = ScriptMatcher([])
        var lastCheck: ContinuousClock.Instant?
        /// Whether `.pagescript-index` no longer describes ``files``.
        var indexIsStale = false
        /// Whether ``order``, ``fileByID`` and ``matcher`` wait for a ``ScriptLibrary/rebuild()``
        /// after files the library wrote itself.
        var orderIsStale = false
    }

    /// Opens (and if needed creates, with its parents) the library folder.
    ///
    /// - Parameters:
    ///   - directory: The library folder (see ``LibraryLocation``).
    ///   - reloadPolicy: When to look for changes made by other programs; by default on every call.
    ///   - publicSuffixListPath: Where to read the Public Suffix List for `.tld` rules; Debian's
    ///     `publicsuffix` package by default.
    public init(
        directory: URL, reloadPolicy: ReloadPolicy = .onEveryAccess, publicSuffixListPath: String = PublicSuffixList.systemPath
    ) throws(LibraryError) {
        self.reloadPolicy = reloadPolicy
        self.publicSuffixListPath = publicSuffixListPath
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

    /// Every readable script, sorted by name (then ID), with its text.
    public func scripts() throws(LibraryError) -> [StoredScript] {
        try locked { () throws(LibraryError) in
            try refresh()
            try loadTexts(of: cache.order)
            return try cache.order.map { (name) throws(LibraryError) in try storedScript(fileNamed: name) }
        }
    }

    /// The files that could not be read as scripts, a state file that cannot be read, and a
    /// Public Suffix List that `.tld` rules need but cannot be read.
    public func problems() throws(LibraryError) -> [LibraryProblem] {
        try locked { () throws(LibraryError) in
            try refresh()
            var problems = cache.problems
            if case .unreadableState(let path, let reason)? = cache.stateError {
                problems.append(LibraryProblem(path: path, reason: reason))
            }
            if cache.matcher.usesPublicSuffixList, case .failure(let error) = PublicSuffixList.shared(at: publicSuffixListPath) {
                problems.append(LibraryProblem(path: error.path, reason: error.description))
            }
            return problems
        }
    }

    /// The script with this ID.
    public func script(id: ScriptID) throws(LibraryError) -> StoredScript {
        try locked { () throws(LibraryError) in
            try refresh()
            guard let name = cache.fileByID[id] else { throw .notFound(id.rawValue) }
            try loadTexts(of: [name])
            return try storedScript(id)
        }
    }

    /// What PageScript concludes about the script with this ID, from the library's index: its
    /// rules as read, when it runs, and its `@require` and `@resource` files. Its text is not read.
    public func interpretation(of id: ScriptID) throws(LibraryError) -> ScriptInterpretation {
        try locked { () throws(LibraryError) in
            try refresh()
            guard let name = cache.fileByID[id], case .script(let record)? = cache.files[name]?.content else { throw .notFound(id.rawValue) }
            return record.interpretation
        }
    }

    /// The script a person means by `reference`: an ID, the start of exactly one ID, or a name
    /// (compared without regard to case) that exactly one script has.
    public func find(_ reference: String) throws(LibraryError) -> StoredScript {
        try locked { () throws(LibraryError) in
            try refresh()
            let id = try resolve(reference)
            if let name = cache.fileByID[id] { try loadTexts(of: [name]) }
            return try storedScript(id)
        }
    }

    private func resolve(_ reference: String) throws(LibraryError) -> ScriptID {
        if cache.fileByID[ScriptID(reference)] != nil { return ScriptID(reference) }
        let records = cache.order.compactMap(record(fileNamed:))
        let byPrefix = records.filter { $0.id.rawValue.hasPrefix(reference) }
        if byPrefix.count == 1, reference.count >= 3 { return byPrefix[0].id }
        let byName = records.filter { $0.interpretation.name.lowercased() == reference.lowercased() }
        if byName.count == 1 { return byName[0].id }
        let candidates = byName.isEmpty ? (reference.count >= 3 ? byPrefix : []) : byName
        if candidates.isEmpty { throw .notFound(reference) }
        throw .ambiguous(reference, candidates: candidates.map(\.id))
    }

    // MARK: Matching

    /// The scripts that run automatically on `url`, each with the rule and pattern that matched,
    /// in the order they run: by `@run-at` (document-start, document-body, document-end,
    /// document-idle), then in library order (by name, then ID). Disabled scripts, scripts
    /// switched off for the page's site, and scripts that run only on demand are left out unless
    /// `includingInactive` is set; they then follow the running ones, in library order, and their
    /// ``ScriptMatch/status`` says why they do not run.
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
            var hits = cache.matcher.matches(url)
            // Reading the texts finds a file changed since it was listed; match again then.
            for _ in 0..<3 {
                let names = hits.compactMap { cache.fileByID[$0.id] }
                guard try loadTexts(of: names) else { break }
                hits = cache.matcher.matches(url)
            }
            let site = Site(url: url)
            var matches: [ScriptMatch] = []
            for hit in hits {
                guard let stored = try? storedScript(hit.id) else { continue }
                let status: ScriptMatch.Status
                if !stored.isEnabled {
                    status = .disabled
                } else if stored.disabledSites.contains(site) {
                    status = .disabledOnSite(site)
                } else if isFrame, stored.interpretation.noFrames {
                    status = .notInFrames
                } else if let runAt = stored.interpretation.runMode.runAt {
                    status = .runs(runAt)
                } else {
                    status = .onDemandOnly
                }
                let match = ScriptMatch(script: stored, rule: hit.rule, pattern: hit.pattern, status: status)
                if includingInactive || match.runsAutomatically { matches.append(match) }
            }
            return Self.inRunningOrder(matches)
        }
    }

    /// Running scripts by moment, then everything else; library order within each (the sort is
    /// stable and the matcher reports library order).
    private static func inRunningOrder(_ matches: [ScriptMatch]) -> [ScriptMatch] {
        func moment(_ match: ScriptMatch) -> Int {
            guard case .runs(let runAt) = match.status else { return RunAt.allCases.count }
            return RunAt.allCases.firstIndex(of: runAt) ?? RunAt.allCases.count
        }
        return matches.enumerated().sorted { lhs, rhs in
            let left = moment(lhs.element)
            let right = moment(rhs.element)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The scripts to inject into the page at `url`, in the order they run: enabled, not switched
    /// off for its site, running automatically, matched by their rules and not excluded.
    public func matches(url: PageURL, isFrame: Bool = false) throws(LibraryError) -> [StoredScript] {
        try which(url: url, isFrame: isFrame).map(\.script)
    }

    // MARK: Writing

    /// Adds a new script to the library, in a new file with a new ID.
    ///
    /// - Throws: ``LibraryError/invalidScript(path:problems:)`` when it has site rules that cannot
    ///   be read safely or an unknown `@run-at` (rule 9; an import keeps such lines instead).
    public func create(_ script: UserScript) throws(LibraryError) -> StoredScript {
        let problems = script.interpretation.saveProblems
        guard problems.isEmpty else { throw .invalidScript(path: nil, problems: problems) }
        return try locked { () throws(LibraryError) in
            try refresh()
            return try addFile(bytes: Array(script.text.utf8), text: script.text, name: script.name)
        }
    }

    /// Adds a script from its text; see ``create(_:)``.
    ///
    /// - Parameter fallbackName: The name to use when the text has no `@name`.
    public func create(text: String, fallbackName: String = "Untitled script") throws(LibraryError) -> StoredScript {
        try create(UserScript(text: text, fallbackName: fallbackName))
    }

    /// Writes `bytes` to a new `<slug>-<id>.user.js` file exactly as they are; the mutex must be held.
    func addFile(bytes: [UInt8], text: String, name: String) throws(LibraryError) -> StoredScript {
        let slug = ScriptFileName.slug(for: name)
        var id = ScriptID.random()
        while cache.fileByID[id] != nil || cache.files.keys.contains(where: { ScriptID.fromFileName($0) == id }) {
            id = ScriptID.random()
        }
        let fileName = ScriptFileName.libraryName(slug: slug, id: id)
        let path = directoryPath + "/" + fileName
        let status = try withLibraryLock { () throws(LibraryError) in
            try write(bytes, to: path) { () throws(LibraryError) in
                if try exists(path) { throw .fileSystem(operation: "create", path: path, reason: "a file with this name appeared") }
            }
        }
        let script = UserScript(text: text, fallbackName: ScriptFileName.fallbackName(forFileName: fileName))
        remember(script, id: id, fileName: fileName, fingerprint: FileFingerprint(bytes: bytes, status: status), status: status)
        return try storedScript(id)
    }

    /// Writes an edited script back to its file.
    ///
    /// - Parameters:
    ///   - stored: The script as read from this library, with ``StoredScript/script`` edited.
    ///   - overwritingChangesOnDisk: Replace the file even if another program changed it since it
    ///     was read. Off by default: then such a save throws ``LibraryError/changedOnDisk(path:)``
    ///     and writes nothing.
    /// - Throws: ``LibraryError/invalidScript(path:problems:)`` when the edit adds a site rule that
    ///   cannot be read safely or an unknown `@run-at`; such lines the file already had are kept.
    /// - Returns: The script as saved, with its new fingerprint; use it for the next save.
    public func save(_ stored: StoredScript, overwritingChangesOnDisk: Bool = false) throws(LibraryError) -> StoredScript {
        try locked { () throws(LibraryError) in
            try refresh()
            let path = stored.file.path(percentEncoded: false)
            let name = FileSystem.baseName(of: path)
            guard FileSystem.parentDirectory(of: path) == directoryPath, ScriptID.fromFileName(name) == stored.id else {
                throw .notFound(stored.id.rawValue)
            }
            let known = record(fileNamed: name)?.interpretation.saveProblems.map(Self.problemKey) ?? []
            let added = stored.script.interpretation.saveProblems.filter { !known.contains(Self.problemKey($0)) }
            guard added.isEmpty else { throw .invalidScript(path: path, problems: added) }
            let bytes = Array(stored.script.text.utf8)
            let status = try withLibraryLock { () throws(LibraryError) in
                try write(bytes, to: path) { () throws(LibraryError) in
                    guard !overwritingChangesOnDisk else { return }
                    guard let current = try Self.fingerprint(ofFileAt: path) else { throw .missingOnDisk(path: path) }
                    guard current == stored.fingerprint else { throw .changedOnDisk(path: path) }
                }
            }
            let script = UserScript(text: stored.script.text, fallbackName: ScriptFileName.fallbackName(forFileName: name))
            remember(script, id: stored.id, fileName: name, fingerprint: FileFingerprint(bytes: bytes, status: status), status: status)
            return try storedScript(stored.id)
        }
    }

    /// What a save refusal is about, without its line number (an edit moves lines).
    static func problemKey(_ note: ScriptNote) -> String {
        switch note.kind {
        case .ruleSetAside(let rule): "\(rule.kind.key) \(rule.text)"
        default: note.message
        }
    }

    /// Moves a script's file to the library's `.trash/` folder (never deleting it) and forgets its
    /// switches. Returns where the file went; a name already in the trash gets a number.
    @discardableResult
    public func delete(id: ScriptID) throws(LibraryError) -> URL {
        try locked { () throws(LibraryError) in
            try refresh()
            guard let name = cache.fileByID[id] else { throw .notFound(id.rawValue) }
            let path = directoryPath + "/" + name
            let destination = try withLibraryLock { () throws(LibraryError) in
                let destination = try freeTrashPath(for: name)
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
            cache.indexIsStale = true
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

    /// Runs `body` with the object's mutex held; what it wrote is indexed when it ends, once
    /// however many files it wrote.
    func locked<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        mutex.lock()
        defer {
            if cache.orderIsStale { rebuild() }
            writeIndexIfStale()
            mutex.unlock()
        }
        return try body()
    }

    /// The script with this ID, whose text must already be loaded (``loadTexts(of:)``).
    func storedScript(_ id: ScriptID) throws(LibraryError) -> StoredScript {
        guard let name = cache.fileByID[id] else { throw .notFound(id.rawValue) }
        return try storedScript(fileNamed: name)
    }

    private func storedScript(fileNamed name: String) throws(LibraryError) -> StoredScript {
        guard let record = record(fileNamed: name), let script = record.script else { throw .notFound(name) }
        return StoredScript(
            id: record.id,
            file: URL(fileURLWithPath: directoryPath + "/" + name),
            script: script,
            fingerprint: record.fingerprint,
            isEnabled: cache.state.isEnabled(record.id),
            disabledSites: cache.state.disabledSites(record.id)
        )
    }

    private func record(fileNamed name: String) -> Record? {
        guard case .script(let record)? = cache.files[name]?.content else { return nil }
        return record
    }

    /// Reads the text of each named script not read yet. A file found changed since it was listed
    /// is interpreted again and the matcher rebuilt; returns whether that happened.
    @discardableResult
    private func loadTexts(of names: [String]) throws(LibraryError) -> Bool {
        var changed = false
        for name in names {
            guard let file = cache.files[name], case .script(var record) = file.content, record.script == nil else { continue }
            let path = directoryPath + "/" + name
            guard let (bytes, status) = try? FileSystem.readFile(atPath: path) else {
                cache.files[name] = nil
                changed = true
                continue
            }
            if status == file.status, FileFingerprint.hash(bytes) == record.fingerprint.contentHash, let text = Self.decodeUTF8(bytes) {
                record.script = UserScript(text: text, fallbackName: ScriptFileName.fallbackName(forFileName: name), interpretation: record.interpretation)
                cache.files[name]?.content = .script(record)
            } else {
                cache.files[name] = Self.interpret(bytes, status: status, fileName: name, path: path)
                changed = true
            }
        }
        if changed {
            cache.indexIsStale = true
            rebuild()
        }
        return changed
    }

    /// Records a script the library has just written.
    private func remember(_ script: UserScript, id: ScriptID, fileName: String, fingerprint: FileFingerprint, status: FileSystem.Status) {
        cache.files[fileName] = CachedFile(
            status: status, content: .script(Record(id: id, fingerprint: fingerprint, interpretation: script.interpretation, script: script)))
        cache.fileByID[id] = fileName
        cache.indexIsStale = true
        cache.orderIsStale = true
    }

    /// The script whose file holds exactly `bytes`, if the library has one; the mutex must be held.
    func existingScript(withBytes bytes: [UInt8]) throws(LibraryError) -> StoredScript? {
        let hash = FileFingerprint.hash(bytes)
        let candidates = cache.files.compactMap { name, file -> String? in
            guard case .script(let record) = file.content, record.fingerprint.contentHash == hash else { return nil }
            return name
        }
        try loadTexts(of: candidates)
        for name in candidates.sorted() {
            guard let script = record(fileNamed: name)?.script, script.text.utf8.elementsEqual(bytes) else { continue }
            return try storedScript(fileNamed: name)
        }
        return nil
    }

    /// The script recorded as the site's own, else the first (in library order) whose
    /// interpretation `isSiteScript` accepts.
    func siteScriptID(_ site: Site, isSiteScript: (ScriptInterpretation) -> Bool) throws(LibraryError) -> ScriptID? {
        try locked { () throws(LibraryError) in
            try refresh()
            if let recorded = cache.state.sites[site.description], cache.fileByID[ScriptID(recorded)] != nil {
                return ScriptID(recorded)
            }
            return cache.order.lazy.compactMap(record(fileNamed:)).first { isSiteScript($0.interpretation) }?.id
        }
    }

    /// Records which script is a site's own; called with the mutex held.
    func recordSiteScript(_ id: ScriptID, for site: Site) throws(LibraryError) {
        guard cache.state.sites[site.description] != id.rawValue else { return }
        try withLibraryLock { () throws(LibraryError) in
            try changeStateHoldingLock { $0.sites[site.description] = id.rawValue }
        }
        rebuild()
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
            guard cache.fileByID[id] != nil else { throw .notFound(id.rawValue) }
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
    func write(_ bytes: [UInt8], to path: String, newFileMode: mode_t = FileSystem.privateFileMode,
               check: () throws(LibraryError) -> Void) throws(LibraryError) -> FileSystem.Status {
        try Self.write(bytes, to: path, newFileMode: newFileMode, observer: writeObserver, check: check)
    }

    /// Writes atomically, as the library writes its files (and ``ScriptFile`` a file of the
    /// user's own); `check` runs just before the new file replaces the old one.
    static func write(_ bytes: [UInt8], to path: String, newFileMode: mode_t, observer: (@Sendable (FileSystem.WriteStage) -> Void)? = nil,
                      check: () throws(LibraryError) -> Void) throws(LibraryError) -> FileSystem.Status {
        do {
            return try FileSystem.writeAtomically(bytes, toPath: path, beforeReplacing: { try check() }, observer: observer,
                                                  newFileMode: newFileMode)
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

    /// What the file at `path` looks like now; `nil` when there is none.
    static func fingerprint(ofFileAt path: String) throws(LibraryError) -> FileFingerprint? {
        do {
            let (bytes, status) = try FileSystem.readFile(atPath: path)
            return FileFingerprint(bytes: bytes, status: status)
        } catch {
            if error.isNotFound { return nil }
            throw LibraryError(error)
        }
    }

    /// Compares the folder with the cache and rereads what changed, when the reload policy (or
    /// `force`) says to. The first time, the index stands in for every file whose status it
    /// recorded.
    @discardableResult
    func refresh(force: Bool = false) throws(LibraryError) -> Bool {
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
        let index = cache.isLoaded ? nil : readIndex()
        var changed = !cache.isLoaded
        var filesChanged = false
        var takenFromIndex = 0
        var interpretedAfresh = false
        var files: [String: CachedFile] = [:]
        files.reserveCapacity(entries.count)
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
            filesChanged = true
            if let entry = index?.entries[name], entry.status == status, let id = ScriptID.fromFileName(name) {
                let record = Record(id: id, fingerprint: entry.fingerprint, interpretation: entry.interpretation, script: nil)
                files[name] = CachedFile(status: status, content: .script(record))
                takenFromIndex += 1
            } else {
                let loaded = load(name)
                if case .script = loaded.content { interpretedAfresh = true }
                files[name] = loaded
            }
        }
        if files.count != cache.files.count || !files.keys.allSatisfy({ cache.files[$0] != nil }) {
            filesChanged = true
        }
        if cache.isLoaded {
            if filesChanged { cache.indexIsStale = true }
        } else if interpretedAfresh || index?.entries.count != takenFromIndex {
            // A script was read afresh, or the index names files that are gone.
            cache.indexIsStale = true
        }
        changed = changed || filesChanged
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
        if changed || cache.orderIsStale { rebuild() }
        return changed
    }

    private var indexPath: String { directoryPath + "/" + LibraryIndex.fileName }

    /// The index on disk, or `nil` when there is none that this version can trust.
    private func readIndex() -> LibraryIndex? {
        guard let bytes = try? FileSystem.readFile(atPath: indexPath).bytes else { return nil }
        return LibraryIndex(bytes: bytes)
    }

    /// Writes the index when it no longer describes the files. It is a cache: it is written
    /// without flushing to disk, and a failure (a read-only folder) only means the next cold start
    /// reads the files again.
    private func writeIndexIfStale() {
        guard cache.indexIsStale else { return }
        cache.indexIsStale = false
        var index = LibraryIndex()
        for (name, file) in cache.files {
            guard case .script(let record) = file.content else { continue }
            index.entries[name] = LibraryIndex.Entry(status: file.status, fingerprint: record.fingerprint, interpretation: record.interpretation)
        }
        _ = try? FileSystem.writeAtomically(index.encoded(), toPath: indexPath, durable: false)
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
        return Self.interpret(bytes, status: status, fileName: name, path: path)
    }

    /// A file's bytes as the library keeps them: a script with its interpretation and text, or
    /// the reason it is not one.
    private static func interpret(_ bytes: [UInt8], status: FileSystem.Status, fileName: String, path: String) -> CachedFile {
        guard let text = decodeUTF8(bytes) else {
            return CachedFile(status: status, content: .problem(LibraryProblem(path: path, reason: "is not UTF-8 text")))
        }
        guard let id = ScriptID.fromFileName(fileName) else {
            return CachedFile(status: status, content: .problem(LibraryProblem(path: path, reason: "has no usable file name")))
        }
        let script = UserScript(text: text, fallbackName: ScriptFileName.fallbackName(forFileName: fileName))
        let record = Record(id: id, fingerprint: FileFingerprint(bytes: bytes, status: status), interpretation: script.interpretation, script: script)
        return CachedFile(status: status, content: .script(record))
    }

    /// Rebuilds the library order, the ID index and the matcher from the cached files.
    private func rebuild() {
        cache.orderIsStale = false
        // Records are gathered once and ordered through their positions: sorting the records
        // themselves would copy each (and retain everything in it) at every swap.
        var names: [String] = []
        var records: [Record] = []
        var problems: [LibraryProblem] = []
        var owners: [ScriptID: String] = [:]
        for name in cache.files.keys.sorted() {
            guard let file = cache.files[name] else { continue }
            switch file.content {
            case .problem(let problem):
                problems.append(problem)
            case .script(let record):
                if let owner = owners[record.id] {
                    problems.append(LibraryProblem(
                        path: directoryPath + "/" + name,
                        reason: "has the same ID (\(record.id)) as \(owner); remove `-\(record.id)` from one of the two file names to give it an ID of its own"
                    ))
                    continue
                }
                owners[record.id] = name
                names.append(name)
                records.append(record)
            }
        }
        let keys = records.map { $0.interpretation.name.lowercased() }
        let order = records.indices.sorted { lhs, rhs in
            keys[lhs] != keys[rhs] ? keys[lhs] < keys[rhs] : records[lhs].id < records[rhs].id
        }
        cache.order = order.map { names[$0] }
        cache.problems = problems
        cache.fileByID = Dictionary(uniqueKeysWithValues: order.map { (records[$0].id, names[$0]) })
        cache.matcher = ScriptMatcher(order.lazy.map { (id: records[$0].id, rules: records[$0].interpretation.rules) },
                                      publicSuffixListPath: publicSuffixListPath)
    }

    /// A temporary file left by a writer that was killed is removed once the writer is gone.
    private func removeIfStaleTemporary(_ name: String, status: FileSystem.Status) {
        guard let writer = FileSystem.writerProcessID(inTemporaryName: name),
              FileSystem.now - status.modificationSeconds > Self.staleTemporaryAge,
              !FileSystem.isProcessAlive(writer) else { return }
        FileSystem.removeFile(atPath: directoryPath + "/" + name)
    }
}
