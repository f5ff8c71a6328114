import Foundation
import UserScripts

/// Fetches a script's `@require` and `@resource` files into the ``DependencyCache``: when the
/// script is imported, saved or updated, never when a page loads.
///
/// For each declared file: the URL is read (relative ones against `@downloadURL`, else
/// `@updateURL`, else the address the script was installed from), fetched over http or https
/// with a deadline that covers the whole transfer (``Configuration/timeout``, 30 s: a server
/// that never answers is a timeout, not a hang) and a size limit
/// (``Configuration/maximumFileBytes``, 16 MiB), checked against every integrity hash of its
/// fragment, stored in the cache by its SHA-256 and recorded for the script.
///
/// Redirects are followed hop by hop, up to ``Configuration/maximumRedirects``, to other hosts
/// too (CDNs and GitHub's raw files redirect across hosts, and the managers follow them), but
/// never out of http(s) nor from https down to http; the record keeps the URL the file finally
/// came from, and the integrity hash, when the author gave one, is what pins the content.
///
/// A file that fails is reported and recorded with its reason; the others are still fetched,
/// and the script is not runnable until all are there. Call ``shutdown()`` when done (or use
/// ``withFetcher(cache:configuration:_:)``).
///
/// ```swift
/// let report = try await DependencyFetcher.withFetcher(cache: cache) { fetcher in
///     try await fetcher.fetch(for: stored.script, id: stored.id)
/// }
/// for failure in report.failures { print(failure) }
/// ```
public final class DependencyFetcher: Sendable {
    /// The limits of every download.
    public struct Configuration: Sendable, Hashable {
        /// The largest file accepted, in bytes.
        public var maximumFileBytes: Int
        /// The longest one file's whole transfer may take, redirects included, in seconds.
        public var timeout: Double
        /// The longest time to connect to a host, in seconds.
        public var connectTimeout: Double
        /// The most redirects followed for one file.
        public var maximumRedirects: Int

        /// The defaults: 16 MiB, 30 s, 10 s to connect, 10 redirects.
        public init(maximumFileBytes: Int = 16 * 1024 * 1024, timeout: Double = 30, connectTimeout: Double = 10, maximumRedirects: Int = 10) {
            self.maximumFileBytes = maximumFileBytes
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maximumRedirects = maximumRedirects
        }
    }

    /// One downloaded file.
    public struct Download: Sendable, Hashable {
        /// The content.
        public let bytes: [UInt8]
        /// The URL it finally came from.
        public let finalURL: String
        /// The server's `Content-Type`, if any.
        public let contentType: String?
    }

    /// Where files go.
    public let cache: DependencyCache
    /// The limits applied.
    public let configuration: Configuration
    private let transport: HTTPTransport

    /// A fetcher with its own connections; call ``shutdown()`` when done.
    public init(cache: DependencyCache, configuration: Configuration = Configuration()) {
        self.cache = cache
        self.configuration = configuration
        transport = HTTPTransport(connectTimeout: configuration.connectTimeout)
    }

    /// Runs `body` with a new fetcher and shuts it down afterwards, whatever happens.
    public static func withFetcher<T: Sendable>(
        cache: DependencyCache,
        configuration: Configuration = Configuration(),
        _ body: (DependencyFetcher) async throws -> T
    ) async rethrows -> T {
        let fetcher = DependencyFetcher(cache: cache, configuration: configuration)
        do {
            let result = try await body(fetcher)
            await fetcher.shutdown()
            return result
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }

    /// Closes the fetcher's connections. Call once, after the last fetch.
    public func shutdown() async {
        await transport.shutdown()
    }

    /// Fetches the declared files of `script` that the cache does not have yet (all of them with
    /// `refetching`), and records them for the script with ID `id`.
    ///
    /// - Throws: Only when the cache or the record cannot be written; a file that cannot be
    ///   fetched is a failure in the report.
    public func fetch(for script: UserScript, id: ScriptID, refetching: Bool = false) async throws(DependencyError) -> DependencyReport {
        let record = try cache.readRecord(id)
        // A script installed from an address reads relative URLs against it, as the managers do.
        let base = ScriptDependency.baseURL(of: script) ?? record.installed?.from
        var entries: [DependencyReport.Entry] = []
        for dependency in ScriptDependency.declared(in: script) {
            if !refetching, let entry = record.files[dependency.declaredURL], try cache.cachedBytes(sha256: entry.sha256) != nil {
                entries.append(.init(dependency: dependency, outcome: .alreadyCached(sha256: entry.sha256)))
                continue
            }
            switch await checkedDownload(of: dependency, base: base) {
            case .success(let download):
                let hash = try cache.keep(download.bytes, as: [dependency.declaredURL], for: id, contentType: download.contentType,
                                          from: download.finalURL)
                entries.append(.init(dependency: dependency, outcome: .fetched(sha256: hash, size: download.bytes.count, from: download.finalURL)))
            case .failure(let failure):
                try cache.changeRecord(id) { record in
                    record.failures[dependency.declaredURL] = FetchedRecord.Failure(reason: failure.description, at: FetchedRecord.timestamp())
                }
                entries.append(.init(dependency: dependency, outcome: .failed(failure)))
            }
        }
        return DependencyReport(entries: entries)
    }

    /// Downloads one URL, following redirects (see the type's discussion), and returns its body
    /// when the final status is 2xx.
    public func download(_ url: PageURL) async throws(DependencyFailure) -> Download {
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.timeout * 1000))
        var current = url
        var redirects = 0
        while true {
            let response: HTTPTransport.Response
            do {
                response = try await transport.send(
                    method: "GET", url: current, headers: [], body: nil,
                    deadline: deadline, maximumBytes: configuration.maximumFileBytes
                )
            } catch {
                switch error {
                case .timedOut, .cancelled: throw .timedOut(url: current.description, seconds: configuration.timeout)
                case .tooLarge: throw .tooLarge(url: current.description, limit: configuration.maximumFileBytes)
                case .network(let reason), .unwritable(let reason): throw .network(url: current.description, reason: reason)
                }
            }
            if response.isRedirect, let location = response.header("location") {
                redirects += 1
                guard redirects <= configuration.maximumRedirects else {
                    throw .redirectRefused(url: current.description, location: location, reason: "more than \(configuration.maximumRedirects) redirects")
                }
                let next: PageURL
                do {
                    next = try URLReference.resolve(location, against: current)
                } catch {
                    throw .redirectRefused(url: current.description, location: location, reason: "\(error)")
                }
                guard next.scheme != .file else {
                    throw .redirectRefused(url: current.description, location: location, reason: "it is not an http or https URL")
                }
                guard !(current.scheme == .https && next.scheme == .http) else {
                    throw .redirectRefused(url: current.description, location: location, reason: "it leaves https for plain http")
                }
                current = next
                continue
            }
            guard (200..<300).contains(response.status) else {
                throw .httpStatus(url: current.description, status: response.status, reason: response.reason)
            }
            return Download(bytes: response.body, finalURL: current.description, contentType: response.header("content-type"))
        }
    }

    /// Resolves, downloads and checks one declared file against its integrity hashes.
    private func checkedDownload(of dependency: ScriptDependency, base: String?) async -> Result<Download, DependencyFailure> {
        do throws(DependencyFailure) {
            let (url, integrity) = try dependency.resolved(base: base)
            let download = try await self.download(url)
            try IntegrityCheck.verify(download.bytes, against: integrity, url: url.description)
            return .success(download)
        } catch {
            return .failure(error)
        }
    }
}
