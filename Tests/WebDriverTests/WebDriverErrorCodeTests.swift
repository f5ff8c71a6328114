import Testing
import WebDriver

/// The W3C's error codes, each known by its name.
struct WebDriverErrorCodeTests {
    @Test func everyW3CErrorCodeIsKnown() {
        #expect(WebDriverErrorCode.allCases.count == 28)
        for code in WebDriverErrorCode.allCases {
            #expect(WebDriverErrorCode(rawValue: code.rawValue) == code)
        }
    }
}
