import Foundation
import UserScripts

/// Performs `GM_xmlhttpRequest` for a script: from PageScript, not from the page, so the page's
/// CORS rules and CSP do not apply, and only to the hosts the script's `@connect` lines allow.
///
/// **Request → check → perform → respond.** ``perform(_:policy:pageURL:)`` reads the URL (relative
/// URLs against the page's) with UserScripts' strict parser, checks its host against the
/// ``ConnectPolicy``, and sends the request to exactly that canonical URL. Redirects are followed
/// here, hop by hop, up to ``Configuration/maximumRedirects``: each `Location` is resolved, read
/// and checked like the first URL before anything is sent to it, so a redirect can never take the
/// request to a host the script may not reach. `301`/`302` turn a `POST` into a `GET` and `303`
/// turns anything but `HEAD` into `GET`, as browsers do; a redirect to another origin drops
/// `Authorization`, `Cookie` and the credentials.
///
/// **Limits.** A response body larger than ``Configuration/maximumResponseBytes`` (16 MiB by
/// default) is refused with ``GMRequestFailure/responseTooLarge(url:limit:)``; a request without a
/// `timeout` gets ``Configuration/defaultTimeout`` (120 s), so no request outlives its run by
/// much. Cancelling the task that awaits ``perform(_:policy:pageURL:)`` aborts the request
/// (``GMRequestFailure/aborted(url:)``, `onabort`).
///
/// **Not done.** PageScript has no cookie jar shared with the browser: a request carries only the
/// `cookie` the script passes (never with `anonymous`), and `Set-Cookie` answers are not kept.
/// `onprogress` and `onreadystatechange` have no intermediate events: the body arrives whole.
///
/// Call ``shutdown()`` once when done (or use ``withPerformer(_:_:)``).
///
/// ```swift
/// try await GMRequestPerformer.withPerformer { performer in
///     let request = try GMRequest(json: detailsFromPage)
///     do {
///         let response = try await performer.perform(request, policy: ConnectPolicy(script: script), pageURL: page)
///         reply(response.json)          // onload
///     } catch {
///         reply(error.json)             // onerror, ontimeout or onabort
///     }
/// }
/// ```
public final class GMRequestPerformer: Sendable {
    /// The limits every request is held to.
    public struct Configuration: Sendable, Hashable {
        /// The largest response body kept, in bytes; larger responses fail with `onerror`.
        public var maximumResponseBytes: Int
        /// The timeout of a request that gives none, in seconds.
        public var defaultTimeout: Double
        /// The longest time to connect to a host, in seconds (within the request's timeout).
        public var connectTimeout: Double
        /// The most redirects followed for one request (browsers allow 20).
        public var maximumRedirects: Int
        /// The `User-Agent` sent when the script sets none (the browser's own, ideally), or `nil`.
        public var userAgent: String?
        /// The largest file `GM_download` saves, in bytes (written to disk as it arrives, never
        /// held whole in memory).
        public var maximumDownloadBytes: Int

        /// The defaults: 16 MiB, 120 s, 10 s to connect, 20 redirects, no `User-Agent`, 256 MiB
        /// for a download.
        public init(
            maximumResponseBytes: Int = 16 * 1024 * 1024,
            defaultTimeout: Double = 120,
            connectTimeout: Double = 10,
            maximumRedirects: Int = 20,
            userAgent: String? = nil,
            maximumDownloadBytes: Int = 256 * 1024 * 1024
        ) {
            self.maximumDownloadBytes = maximumDownloadBytes
            self.maximumResponseBytes = maximumResponseBytes
            self.defaultTimeout = defaultTimeout
            self.connectTimeout = connectTimeout
            self.maximumRedirects = maximumRedirects
            self.userAgent = userAgent
        }
    }

    /// The limits this performer applies.
    public let configuration: Configuration
    private let transport: HTTPTransport

    /// A performer with its own connections; call ``shutdown()`` when done.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        transport = HTTPTransport(connectTimeout: configuration.connectTimeout)
    }

    /// Runs `body` with a new performer and shuts it down afterwards, whatever happens.
    public static func withPerformer<T: Sendable>(
        _ configuration: Configuration = Configuration(),
        _ body: (GMRequestPerformer) async throws -> T
    ) async rethrows -> T {
        let performer = GMRequestPerformer(configuration: configuration)
        do {
            let result = try await body(performer)
            await performer.shutdown()
            return result
        } catch {
            await performer.shutdown()
            throw error
        }
    }

    /// Closes the performer's connections. Call once, after the last request.
    public func shutdown() async {
        await transport.shutdown()
    }

    /// Performs one request for a script.
    ///
    /// - Parameters:
    ///   - request: The details from the page.
    ///   - policy: The script's `@connect` lines.
    ///   - pageURL: The page the script runs on: the base of relative URLs and the host `self` means.
    /// - Returns: The response, for `onload`, whatever its status.
    /// - Throws: A ``GMRequestFailure`` for `onerror`, `ontimeout` or `onabort`.
    ///   - asking: Asked about a host the policy does not allow (its text, as a `@connect` line
    ///     would name it, and the URL): `true` lets the request go there, `false` is the user's
    ///     refusal, `nil` no answer (refused as the policy says).
    ///   - maximumBytes: The largest body kept (``Configuration/maximumResponseBytes`` when `nil`).
    public func perform(_ request: GMRequest, policy: ConnectPolicy, pageURL: PageURL?,
                        asking: (@Sendable (_ host: String, _ url: String) async -> Bool?)? = nil,
                        maximumBytes: Int? = nil) async throws(GMRequestFailure) -> GMResponse {
        let final = try await open(request, policy: policy, pageURL: pageURL, asking: asking, maximumBytes: maximumBytes)
        let body = try await final.read(into: MemoryBody())
        return GMResponse(
            status: final.head.status,
            statusText: final.head.reason,
            headers: final.head.headers,
            finalURL: final.url,
            body: body.bytes,
            responseType: request.responseType,
            overrideMimeType: request.overrideMimeType
        )
    }

    /// The last response of a request, its redirects followed and its body not yet read.
    struct FinalResponse: Sendable {
        /// Its status line and headers.
        let head: HTTPTransport.Head
        /// The URL it came from.
        let url: String
        /// The exchange whose body is still to be read.
        let exchange: HTTPTransport.Exchange
        /// The request's timeout and size limit, for the failures of reading the body.
        let timeout: Double
        let limit: Int

        /// Reads the body into `destination`; a failure is the request's.
        func read<Destination: ResponseBody>(into destination: Destination) async throws(GMRequestFailure) -> Destination {
            do {
                return try await exchange.read(into: destination)
            } catch {
                throw GMRequestPerformer.failure(error, url: url, timeout: timeout, limit: limit)
            }
        }
    }

    /// Sends `request` and follows its redirects, as ``perform(_:policy:pageURL:asking:maximumBytes:)``
    /// says, up to the head of the last response: its body is left for the caller to read (into
    /// memory for `GM_xmlhttpRequest`, into a file for `GM_download`). A redirect's body is read
    /// and dropped.
    func open(_ request: GMRequest, policy: ConnectPolicy, pageURL: PageURL?,
              asking: (@Sendable (_ host: String, _ url: String) async -> Bool?)?,
              maximumBytes: Int?) async throws(GMRequestFailure) -> FinalResponse {
        try request.validate()
        let limit = maximumBytes ?? configuration.maximumResponseBytes
        let timeout = request.timeout ?? configuration.defaultTimeout
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        var url = try Self.read(request.url, pageURL: pageURL)
        let firstOrigin = Origin(url)
        var method = request.normalizedMethod
        var body = ["GET", "HEAD"].contains(method) ? nil : request.body
        var headers = requestHeaders(for: request, body: body)
        var redirects = 0
        while true {
            do {
                try policy.check(url, pageURL: pageURL)
            } catch {
                guard let asking, let answer = await asking(url.host.connectText, url.description) else { throw error }
                guard answer else { throw .refusedByUser(url: url.description, host: url.host.connectText) }
            }
            let exchange: HTTPTransport.Exchange
            do {
                exchange = try await transport.open(
                    method: method, url: url, headers: headers, body: body,
                    deadline: deadline, maximumBytes: limit
                )
            } catch {
                throw Self.failure(error, url: url.description, timeout: timeout, limit: limit)
            }
            let response = FinalResponse(head: exchange.head, url: url.description, exchange: exchange, timeout: timeout, limit: limit)
            guard response.head.isRedirect, request.redirect != .manual, let location = response.head.header("location") else {
                return response
            }
            _ = try await response.read(into: DiscardedBody())
            if request.redirect == .error { throw .redirectRefused(url: url.description, location: location) }
            redirects += 1
            guard redirects <= configuration.maximumRedirects else {
                throw .tooManyRedirects(url: url.description, limit: configuration.maximumRedirects)
            }
            let next: PageURL
            do {
                next = try URLReference.resolve(location, against: url)
            } catch {
                throw .unsupportedURL(location, reason: "the server at \(url) redirected to a URL PageScript cannot read (\(error))")
            }
            guard next.scheme != .file else {
                throw .unsupportedURL(next.description, reason: "the server at \(url) redirected to a file: URL")
            }
            if response.head.status == 303 && method != "HEAD" || [301, 302].contains(response.head.status) && method == "POST" {
                method = "GET"
                body = nil
                headers.removeAll { ["content-type", "content-length", "content-encoding", "content-language", "content-location"].contains($0.name.lowercased()) }
            }
            if Origin(next) != firstOrigin {
                headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }
            }
            url = next
        }
    }

    /// The headers sent: the script's, then the credentials, cookie, default content type and
    /// user agent where the script gave none.
    private func requestHeaders(for request: GMRequest, body: [UInt8]?) -> [GMHeaderField] {
        var headers = request.headers
        func has(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name } }
        if request.anonymous {
            headers.removeAll { ["cookie", "authorization"].contains($0.name.lowercased()) }
        } else {
            if let user = request.user ?? Self.userinfo(in: request.url)?.user, !has("authorization") {
                let password = request.password ?? Self.userinfo(in: request.url)?.password ?? ""
                let token = Data("\(user):\(password)".utf8).base64EncodedString()
                headers.append(GMHeaderField(name: "Authorization", value: "Basic \(token)"))
            }
            if let cookie = request.cookie, !cookie.isEmpty, !has("cookie") {
                headers.append(GMHeaderField(name: "Cookie", value: cookie))
            }
        }
        if body != nil, request.bodyIsText, !has("content-type") {
            headers.append(GMHeaderField(name: "Content-Type", value: "text/plain;charset=UTF-8"))
        }
        if let userAgent = configuration.userAgent, !has("user-agent") {
            headers.append(GMHeaderField(name: "User-Agent", value: userAgent))
        }
        return headers
    }

    /// Reads the script's URL: relative to the page, http or https only.
    static func read(_ text: String, pageURL: PageURL?) throws(GMRequestFailure) -> PageURL {
        let url: PageURL
        do {
            if let pageURL {
                url = try URLReference.resolve(text, against: pageURL)
            } else {
                url = try PageURL(text)
            }
        } catch {
            throw .unsupportedURL(text, reason: "\(error)")
        }
        guard url.scheme != .file else {
            throw .unsupportedURL(text, reason: "GM_xmlhttpRequest reaches http and https URLs only")
        }
        return url
    }

    /// `user:password` written before the host (`https://me:secret@example.com/`), percent-decoded:
    /// never part of the host, but the credentials `XMLHttpRequest` would send.
    static func userinfo(in text: String) -> (user: String, password: String?)? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let afterScheme = text[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { !"/\\?#".contains($0) }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userinfo = authority[..<at]
        let parts = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let user = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let password = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : nil
        return user.isEmpty && password == nil ? nil : (user, password)
    }

    static func failure(_ error: HTTPTransport.Failure, url: String, timeout: Double, limit: Int) -> GMRequestFailure {
        switch error {
        case .timedOut: .timedOut(url: url, seconds: timeout)
        case .tooLarge: .responseTooLarge(url: url, limit: limit)
        case .cancelled: .aborted(url: url)
        case .network(let reason), .unwritable(let reason): .network(url: url, reason: reason)
        }
    }
}

/// Scheme, host and port: what decides whether a redirect leaves the first URL's origin.
struct Origin: Hashable {
    let scheme: URLScheme
    let host: URLHost
    let port: Int?

    init(_ url: PageURL) {
        scheme = url.scheme
        host = url.host
        port = url.effectivePort
    }
}
