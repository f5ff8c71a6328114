import Foundation
import GMAPI
import SystemSupport
import UserScripts
import WebDriver

extension PageSession {
    /// Does one `GM_cookie` call of `run` in the browser's cookie store and returns what the page
    /// half hands to the callback (`{"cookies": [...]}` for a list, `{}` for a set or delete
    /// done, `{"error": TEXT}`) and the call's record for the result.
    ///
    /// The script reaches the cookies of the document it runs in (`pageURL`), of the sites its
    /// `@match` and `@include` lines name, and, without `httpOnly` ones, of the hosts its
    /// `@connect` lines allow (``GMAPI/GMCookieCall/access(for:policy:pageURL:)``). Chromium
    /// reaches any address's cookies through DevTools' `Network` domain; WebKit and Firefox
    /// through classic WebDriver's cookie commands, which see the shown document's cookies only,
    /// so another host's are refused there with the reason.
    func performCookieCall(_ item: JSONValue, for run: GMScriptRun, pageURL: String) async -> (response: JSONValue, record: GMCookieRecord) {
        let action = item["action"]?.stringValue ?? "?"
        let requested = item["details"]?["url"]?.stringValue ?? pageURL
        do throws(GMCookieError) {
            guard run.grants.cookies else {
                throw .notAllowed(url: requested, reason: "\(run.script.name) has no @grant GM_cookie or GM.cookie")
            }
            let call = try GMCookieCall(json: ["action": .string(action), "details": item["details"] ?? [:]])
            let access = try call.access(for: run.script, policy: run.policy, pageURL: try? PageURL(pageURL))
            switch call.action {
            case .list:
                let listed = call.selecting(try await cookies(for: call.url, shownDocument: pageURL), access: access)
                return (["cookies": .array(listed.map(\.json))], GMCookieRecord(call: call, listed: listed.count))
            case .set:
                let cookie = call.cookieToSet
                if cookie.httpOnly, access != .all {
                    throw .notAllowed(url: call.url.description, reason: "an httpOnly cookie needs an @match or @include for the site")
                }
                try await set(cookie, at: call.url, shownDocument: pageURL)
            case .delete:
                if access != .all, try await cookies(for: call.url, shownDocument: pageURL).contains(where: { $0.name == call.name && $0.httpOnly }) {
                    throw .notAllowed(url: call.url.description, reason: "an httpOnly cookie needs an @match or @include for the site")
                }
                try await deleteCookies(named: call.name ?? "", at: call.url, shownDocument: pageURL)
            }
            return ([:], GMCookieRecord(call: call, listed: nil))
        } catch {
            return (["error": .string(error.description)], GMCookieRecord(action: action, url: requested, name: item["details"]?["name"]?.stringValue, error: error.description))
        }
    }

    /// Whether cookie calls go through DevTools (Chromium), which reaches every address's cookies.
    private var cookiesThroughDevTools: Bool {
        route != nil || session.offersChromeDevTools
    }

    private func devTools(_ method: String, _ parameters: JSONValue) async throws(GMCookieError) -> JSONValue {
        do {
            if let route { return try await route.send(method, parameters, scriptTimeout) }
            return try await session.chromeDevTools(method, parameters: parameters, timeout: scriptTimeout)
        } catch {
            throw .failed("the browser refused \(method): \(error)")
        }
    }

    /// Classic WebDriver's cookie commands reach the shown document's cookies: `url` must be on
    /// its host.
    private func checkClassicReach(_ url: PageURL, shownDocument: String) throws(GMCookieError) {
        guard let shown = try? PageURL(shownDocument), shown.host == url.host else {
            throw .outOfReach(url: url.description, reason: "on this engine PageScript reaches cookies through WebDriver, which sees"
                + " only those of the page shown (\(shownDocument)); run the script on \(url.host), or use Chromium")
        }
    }

    private func cookies(for url: PageURL, shownDocument: String) async throws(GMCookieError) -> [GMCookie] {
        if cookiesThroughDevTools {
            let reply = try await devTools("Network.getCookies", ["urls": [.string(url.description)]])
            return (reply["cookies"]?.arrayValue ?? []).compactMap(Self.cookie(devTools:))
        }
        try checkClassicReach(url, shownDocument: shownDocument)
        do {
            return try await session.cookies(timeout: scriptTimeout).map(Self.cookie(webDriver:))
        } catch {
            throw .failed("the driver could not list the cookies: \(error)")
        }
    }

    private func set(_ cookie: GMCookie, at url: PageURL, shownDocument: String) async throws(GMCookieError) {
        let sameSite = GMCookie.sameSiteAttribute(cookie.sameSite)
        if cookiesThroughDevTools {
            var parameters: [(key: String, value: JSONValue)] = [
                ("name", .string(cookie.name)), ("value", .string(cookie.value)), ("url", .string(url.description)),
                ("path", .string(cookie.path)), ("secure", .bool(cookie.secure)), ("httpOnly", .bool(cookie.httpOnly)),
            ]
            if !cookie.hostOnly { parameters.append(("domain", .string("." + cookie.domain))) }
            if let sameSite { parameters.append(("sameSite", .string(sameSite))) }
            if let expiry = cookie.expirationDate { parameters.append(("expires", .number(expiry))) }
            let reply = try await devTools("Network.setCookie", .object(parameters))
            if reply["success"]?.boolValue == false { throw .failed("the browser did not keep the cookie \(cookie.name)") }
            return
        }
        try checkClassicReach(url, shownDocument: shownDocument)
        let added = WebDriverCookie(name: cookie.name, value: cookie.value, domain: cookie.hostOnly ? nil : cookie.domain, path: cookie.path,
                                    secure: cookie.secure, httpOnly: cookie.httpOnly, sameSite: sameSite,
                                    expiry: cookie.expirationDate.map { Int64($0) })
        do {
            try await session.addCookie(added, timeout: scriptTimeout)
        } catch {
            throw .failed("the driver did not add the cookie \(cookie.name): \(error)")
        }
    }

    private func deleteCookies(named name: String, at url: PageURL, shownDocument: String) async throws(GMCookieError) {
        if cookiesThroughDevTools {
            _ = try await devTools("Network.deleteCookies", ["name": .string(name), "url": .string(url.description)])
            return
        }
        try checkClassicReach(url, shownDocument: shownDocument)
        do {
            try await session.deleteCookie(named: name, timeout: scriptTimeout)
        } catch {
            throw .failed("the driver did not delete the cookie \(name): \(error)")
        }
    }

    /// A cookie of DevTools' `Network.getCookies`: a domain with a leading dot goes to subdomains
    /// too; `expires` -1 (or `session`) is a session cookie.
    static func cookie(devTools json: JSONValue) -> GMCookie? {
        guard let name = json["name"]?.stringValue, let value = json["value"]?.stringValue, let domain = json["domain"]?.stringValue else { return nil }
        let session = json["session"]?.boolValue ?? ((json["expires"]?.doubleValue ?? -1) < 0)
        return GMCookie(name: name, value: value, domain: domain.hasPrefix(".") ? String(domain.dropFirst()) : domain,
                        hostOnly: !domain.hasPrefix("."), path: json["path"]?.stringValue ?? "/", secure: json["secure"]?.boolValue ?? false,
                        httpOnly: json["httpOnly"]?.boolValue ?? false, sameSite: GMCookie.sameSiteName(json["sameSite"]?.stringValue),
                        expirationDate: session ? nil : json["expires"]?.doubleValue)
    }

    /// A cookie of classic WebDriver's Get All Cookies.
    static func cookie(webDriver cookie: WebDriverCookie) -> GMCookie {
        let domain = cookie.domain ?? ""
        return GMCookie(name: cookie.name, value: cookie.value, domain: domain.hasPrefix(".") ? String(domain.dropFirst()) : domain,
                        hostOnly: !domain.hasPrefix("."), path: cookie.path ?? "/", secure: cookie.secure ?? false,
                        httpOnly: cookie.httpOnly ?? false, sameSite: GMCookie.sameSiteName(cookie.sameSite),
                        expirationDate: cookie.expiry.map(Double.init))
    }
}
