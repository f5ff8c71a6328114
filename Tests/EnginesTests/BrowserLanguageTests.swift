import Engines
import Testing

/// Every engine tells pages a valid BCP 47 language: the locale's when it names one, `en-US`
/// otherwise (a server's `C.UTF-8` names none, and WebKit would say `"C"`).
struct BrowserLanguageTests {
    @Test(arguments: [
        ("de_DE.UTF-8", "de-DE"), ("pt_BR", "pt-BR"), ("en", "en"), ("fr-ca", "fr-CA"), ("sr_RS@latin", "sr-RS"),
        ("zh_Hant_TW.UTF-8", "zh-Hant-TW"), ("es-419", "es-419"), ("de-DE", "de-DE"),
    ])
    func aLocaleOrATagBecomesATag(_ text: String, _ tag: String) throws {
        #expect(try #require(BrowserLanguage(text)).tag == tag)
    }

    @Test(arguments: ["C", "C.UTF-8", "POSIX", "", "english", "de_DE_x", "1a", "de-DE-extra-things"])
    func whatNamesNoLanguageIsRefused(_ text: String) {
        #expect(BrowserLanguage(text) == nil)
    }

    @Test func theEnvironmentDecidesAndCNamesNone() {
        #expect(BrowserLanguage.fromEnvironment(["LANG": "C.UTF-8"]).tag == "en-US")
        #expect(BrowserLanguage.fromEnvironment([:]).tag == "en-US")
        #expect(BrowserLanguage.fromEnvironment(["LANG": "fr_FR.UTF-8"]).tag == "fr-FR")
        #expect(BrowserLanguage.fromEnvironment(["LANG": "fr_FR.UTF-8", "LC_ALL": "de_AT.UTF-8"]).tag == "de-AT")
        #expect(BrowserLanguage.fromEnvironment(["LANG": "fr_FR.UTF-8", "LC_ALL": ""]).tag == "fr-FR")
    }

    @Test func eachLauncherPassesTheLanguageOn() throws {
        let german = try #require(BrowserLanguage("de-DE"))
        let environment = WebKitLauncher.environment(display: ":9", language: german, base: ["LANG": "C.UTF-8", "LC_ALL": "C", "LANGUAGE": "C"])
        #expect(environment["LANG"] == "de_DE.UTF-8")
        #expect(environment["LC_ALL"] == nil)
        #expect(environment["LANGUAGE"] == nil)
        let arguments = ChromiumLauncher.arguments(language: german)
        #expect(arguments.contains("--accept-lang=de-DE,de"))
        #expect(arguments.contains("--lang=de-DE"))
    }
}
