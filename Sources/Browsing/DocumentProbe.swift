import SystemSupport

/// The one small script a follower runs on every look: it tells a document it has not seen from
/// one it has, and one it has seen from another (a page the back/forward cache kept), by a mark
/// only this follower knows the name of, holding the document's own ID; and reports the address.
///
/// It answers at once for a document that is new or still loading; for a loaded document it has
/// seen, it waits in the page (an Execute Async Script call) until the page is left (`pagehide`)
/// or its address changes, or at most the follower's interval. So the follower hears of a
/// navigation when it starts, not at its next look, and an idle page costs one call per interval.
struct DocumentProbe: Sendable {
    /// What one look found.
    struct Sighting: Sendable, Equatable {
        /// The document had no mark: it is new since the last look (and is marked now, if loaded).
        let isNewDocument: Bool
        /// The document has finished loading (`readyState` is `complete`): document-idle.
        let isLoaded: Bool
        /// The page is being left for another document: look again at once.
        let isLeaving: Bool
        let url: String
        let title: String
        /// The document's ID, given when it was first seen loaded; `nil` while it is loading.
        let documentID: String?
    }

    /// The mark's name: random per follower, so that a page cannot fake or remove it by name.
    let mark: String

    init(mark: String = "__pagescriptSeen" + String(UInt64.random(in: 1...UInt64.max), radix: 36)) {
        self.mark = mark
    }

    /// The script's arguments: the mark, how long it may wait in the page, in milliseconds, and the
    /// ID a new document is given.
    func arguments(waitingAtMost wait: Duration) -> [JSONValue] {
        let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
        return [.string(mark), .integer(milliseconds), .string(String(UInt64.random(in: 1...UInt64.max), radix: 36))]
    }

    /// The script: marks a loaded document, never one still loading (its scripts would run too
    /// early), and reports what it found once there is something to report. It uses only the
    /// document's own properties and timers.
    var source: String {
        """
        var mark = arguments[0], wait = arguments[1], fresh = arguments[2], done = arguments[arguments.length - 1];
        var d = document, seen = Object.prototype.hasOwnProperty.call(window, mark), start = String(location.href);
        var held = seen ? Object.getOwnPropertyDescriptor(window, mark) : null;
        var id = held && typeof held.value === 'string' ? held.value : null;
        var finished = false, timer, watch;
        function report(leaving) {
          if (finished) { return; }
          finished = true;
          clearTimeout(timer); clearInterval(watch);
          removeEventListener('pagehide', onHide);
          var loaded = d.readyState === 'complete';
          if (!seen && loaded) { id = fresh; try { Object.defineProperty(window, mark, { value: fresh }); } catch (e) { window[mark] = fresh; } }
          done([!seen, loaded, leaving, String(location.href), String(d.title), id]);
        }
        function onHide() { report(true); }
        if (d.readyState !== 'complete' || !seen) { report(false); return; }
        timer = setTimeout(function () { report(false); }, wait);
        addEventListener('pagehide', onHide);
        watch = setInterval(function () { if (String(location.href) !== start) { report(false); } }, 25);
        """
    }

    /// Reads the probe's reply.
    func sighting(from reply: JSONValue) -> Sighting? {
        guard case let .array(fields) = reply, fields.count == 6,
              case let .bool(isNew) = fields[0], case let .bool(isLoaded) = fields[1], case let .bool(isLeaving) = fields[2],
              let url = fields[3].stringValue, let title = fields[4].stringValue else { return nil }
        return Sighting(isNewDocument: isNew, isLoaded: isLoaded, isLeaving: isLeaving, url: url, title: title,
                        documentID: fields[5].stringValue)
    }
}
