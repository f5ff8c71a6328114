import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// `GM_xmlhttpRequest` against real HTTP servers on two loopback hosts: "allowed" on 127.0.0.1
/// and "evil" on 127.0.0.2. Every refusal is also checked on the evil server's side: it never
/// received a request.
struct GMRequestPerformerTests {
    /// Generous: a test that expects an answer must not fail because the machine is busy; the
    /// timeout tests give their own short timeouts.
    static let quick = GMRequestPerformer.Configuration(maximumResponseBytes: 1024 * 1024, defaultTimeout: 120, connectTimeout: 60)

    /// Runs `body` with a performer, an allowed server, an evil one and a policy for the allowed.
    func withServers(
        connect: [String] = ["127.0.0.1"],
        configuration: GMRequestPerformer.Configuration = Self.quick,
        allowed: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse = { _ in .text("allowed") },
        evil: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse = { _ in .text("evil") },
        _ body: (GMRequestPerformer, LoopbackServer, LoopbackServer, ConnectPolicy) async throws -> Void
    ) async throws {
        let good = try LoopbackServer(host: "127.0.0.1", route: allowed)
        let bad = try LoopbackServer(host: "127.0.0.2", route: evil)
        defer {
            good.stop()
            bad.stop()
        }
        let performer = GMRequestPerformer(configuration: configuration)
        do {
            try await body(performer, good, bad, ConnectPolicy(values: connect))
        } catch {
            await performer.shutdown()
            throw error
        }
        await performer.shutdown()
    }

    @Test func aGETReturnsStatusHeadersBodyAndFinalURL() async throws {
        try await withServers(allowed: { request in
            .text("hello \(request.path)", headers: [("X-Served-By", "allowed")])
        }) { performer, good, _, policy in
            let response = try await performer.perform(GMRequest(url: good.url("/greeting")), policy: policy, pageURL: nil)
            #expect(response.status == 200)
            #expect(response.statusText == "OK")
            #expect(response.text == "hello /greeting")
            #expect(response.finalURL == good.url("/greeting"))
            #expect(response.responseHeaders.contains("x-served-by: allowed\r\n"))
            #expect(response.json["responseText"] == "hello /greeting")
        }
    }

    @Test func aPOSTSendsItsBodyHeadersAndCredentials() async throws {
        try await withServers(allowed: { request in
            let summary: JSONValue = [
                "method": .string(request.method),
                "body": .string(String(decoding: request.body, as: UTF8.self)),
                "type": request.header("content-type").map(JSONValue.string) ?? .null,
                "custom": request.header("x-custom").map(JSONValue.string) ?? .null,
                "authorization": request.header("authorization").map(JSONValue.string) ?? .null,
                "cookie": request.header("cookie").map(JSONValue.string) ?? .null,
                "agent": request.header("user-agent").map(JSONValue.string) ?? .null,
            ]
            return .text(summary.serialized, type: "application/json")
        }) { performer, good, _, policy in
            let request = try GMRequest(json: [
                "method": "POST", "url": .string(good.url("/echo")), "data": "payload é",
                "headers": ["X-Custom": "yes"], "user": "me", "password": "p:w", "cookie": "session=1", "responseType": "json",
            ])
            let response = try await performer.perform(request, policy: policy, pageURL: nil)
            let echo = try #require(response.json["response"])
            #expect(echo["method"] == "POST")
            #expect(echo["body"] == "payload é")
            #expect(echo["type"] == "text/plain;charset=UTF-8")
            #expect(echo["custom"] == "yes")
            #expect(echo["authorization"] == .string("Basic " + Data("me:p:w".utf8).base64EncodedString()))
            #expect(echo["cookie"] == "session=1")
            #expect(echo["agent"] == .null)

            let anonymous = try GMRequest(json: ["method": "POST", "url": .string(good.url("/echo")), "user": "me", "cookie": "session=1", "anonymous": true, "responseType": "json"])
            let anonymousEcho = try #require(try await performer.perform(anonymous, policy: policy, pageURL: nil).json["response"])
            #expect(anonymousEcho["authorization"] == .null)
            #expect(anonymousEcho["cookie"] == .null)
        }
    }

    @Test func binaryBodiesTravelBothWaysAsBase64() async throws {
        let bytes = (0...255).map(UInt8.init)
        try await withServers(allowed: { request in
            LoopbackResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body.reversed())
        }) { performer, good, _, policy in
            let request = try GMRequest(json: ["method": "PUT", "url": .string(good.url("/bytes")), "dataBase64": .string(Data(bytes).base64EncodedString()), "responseType": "arraybuffer"])
            let response = try await performer.perform(request, policy: policy, pageURL: nil)
            #expect(response.body == bytes.reversed())
            #expect(response.json["responseBase64"] == .string(Data(bytes.reversed()).base64EncodedString()))
        }
    }

    @Test func anHTTPErrorStatusIsStillAResponseForOnload() async throws {
        try await withServers(allowed: { _ in .notFound }) { performer, good, _, policy in
            let response = try await performer.perform(GMRequest(url: good.url("/missing")), policy: policy, pageURL: nil)
            #expect(response.status == 404)
            #expect(response.statusText == "Not Found")
        }
    }

    @Test func relativeURLsAndSelfAreReadAgainstThePage() async throws {
        try await withServers(connect: ["self"], allowed: { request in .text("page api \(request.target)") }) { performer, good, bad, policy in
            let page = try PageURL(good.url("/shop/cart?x=1"))
            let relative = try await performer.perform(GMRequest(url: "api/items?id=2"), policy: policy, pageURL: page)
            #expect(relative.text == "page api /shop/api/items?id=2")
            #expect(relative.finalURL == good.url("/shop/api/items?id=2"))
            let rooted = try await performer.perform(GMRequest(url: "/v2"), policy: policy, pageURL: page)
            #expect(rooted.text == "page api /v2")
            let elsewhere = await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: bad.url("/")), policy: policy, pageURL: page)
            }
            #expect(elsewhere?.description.contains("// @connect 127.0.0.2") == true)
            #expect(bad.received.isEmpty)
        }
    }

    @Test func redirectsAreFollowedHopByHopWithinTheAllowedHosts() async throws {
        try await withServers(allowed: { request in
            switch request.path {
            case "/start": .redirect("/middle", status: 301)
            case "/middle": .redirect("end?step=3", status: 307)
            default: .text("arrived at \(request.target)")
            }
        }) { performer, good, _, policy in
            let response = try await performer.perform(GMRequest(url: good.url("/start")), policy: policy, pageURL: nil)
            #expect(response.text == "arrived at /end?step=3")
            #expect(response.finalURL == good.url("/end?step=3"))
            #expect(good.received.map(\.path) == ["/start", "/middle", "/end"])
        }
    }

    @Test func aRedirectToAForbiddenHostIsRefusedBeforeAnythingIsSentThere() async throws {
        let evilHost = try LoopbackServer(host: "127.0.0.2") { _ in .text("evil") }
        defer { evilHost.stop() }
        let target = evilHost.url("/steal")
        try await withServers(allowed: { request in
            request.path == "/hop" ? .redirect("/jump") : .redirect(target, status: 302)
        }) { performer, good, _, policy in
            let error = await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: good.url("/hop")), policy: policy, pageURL: nil)
            }
            #expect(error == .forbiddenHost(url: target, host: "127.0.0.2", addLine: "// @connect 127.0.0.2"))
            #expect(error?.finalURL == target)
            #expect(evilHost.received.isEmpty)
            #expect(good.received.map(\.path) == ["/hop", "/jump"])
        }
    }

    @Test func userinfoNeverDecidesTheHost() async throws {
        try await withServers { performer, good, bad, policy in
            let trick = "http://127.0.0.1:\(good.port)@127.0.0.2:\(bad.port)/"
            let error = await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: trick), policy: policy, pageURL: nil)
            }
            #expect(error?.description.contains("do not allow 127.0.0.2") == true)
            #expect(bad.received.isEmpty)
            // The other way round it reaches the allowed host, with the userinfo as credentials.
            let reverse = try await performer.perform(GMRequest(url: "http://evil:pw@127.0.0.1:\(good.port)/in"), policy: policy, pageURL: nil)
            #expect(reverse.text == "allowed")
            #expect(good.received.last?.header("authorization") == "Basic " + Data("evil:pw".utf8).base64EncodedString())
        }
    }

    /// Every spelling of 127.0.0.1 reaches the machine under `@connect localhost`, and none does
    /// under a domain rule.
    @Test(arguments: ["127.0.0.1", "127.1", "0x7f.1", "2130706433", "0177.0.0.1", "localhost", "LOCALHOST."])
    func ipFormsOfLocalhost(spelling: String) async throws {
        try await withServers(connect: ["localhost"]) { performer, good, _, policy in
            let url = "http://\(spelling):\(good.port)/loop"
            let response = try await performer.perform(GMRequest(url: url), policy: policy, pageURL: nil)
            #expect(response.text == "allowed")
            let domainOnly = ConnectPolicy(values: ["example.com"])
            let before = good.received.count
            await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: url), policy: domainOnly, pageURL: nil)
            }
            #expect(good.received.count == before)
        }
    }

    @Test func ipv6LoopbackIsLocalhostToo() async throws {
        let server = try LoopbackServer(host: "::1") { _ in .text("six") }
        defer { server.stop() }
        try await GMRequestPerformer.withPerformer(Self.quick) { performer async throws in
            for spelling in ["[::1]", "[0:0:0:0:0:0:0:1]"] {
                let url = "http://\(spelling):\(server.port)/"
                #expect(try await performer.perform(GMRequest(url: url), policy: ConnectPolicy(values: ["localhost"]), pageURL: nil).text == "six")
                await #expect(throws: GMRequestFailure.self) {
                    try await performer.perform(GMRequest(url: url), policy: ConnectPolicy(values: ["127.0.0.1"]), pageURL: nil)
                }
            }
            #expect(server.received.count == 2)
        }
    }

    @Test func lookAlikeHostsAreRefusedBeforeAnyLookup() async throws {
        await GMRequestPerformer.withPerformer(Self.quick) { performer in
            let policy = ConnectPolicy(values: ["example.com"])
            for url in ["https://example.com.evil.test/", "https://evilexample.com/", "http://example.com@evil.test/", "https://evil.test/example.com"] {
                let error = await #expect(throws: GMRequestFailure.self) {
                    try await performer.perform(GMRequest(url: url), policy: policy, pageURL: nil)
                }
                guard case .forbiddenHost? = error else {
                    Issue.record("\(url): expected a refusal for the host, got \(String(describing: error))")
                    continue
                }
            }
        }
    }

    @Test func redirectModesErrorAndManual() async throws {
        try await withServers(allowed: { request in
            request.path == "/moved" ? .redirect("/new", status: 308) : .text("new")
        }) { performer, good, _, policy in
            let refused = await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: good.url("/moved"), redirect: .error), policy: policy, pageURL: nil)
            }
            #expect(refused == .redirectRefused(url: good.url("/moved"), location: "/new"))
            let manual = try await performer.perform(GMRequest(url: good.url("/moved"), redirect: .manual), policy: policy, pageURL: nil)
            #expect(manual.status == 308)
            #expect(manual.finalURL == good.url("/moved"))
            #expect(manual.header("location") == "/new")
        }
    }

    @Test func a303TurnsAPOSTIntoAGETAndACrossOriginHopDropsCredentials() async throws {
        let other = try LoopbackServer(host: "127.0.0.2") { request in
            .text("\(request.method) auth=\(request.header("authorization") ?? "none") cookie=\(request.header("cookie") ?? "none") body=\(request.body.count)")
        }
        defer { other.stop() }
        let target = other.url("/landing")
        try await withServers(connect: ["127.0.0.1", "127.0.0.2"], allowed: { _ in .redirect(target, status: 303) }) { performer, good, _, policy in
            let request = GMRequest(method: "POST", url: good.url("/form"), headers: [GMHeaderField(name: "Cookie", value: "c=1")],
                                    body: Array("a=1".utf8), bodyIsText: true, user: "me", password: "pw")
            let response = try await performer.perform(request, policy: policy, pageURL: nil)
            #expect(response.text == "GET auth=none cookie=none body=0")
            #expect(good.received.first?.header("authorization") != nil)
        }
    }

    @Test func endlessRedirectsStopAtTheLimit() async throws {
        var configuration = Self.quick
        configuration.maximumRedirects = 3
        try await withServers(configuration: configuration, allowed: { _ in .redirect("/again") }) { performer, good, _, policy in
            let error = await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: good.url("/loop")), policy: policy, pageURL: nil)
            }
            #expect(error == .tooManyRedirects(url: good.url("/again"), limit: 3))
            #expect(good.received.count == 4)
        }
    }

    @Test func aServerThatNeverAnswersIsATimeoutNotAHang() async throws {
        let silent = try SilentListener()
        defer { silent.stop() }
        await GMRequestPerformer.withPerformer(Self.quick) { performer in
            let error = await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: "http://127.0.0.1:\(silent.port)/", timeout: 0.5), policy: ConnectPolicy(values: ["localhost"]), pageURL: nil)
            }
            #expect(error == .timedOut(url: "http://127.0.0.1:\(silent.port)/", seconds: 0.5))
            #expect(error?.callback == .ontimeout)
        }
    }

    @Test func aServerThatStopsHalfWayIsATimeoutToo() async throws {
        try await withServers(allowed: { _ in .headThenStall(status: 200, headers: []) }) { performer, good, _, policy in
            let error = await #expect(throws: GMRequestFailure.self) {
                try await performer.perform(GMRequest(url: good.url("/slow"), timeout: 0.5), policy: policy, pageURL: nil)
            }
            #expect(error?.callback == .ontimeout)
        }
    }

    @Test func aBodyOverTheLimitIsRefusedWithOrWithoutContentLength() async throws {
        try await withServers(allowed: { request in
            request.path == "/declared"
                ? LoopbackResponse(status: 200, headers: [], body: [UInt8](repeating: 1, count: 2 * 1024 * 1024))
                : .chunked(chunkSize: 256 * 1024, count: 8)
        }) { performer, good, _, policy in
            for path in ["/declared", "/chunked"] {
                let error = await #expect(throws: GMRequestFailure.self) {
                    try await performer.perform(GMRequest(url: good.url(path)), policy: policy, pageURL: nil)
                }
                #expect(error == .responseTooLarge(url: good.url(path), limit: 1024 * 1024))
            }
        }
    }

    @Test func cancellingTheTaskAbortsTheRequest() async throws {
        try await withServers(allowed: { _ in .headThenStall(status: 200, headers: []) }) { performer, good, _, policy in
            let task = Task {
                try await performer.perform(GMRequest(url: good.url("/forever")), policy: policy, pageURL: nil)
            }
            while good.received.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            let result = await task.result
            guard case .failure(let error) = result, let failure = error as? GMRequestFailure else {
                Issue.record("the request finished: \(result)")
                return
            }
            #expect(failure == .aborted(url: good.url("/forever")))
            #expect(failure.callback == .onabort)
        }
    }

    @Test func nonHTTPURLsAreRefused() async throws {
        await GMRequestPerformer.withPerformer(Self.quick) { performer in
            for url in ["file:///etc/passwd", "ftp://example.com/", "javascript:alert(1)", "not a url"] {
                let error = await #expect(throws: GMRequestFailure.self) {
                    try await performer.perform(GMRequest(url: url), policy: ConnectPolicy(values: ["*"]), pageURL: nil)
                }
                guard case .unsupportedURL? = error else {
                    Issue.record("\(url): \(String(describing: error))")
                    continue
                }
            }
        }
    }
}
