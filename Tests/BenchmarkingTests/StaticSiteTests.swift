import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// The real-page rows' file server: its page list, what it answers for each path (the policy on
/// every page, types, links followed, nothing outside the folder), the same over a real loopback
/// connection, and Debian's Python documentation where it is installed.
struct StaticSiteTests {
    /// A small site: pages at several depths, a folder index, a hidden folder, static files, and a
    /// script that is a link to a file outside the folder (as Debian links `jquery.js`).
    static func makeSite() throws -> (folder: URL, outside: URL) {
        let outside = try ScratchFolder.make("pagescript-static-site-outside")
        try Data("window.shared = true;".utf8).write(to: outside.appendingPathComponent("shared.js"))
        let folder = try ScratchFolder.make("pagescript-static-site")
        let files = [
            "index.html": "<!doctype html><title>Home</title>",
            "b.html": "<!doctype html><title>B</title>",
            "Z.html": "<!doctype html><title>Z</title>",
            "a/z.html": "<!doctype html><title>A Z</title>",
            "a/b.html": "<!doctype html><title>A B</title>",
            "sub/index.html": "<!doctype html><title>Sub</title>",
            ".hidden/page.html": "<!doctype html><title>Hidden</title>",
            "_static/app.js": "document.title += '!';",
            "_static/style.css": "body { color: black }",
            "_static/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
            "_static/logo.png": "PNG",
            "notes.txt": "notes",
        ]
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("_static/shared.js").path(percentEncoded: false),
            withDestinationPath: outside.appendingPathComponent("shared.js").path(percentEncoded: false))
        return (folder, outside)
    }

    static func get(_ target: String, from site: StaticSite) -> LoopbackResponse {
        StaticSite.response(
            to: LoopbackRequest(method: "GET", target: target, headers: [], body: []),
            from: StaticSite.FileCache(root: site.folder.path(percentEncoded: false)))
    }

    static func header(_ name: String, of response: LoopbackResponse) -> String? {
        response.headers.first { $0.name == name }?.value
    }

    @Test func thePagesAreEveryHTMLFileInTheOrderOfTheirPathsHiddenOnesLeftOut() throws {
        let (folder, outside) = try Self.makeSite()
        defer { for item in [folder, outside] { try? FileManager.default.removeItem(at: item) } }
        let site = try StaticSite(serving: folder)
        defer { site.stop() }
        #expect(site.pagePaths == ["/Z.html", "/a/b.html", "/a/z.html", "/b.html", "/index.html", "/sub/index.html"])
        #expect(site.pageURLs.count == 6)
        #expect(site.pageURLs[1].hasSuffix("/a/b.html"))
        #expect(site.pageURLs[1].hasPrefix("http://127.0.0.1:"))
    }

    @Test func everyPageCarriesTheStrictPolicyAndOtherFilesTheirTypes() throws {
        let (folder, outside) = try Self.makeSite()
        defer { for item in [folder, outside] { try? FileManager.default.removeItem(at: item) } }
        let site = try StaticSite(serving: folder)
        defer { site.stop() }

        let page = Self.get("/a/b.html?highlight=x", from: site)
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self) == "<!doctype html><title>A B</title>")
        #expect(Self.header("Content-Type", of: page) == "text/html; charset=utf-8")
        #expect(Self.header("Content-Security-Policy", of: page) == "default-src 'self'; script-src 'self'; style-src 'self'")
        #expect(Self.header("Cache-Control", of: page) == nil)

        let types = [
            ("/_static/app.js", "text/javascript; charset=utf-8"), ("/_static/style.css", "text/css; charset=utf-8"),
            ("/_static/logo.svg", "image/svg+xml"), ("/_static/logo.png", "image/png"), ("/notes.txt", "text/plain; charset=utf-8"),
        ]
        for (path, type) in types {
            let response = Self.get(path, from: site)
            #expect(response.status == 200, "\(path)")
            #expect(Self.header("Content-Type", of: response) == type, "\(path)")
            #expect(Self.header("Content-Security-Policy", of: response) == nil, "\(path)")
            #expect(Self.header("Cache-Control", of: response) == "max-age=3600", "\(path)")
        }
    }

    @Test func foldersServeTheirIndexAndLinksAreFollowed() throws {
        let (folder, outside) = try Self.makeSite()
        defer { for item in [folder, outside] { try? FileManager.default.removeItem(at: item) } }
        let site = try StaticSite(serving: folder)
        defer { site.stop() }
        #expect(String(decoding: Self.get("/", from: site).body, as: UTF8.self) == "<!doctype html><title>Home</title>")
        #expect(String(decoding: Self.get("/sub/", from: site).body, as: UTF8.self) == "<!doctype html><title>Sub</title>")
        #expect(String(decoding: Self.get("/_static/shared.js", from: site).body, as: UTF8.self) == "window.shared = true;")
        #expect(String(decoding: Self.get("/%5Fstatic/app.js", from: site).body, as: UTF8.self) == "document.title += '!';")
    }

    @Test(arguments: ["/missing.html", "/sub", "/_static", "/../", "/a/../../etc/passwd", "/%2E%2E/etc/passwd", "/a/%2e%2e/b.html"])
    func aPathThatNamesNoFileInTheFolderIsNotFound(target: String) throws {
        let (folder, outside) = try Self.makeSite()
        defer { for item in [folder, outside] { try? FileManager.default.removeItem(at: item) } }
        let site = try StaticSite(serving: folder)
        defer { site.stop() }
        #expect(Self.get(target, from: site).status == 404)
    }

    /// Fetches `paths` from the site with Python's `urllib`, over a real connection: each one's
    /// status, policy, type and body length, as JSON.
    static let fetcher = """
        import json, sys, urllib.error, urllib.request
        answers = {}
        for url in sys.argv[1:]:
            try:
                response = urllib.request.urlopen(url, timeout=10)
            except urllib.error.HTTPError as error:
                response = error
            body = response.read()
            answers[url] = {"status": response.status, "policy": response.headers.get("Content-Security-Policy"),
                            "type": response.headers.get("Content-Type"), "length": len(body)}
        print(json.dumps(answers))
        """

    @Test func theServerAnswersOverLoopbackAsItsRoutesSay() throws {
        let python = try #require(ExecutableLocator.find("python3"))
        let (folder, outside) = try Self.makeSite()
        defer { for item in [folder, outside] { try? FileManager.default.removeItem(at: item) } }
        let site = try StaticSite(serving: folder)
        defer { site.stop() }
        let urls = [site.url("/a/z.html"), site.url("/_static/shared.js"), site.url("/nothing.html")]
        let run = try MeasuredProcess.run(executable: python, arguments: ["-c", Self.fetcher] + urls, timeout: 60, label: "fetch")
        let answers = try JSONValue(parsing: run.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(answers[urls[0]] == ["status": 200, "policy": .string(StaticSite.contentSecurityPolicy), "type": "text/html; charset=utf-8", "length": 33])
        #expect(answers[urls[1]] == ["status": 200, "policy": .null, "type": "text/javascript; charset=utf-8", "length": 21])
        #expect(answers[urls[2]]?["status"] == 404)
    }

    @Test(.enabled(if: PythonDocumentation.isInstalled, "python3.11-doc is not installed here (`pagescript bench --sections real-pages` installs it as root)"))
    func thePythonDocumentationIsServedWithItsLinkedScripts() throws {
        let site = try StaticSite(serving: PythonDocumentation.folder)
        defer { site.stop() }
        #expect(site.pagePaths.count > 500)
        #expect(site.pagePaths.contains("/index.html"))
        #expect(site.pagePaths.contains("/library/json.html"))
        #expect(site.pagePaths.allSatisfy { !$0.hasPrefix("/_") })
        let page = Self.get("/library/json.html", from: site)
        #expect(Self.header("Content-Security-Policy", of: page) == StaticSite.contentSecurityPolicy)
        #expect(String(decoding: page.body, as: UTF8.self).contains("<script src=\"../_static/jquery.js\"></script>"))
        let jquery = Self.get("/_static/jquery.js", from: site)
        #expect(jquery.status == 200)
        #expect(jquery.body.count > 10_000)
    }
}
