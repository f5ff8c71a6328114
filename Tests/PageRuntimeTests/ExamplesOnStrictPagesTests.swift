import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import PageRuntime

/// Every built-in example runs on a page served with a strict CSP, on both engines, without an
/// error and with its value.
@Suite(.serialized)
struct ExamplesOnStrictPagesTests {
    static let page = """
        <!doctype html><html lang="en"><head><title>Shop</title></head><body>
        <header style="position: sticky; top: 0">Header</header>
        <h1>Products</h1><h2>Details</h2>
        <p>Some words to count in this page.</p>
        <a href="/a">A link</a> <a href="https://example.com/">Elsewhere</a>
        <img src="/x.png"> <img src="/y.png" alt="y">
        <form><label>Name <input name="name" required></label><select name="size"><option>S</option></select></form>
        <table><tr><th>Item</th><th>Price</th></tr><tr><td>Pen</td><td>2</td></tr></table>
        </body></html>
        """

    @Test(arguments: PageFixtures.engines)
    func everyExampleRuns(engine: Engine) async throws {
        let examples = try ExampleCatalog.builtIn().examples
        #expect(examples.count >= 10)
        let server = try LoopbackServer(responses: ["/": LoopbackResponse(html: Self.page, headers: PageFixtures.strictPolicy)])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            for example in examples {
                _ = try await page.open(server.url("/"))
                let result = try await page.run(script: example.script.text, mode: .userscript)
                #expect(result.error == nil, "\(example.id): \(String(describing: result.error))")
                #expect(result.value != nil, "\(example.id) gave no value")
            }
            // The page's style-src stays in force: the example's constructed style sheet applies
            // anyway, and a second run takes it away again.
            _ = try await page.open(server.url("/"))
            let darkMode = try ExampleCatalog.builtIn().example(named: "dark-mode").script.text
            _ = try await page.run(script: darkMode, mode: .userscript)
            let filter = try await page.run(script: "getComputedStyle(document.documentElement).filter", mode: .console)
            #expect(filter.value?.stringValue?.contains("invert") == true, "\(String(describing: filter))")
            _ = try await page.run(script: darkMode, mode: .userscript)
            let undone = try await page.run(script: "getComputedStyle(document.documentElement).filter", mode: .console)
            #expect(undone.value == .string("none"))
        }
    }
}
