import PageRuntime
import Testing

struct PageContextTests {
    /// An address without a scheme is refused whether or not a good one was checked before it
    /// (the last good address is remembered so that the same one is not parsed again).
    @Test func anAddressWithoutASchemeIsRefusedBeforeAndAfterAGoodOne() throws {
        #expect(throws: InjectionError.self) { try PageContext(url: "no-scheme/page", title: "x") }
        let good = try PageContext(url: "https://example.com/page", title: "Good")
        #expect(good.url == "https://example.com/page")
        #expect(throws: InjectionError.self) { try PageContext(url: "no-scheme/page", title: "x") }
        #expect(throws: InjectionError.self) { try PageContext(url: "", title: "x") }
        #expect(try PageContext(url: "https://example.com/page", title: "Again").title == "Again")
        #expect(try PageContext(url: "file:///tmp/a.html", title: "").url == "file:///tmp/a.html")
    }
}
