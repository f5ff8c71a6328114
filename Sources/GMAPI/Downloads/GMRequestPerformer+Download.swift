import Foundation
import UserScripts

extension GMRequestPerformer {
    /// Performs one `GM_download`: fetches the file exactly as ``perform(_:policy:pageURL:asking:maximumBytes:)``
    /// fetches a `GM_xmlhttpRequest` (the same `@connect` checks on every hop, the same timeout),
    /// up to ``Configuration/maximumDownloadBytes``, and saves it into `folder` under a safe name
    /// (``DownloadFolder``, ``DownloadName``).
    ///
    /// The body is never held whole: each buffer, as it arrives, is written to a hidden partial
    /// file beside the final name, which gets that name (as ``DownloadFolder`` gives names) only
    /// when the body is complete. A body that breaks off, takes too long, grows past the limit or
    /// cannot be written removes the partial file, so nothing half-written is left.
    ///
    /// A response with an HTTP error status (400 and above) is not saved, as browsers cancel such
    /// a download. Never throws: every outcome is a ``GMDownloadRecord``.
    ///
    /// - Parameters:
    ///   - download: The details from the page.
    ///   - policy: The script's `@connect` lines.
    ///   - pageURL: The page the script runs on: the base of relative URLs and the host `self` means.
    ///   - folder: Where the file goes; `nil` when downloads are off (`not_enabled`).
    ///   - asking: As for ``perform(_:policy:pageURL:asking:maximumBytes:)``.
    public func download(_ download: GMDownload, policy: ConnectPolicy, pageURL: PageURL?, into folder: DownloadFolder?,
                         asking: (@Sendable (_ host: String, _ url: String) async -> Bool?)? = nil) async -> GMDownloadRecord {
        var notes: [String] = []
        if download.saveAs { notes.append("saveAs ignored: PageScript opens no file dialog, so the file went to the downloads folder") }
        if download.conflictAction == .prompt { notes.append("conflictAction \"prompt\" has no one to ask here: read as \"uniquify\"") }
        if let unknown = download.unknownConflictAction { notes.append("conflictAction \"\(unknown)\" is not one of uniquify, overwrite, prompt: read as \"uniquify\"") }
        guard !download.isBlob else {
            return GMDownloadRecord(url: "(a Blob)", error: .notSupported,
                                    message: "PageScript downloads http and https URLs; a Blob or File stays in the page", notes: notes)
        }
        guard let folder else {
            return GMDownloadRecord(url: download.url, error: .notEnabled, message: "downloads are off: PageScript was given no downloads folder", notes: notes)
        }
        let final: FinalResponse
        do throws(GMRequestFailure) {
            final = try await open(download.request, policy: policy, pageURL: pageURL, asking: asking, maximumBytes: configuration.maximumDownloadBytes)
        } catch {
            return Self.failedDownload(download, error, notes: notes)
        }
        guard final.head.status < 400 else {
            do throws(GMRequestFailure) {
                _ = try await final.read(into: DiscardedBody())
            } catch {
                return Self.failedDownload(download, error, notes: notes)
            }
            let reason = final.head.reason.isEmpty ? "" : " \(final.head.reason)"
            return GMDownloadRecord(url: download.url, error: .notSucceeded,
                                    message: "the server answered HTTP \(final.head.status)\(reason); nothing was saved", notes: notes)
        }
        let name = DownloadName(requested: download.name, url: try? PageURL(final.url),
                                suggested: final.head.header("content-disposition").flatMap(Self.fileName(inDisposition:)))
        if name.changed, let asked = download.name { notes.append("the name \"\(asked)\" was made safe: \(name.relativePath)") }
        let partial: DownloadFolder.PartialFile
        do throws(DownloadFolder.SaveFailure) {
            partial = try folder.startFile(for: name)
        } catch {
            return GMDownloadRecord(url: download.url, error: .notSucceeded, message: "the file could not be saved: \(error.description)", notes: notes)
        }
        // The body goes straight into the partial file; any failure removes it.
        let written: DownloadFolder.PartialFile
        do throws(HTTPTransport.Failure) {
            written = try await final.exchange.read(into: partial)
        } catch {
            partial.discard()
            if case .unwritable(let reason) = error {
                return GMDownloadRecord(url: download.url, error: .notSucceeded,
                                        message: "the file could not be saved: \(reason); the part written was removed", notes: notes)
            }
            return Self.failedDownload(download, Self.failure(error, url: final.url, timeout: final.timeout, limit: final.limit), notes: notes)
        }
        let saved: DownloadFolder.SavedFile
        do throws(DownloadFolder.SaveFailure) {
            saved = try folder.place(written, conflict: download.conflictAction)
        } catch {
            return GMDownloadRecord(url: download.url, error: .notSucceeded, message: "the file could not be saved: \(error.description)", notes: notes)
        }
        if saved.uniquified { notes.append("\(name.relativePath) existed: saved as \(saved.relativePath)") }
        return GMDownloadRecord(url: download.url, finalURL: final.url, saved: saved, bytes: written.count, status: final.head.status, notes: notes)
    }

    /// The record of a download whose request failed.
    private static func failedDownload(_ download: GMDownload, _ error: GMRequestFailure, notes: [String]) -> GMDownloadRecord {
        var record = GMDownloadRecord(url: download.url, error: downloadError(for: error), message: downloadMessage(error), notes: notes)
        if case .timedOut = error { record.timedOut = true }
        return record
    }

    static func downloadError(for failure: GMRequestFailure) -> GMDownloadError {
        switch failure {
        case .forbiddenHost, .refusedByUser: .notPermitted
        case .unsupportedURL: .notSupported
        default: .notSucceeded
        }
    }

    /// The request's message, told as a download's.
    public static func downloadMessage(_ failure: GMRequestFailure) -> String {
        failure.description.replacingOccurrences(of: "GM_xmlhttpRequest", with: "GM_download")
    }

    /// The file name of a `Content-Disposition` header (`attachment; filename="a.pdf"`, or RFC
    /// 5987's `filename*=UTF-8''a%20b.pdf`, which wins).
    static func fileName(inDisposition header: String) -> String? {
        var plain: String?
        for part in header.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2 else { continue }
            let key = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            var value = pieces[1].trimmingCharacters(in: .whitespaces)
            if key == "filename*" {
                let encoded = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if encoded.count == 3, encoded[0].lowercased() == "utf-8", let decoded = String(encoded[2]).removingPercentEncoding { return decoded }
            } else if key == "filename" {
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                plain = value
            }
        }
        return plain
    }
}
