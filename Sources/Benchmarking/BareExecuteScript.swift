import Engines
import SystemSupport
import WebDriver

/// The bare round trip the warm rows compare with: Execute Script of `return 1` on the best link
/// a client gets.
///
/// On Chromium that is the measured session itself: PageScript's runs go over its own DevTools
/// connection, and the session's Execute Script is chromedriver's. On Firefox it is the measured
/// session too, and the way PageScript's own calls go: WebDriver BiDi's `script.callFunction`
/// (``WebDriver/WebDriverSession/executeScriptThroughBiDi(serializedScript:arguments:timeout:)``),
/// faster than geckodriver's classic `POST /execute/sync`, so the row shows what PageScript adds
/// to the bare call. On WebKit, where PageScript's
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
        if session.offersBiDi, !session.offersChromeDevTools,
           try await session.executeScriptThroughBiDi(serializedScript: Self.script) != nil {
            return
        }
        _ = try await session.executeScript(serializedScript: Self.script)
    }

    /// `return 1` as a JSON string literal.
    private static let script = JSONValue.string("return 1").serialized

    /// Stops the second browser, if there is one.
    func stop() async {
        await session.delete()
        await engine?.stop()
    }
}
