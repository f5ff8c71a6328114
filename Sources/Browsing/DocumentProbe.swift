import WebDriver

/// The one small script a follower runs on every look: it tells a document it has not seen from
/// one it has, by a mark only this follower knows the name of, and reports the address.
struct DocumentProbe: Sendable {
    /// What one look found.
    struct Sighting: Sendable, Equatable {
        /// The document had no mark: it is new since the last look (and is marked now, if loaded).
        let isNewDocument: Bool
        /// The document has finished loading (`readyState` is `complete`): document-idle.
        let isLoaded: Bool
        let url: String
        let title: String
    }

    /// The mark's name: random per follower, so that a page cannot fake or remove it by name.
    let mark: String

    init(mark: String = "__pagescriptSeen" + String(UInt64.random(in: 1...UInt64.max), radix: 36)) {
        self.mark = mark
    }

    /// The script: marks a loaded document, never one still loading (its scripts would run too
    /// early), and reports what it found. It uses only the document's own properties, read once.
    var source: String {
        """
        var mark = arguments[0], d = document, seen = Object.prototype.hasOwnProperty.call(window, mark);
        var loaded = d.readyState === 'complete';
        if (!seen && loaded) { try { Object.defineProperty(window, mark, { value: true }); } catch (e) { window[mark] = true; } }
        return [!seen, loaded, String(location.href), String(d.title)];
        """
    }

    /// Reads the probe's reply.
    func sighting(from reply: JSONValue) -> Sighting? {
        guard case let .array(fields) = reply, fields.count == 4,
              case let .bool(isNew) = fields[0], case let .bool(isLoaded) = fields[1],
              let url = fields[2].stringValue, let title = fields[3].stringValue else { return nil }
        return Sighting(isNewDocument: isNew, isLoaded: isLoaded, url: url, title: title)
    }
}
