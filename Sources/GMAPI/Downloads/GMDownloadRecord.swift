import SystemSupport

/// What became of one `GM_download`: where the file went, or why there is none. The page's
/// callbacks get ``pageJSON``; the run's result reports ``json``.
///
/// ```swift
/// let record = await performer.download(details, policy: policy, pageURL: page, into: folder)
/// record.path   // "/home/me/Downloads/report (1).pdf"
/// record.notes  // ["the name was taken: saved as report (1).pdf"]
/// ```
public struct GMDownloadRecord: Sendable, Hashable {
    /// The URL as the script gave it.
    public let url: String
    /// The URL the file came from, after redirects.
    public var finalURL: String?
    /// The saved file's absolute path; `nil` when nothing was saved.
    public var path: String?
    /// Its name relative to the downloads folder.
    public var relativePath: String?
    /// How many bytes were saved.
    public var bytes: Int?
    /// The HTTP status of the response.
    public var status: Int?
    /// Why nothing was saved.
    public var error: GMDownloadError?
    /// What went wrong, for the script's `details` and the person.
    public var message: String?
    /// The download did not finish within its timeout (`ontimeout`).
    public var timedOut = false
    /// What PageScript did differently from what the script asked (`saveAs` ignored, the name
    /// changed or made unique, `prompt` read as `uniquify`).
    public var notes: [String] = []
    /// Whether the file replaced one of the same name (`overwrite`).
    public var replaced = false

    /// A download that saved nothing.
    public init(url: String, error: GMDownloadError, message: String, notes: [String] = []) {
        self.url = url
        self.error = error
        self.message = message
        self.notes = notes
    }

    /// A saved download.
    init(url: String, finalURL: String, saved: DownloadFolder.SavedFile, bytes: Int, status: Int, notes: [String]) {
        self.url = url
        self.finalURL = finalURL
        path = saved.path
        relativePath = saved.relativePath
        self.bytes = bytes
        self.status = status
        self.notes = notes
        replaced = saved.replaced
    }

    /// The record of a download the script aborted after its file was saved (the file is gone).
    public func aborted() -> GMDownloadRecord {
        var record = GMDownloadRecord(url: url, error: .notSucceeded, message: "the script aborted the download; the file saved for it was removed",
                                      notes: notes)
        record.finalURL = finalURL
        return record
    }

    /// The callback the page calls: `onload`, `ontimeout` or `onerror`.
    public var callback: String {
        path != nil ? "onload" : timedOut ? "ontimeout" : "onerror"
    }

    /// What the page's callbacks get: `{"callback":"onload","url","finalUrl","name","path","bytes","status"}`
    /// or `{"callback":"onerror"|"ontimeout","error","details"}`.
    public var pageJSON: JSONValue {
        guard let path else {
            return ["callback": .string(callback), "error": .string((error ?? .notSucceeded).rawValue), "details": .string(message ?? "")]
        }
        return [
            "callback": "onload", "url": .string(url), "finalUrl": .string(finalURL ?? url), "name": .string(relativePath ?? ""),
            "path": .string(path), "bytes": .integer(Int64(bytes ?? 0)), "status": .integer(Int64(status ?? 200)),
        ]
    }

    /// The record in a run's result: `{"url","path","bytes","notes"}` for a saved file,
    /// `{"url","error","message","notes"}` otherwise.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("url", .string(url))]
        if let path {
            members += [("path", .string(path)), ("bytes", .integer(Int64(bytes ?? 0)))]
            if replaced { members.append(("replaced", true)) }
        } else {
            members += [("error", .string((error ?? .notSucceeded).rawValue)), ("message", .string(message ?? ""))]
            if timedOut { members.append(("timedOut", true)) }
        }
        members.append(("notes", .array(notes.map(JSONValue.string))))
        return .object(members)
    }

    /// One line for the terminal, not yet escaped: `download: URL -> PATH (N bytes)` or
    /// `download: URL failed (not_succeeded): MESSAGE`, each note after a `;`.
    public var line: String {
        let notes = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")
        guard let path else { return "download: \(url) failed (\((error ?? .notSucceeded).rawValue)): \(message ?? "")\(notes)" }
        return "download: \(url) -> \(path) (\(bytes ?? 0) bytes)\(notes)"
    }
}
