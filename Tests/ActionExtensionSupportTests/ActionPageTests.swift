import Foundation
import ActionExtensionSupport
import Testing
import UserScripts

@Suite("Reading what Action.js's run reported")
struct ActionPageTests {
    @Test("reads the URL and title Action.js sends")
    func readsResults() throws {
        let page = ActionPage(preprocessingResults: ["URL": "https://www.example.com/a?b=1", "title": "Example"] as [String: Any])
        #expect(page.url == "https://www.example.com/a?b=1")
        #expect(page.title == "Example")
        let url = try #require(page.pageURL)
        #expect(page.site == Site(url: url))
        #expect(page.displayTitle == "Example")
    }

    @Test("reads an NSDictionary, as Safari sends it")
    func readsDictionaryObject() {
        let results = NSMutableDictionary()
        results["URL"] = "https://example.org/"
        results["title"] = "Org"
        let page = ActionPage(preprocessingResults: results as NSDictionary as? [AnyHashable: Any])
        #expect(page.url == "https://example.org/")
        #expect(page.title == "Org")
    }

    enum BadResults: CaseIterable, Sendable {
        case missing, notADictionary, empty, mistyped, emptyStrings

        var value: Any? {
            switch self {
            case .missing: nil
            case .notADictionary: "not a dictionary"
            case .empty: [String: Any]()
            case .mistyped: ["URL": 42, "title": ["nested"]] as [String: Any]
            case .emptyStrings: ["URL": "", "title": ""]
            }
        }
    }

    @Test("missing or mistyped values read as nothing", arguments: BadResults.allCases)
    func toleratesBadResults(_ results: BadResults) {
        let page = ActionPage(preprocessingResults: results.value)
        #expect(page.url == nil)
        #expect(page.title == "")
        #expect(page.pageURL == nil)
        #expect(page.displayTitle == "PageScript")
    }

    @Test("an untitled page shows its site's name")
    func untitledShowsSite() {
        let page = ActionPage(url: "https://news.example.com:8443/story", title: " \n ")
        #expect(page.displayTitle == page.site?.displayName)
        #expect(page.displayTitle.contains("news.example.com"))
    }

    @Test("a URL that does not parse keeps the editor without a site")
    func unparsableURL() {
        let page = ActionPage(url: "not a url", title: "T")
        #expect(page.url == "not a url")
        #expect(page.pageURL == nil)
        #expect(page.site == nil)
    }

    @Test("oversized values are refused or cut")
    func oversized() {
        let longURL = "https://example.com/" + String(repeating: "a", count: ActionPage.maximumURLLength)
        let longTitle = String(repeating: "t", count: ActionPage.maximumTitleScalars * 3)
        let page = ActionPage(url: longURL, title: longTitle)
        #expect(page.url == nil)
        #expect(page.title.unicodeScalars.count == ActionPage.maximumTitleScalars)
    }
}
