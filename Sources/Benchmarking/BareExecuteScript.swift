import Engines
import WebDriver

/// The bare round trip the warm rows compare with: `POST /execute/sync` of `return 1` through the
/// driver, on the best link the driver gets.
///
/// On Chromium that is the measured session itself: PageScript's runs go over its own DevTools
/// connection, and the session's Execute Script is chromedriver's. On Firefox it is the measured
/// session too, and the same command: PageScript's runs are geckodriver's classic Execute Script
/// (WebDriver BiDi carries only `document-start` preload scripts), so the row shows what
/// PageScript adds to the bare call. On WebKit, where PageScript's
/// sessions send their scripts to the browser past the driver, it is a second browser and driver
/// on the same page, started the way a plain WebDriver client gets them at best: the driver
/// linked straight to PageScript's MiniBrowser with Nagle's algorithm off on both ends
/// (``WebDriver/LaunchOptions/scriptsPastTheDriver`` `false`), not through the relay that carries
/// PageScript's own commands.
struct BareExecuteScript {
    private let session: WebDriverSession
    private let engine: BrowserEngine?

    /// The baseline for runs on `session`, on `pageURL`.
    static func start(engine: Engine, beside session: WebDriverSession, pageURL: String) async throws -> BareExecuteScript {
        guard session.executesScriptsDirectly else { return BareExecuteScript(session: session, engine: nil) }
        let running = try await BrowserEngine.start(engine, options: LaunchOptions(scriptsPastTheDriver: false))
        do {
            let own = try await running.newSession(timeout: 30, scriptTimeout: 30)
            guard !own.executesScriptsDirectly else {
                throw EngineError.failedToStart(engine: engine, reason: "the baseline's session sends its scripts past the driver")
            }
            try await own.navigate(to: pageURL)
            return BareExecuteScript(session: own, engine: running)
        } catch {
            await running.stop()
            throw error
        }
    }

    /// One Execute Script of `return 1`.
    func call() async throws {
        _ = try await session.executeScript("return 1")
    }

    /// Stops the second browser, if there is one.
    func stop() async {
        await session.delete()
        await engine?.stop()
    }
}
