extension ScriptLibrary {
    /// The script kept for the site of `url` (its host and port), or `nil`: what the editor loads
    /// when it opens on a page.
    ///
    /// The state file records which script is each site's own. Without such a record (a library
    /// copied without its state file, say), a script whose only rules are exactly the site's
    /// patterns is taken, the first by name.
    public func scriptForSite(url: PageURL) throws(LibraryError) -> StoredScript? {
        try scriptForSite(Site(url: url))
    }

    /// The script kept for `site`; see ``scriptForSite(url:)``.
    public func scriptForSite(_ site: Site) throws(LibraryError) -> StoredScript? {
        let sitePatterns = Set(site.matchPatterns)
        let id = try siteScriptID(site) { interpretation in
            let rules = interpretation.rules
            return !rules.isEmpty && rules.allSatisfy { $0.kind == .match && $0.error == nil }
                && Set(rules.flatMap(\.patterns).compactMap(\.matchPattern)) == sitePatterns
        }
        return try id.map { (id) throws(LibraryError) in try script(id: id) }
    }

    /// Creates or updates the script for the site of `url`.
    ///
    /// When the site has no script yet, one is created, named after the site (`example.com`,
    /// `localhost:3000`, `[::1]:8080`, "Local files") with `@match` lines for exactly that site
    /// (see ``Site/matchPatterns``) and no `@run-at` unless one is given: like any script with
    /// `@match` lines, it then runs on that site at document-idle, Tampermonkey's default, and on
    /// no other host or port. When the site has a script, `code` replaces it.
    ///
    /// - Parameters:
    ///   - url: The page the editor is on.
    ///   - code: A whole script (with a `// ==UserScript==` block), which replaces the file's text,
    ///     or just code, which replaces the body and keeps the metadata block.
    ///   - runAt: Sets `@run-at` (without one, the script runs at document-idle).
    ///   - basedOn: The site script as the editor loaded it. Its fingerprint guards the save, so an
    ///     edit made elsewhere in the meantime is not overwritten
    ///     (``LibraryError/changedOnDisk(path:)``). Without it, the script on disk now is updated.
    ///   - keepingPrevious: Keep the text being replaced in the library's `.trash/` folder
    ///     (``replace(_:withText:overwritingChangesOnDisk:)``), where `scripts restore` lists it:
    ///     for `scripts save-for`, which replaces a script its user may not have looked at. The
    ///     editor, saving what the user is editing, does not fill the trash with every save.
    /// - Returns: The saved script.
    @discardableResult
    public func saveForSite(url: PageURL, code: String, runAt: RunAt? = nil, basedOn: StoredScript? = nil,
                            keepingPrevious: Bool = false) throws(LibraryError) -> StoredScript {
        let site = Site(url: url)
        let existing: StoredScript?
        if let basedOn {
            existing = basedOn
        } else {
            existing = try scriptForSite(site)
        }
        let hasBlock = UserScript(text: code, fallbackName: site.displayName).hasMetadataBlock
        var script: UserScript
        do throws(MetadataError) {
            if let existing {
                script = existing.script
                if hasBlock {
                    script.setText(code)
                } else {
                    script.setBody(code)
                }
            } else if hasBlock {
                script = UserScript(text: code, fallbackName: site.displayName)
            } else {
                script = try UserScript.make(name: site.displayName, matches: site.matchPatterns.map(\.description), body: code)
            }
            if let runAt { try script.setValue(runAt.rawValue, forKey: "run-at") }
        } catch {
            throw .malformedScript(path: existing?.file.path(percentEncoded: false), error)
        }
        let edited = script
        var saved: StoredScript
        if let existing, keepingPrevious {
            // Nothing to keep when nothing changes.
            saved = edited.text == existing.script.text ? existing : try replace(existing, withText: edited.text).script
        } else if var updated = existing {
            updated.script = edited
            saved = try save(updated)
        } else {
            saved = try create(edited)
        }
        try locked { () throws(LibraryError) in
            try recordSiteScript(saved.id, for: site)
            saved = try storedScript(saved.id)
        }
        return saved
    }
}
