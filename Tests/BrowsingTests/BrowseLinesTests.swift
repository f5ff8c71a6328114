import Browsing
import PageRuntime
import SystemSupport
import Testing

/// `browse` for a program to read, without a browser: tab-separated lines on standard output,
/// page text escaped, notes on standard error, nothing for what only keys at a terminal ask for.
struct BrowseLinesTests {
    @Test func pagesAndTabsAreTabSeparatedLinesWithThePagesTextEscaped() {
        #expect(BrowseLines.lines(for: .newDocument(url: "https://example.com/", title: "Inbox\t\u{1B}[2J"))
                == [.output("page\thttps://example.com/\tInbox\\t\\e[2J")])
        #expect(BrowseLines.lines(for: .tabOpened(url: "https://example.com/\n")) == [.output("tab\thttps://example.com/\\n")])
        #expect(BrowseLines.lines(for: .failed(url: "https://example.com/", error: .timedOut(seconds: 3))).first?.text
                .hasPrefix("failed\t-\t-\thttps://example.com/\t") == true)
    }

    @Test func notesGoToStandardErrorAndTerminalOnlyEventsPrintNothing() {
        #expect(BrowseLines.lines(for: .documentStartUnavailable(reason: "attached")).map(\.stream) == [.error])
        #expect(BrowseLines.lines(for: .notificationsNotShown(reason: "there is no session bus"))
                == [.error("notifications are reported, not shown: there is no session bus")])
        #expect(BrowseLines.lines(for: .clipboardNotSet(reason: "no\u{1B}[2J")) == [.error("the clipboard is reported, not set: no\\e[2J")])
        #expect(BrowseLines.lines(for: .ran(url: "https://example.com/", results: [])).isEmpty)
    }
}
