import Engines
import Foundation
import GMAPI
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// Tampermonkey's and Violentmonkey's several-values forms (`GM_setValues`, `GM_getValues`,
/// `GM_deleteValues` and their `GM.*` promises) in real pages, each write kept in the library.
struct GMValuesPageTests {
    @Test(arguments: PageFixtures.engines)
    func severalValuesAreSetReadAndDeletedAtOnce(engine: Engine) async throws {
        let server = try LoopbackServer(responses: ["/": LoopbackResponse(html: "<!doctype html><title>Values</title>")])
        defer { server.stop() }
        let temporary = try TemporaryDirectory("gm-values-page")
        let script = UserScriptAPITests.userScript("""
            const heard = [];
            GM_addValueChangeListener("b", (key, old, now, remote) => heard.push([key, old, now, remote]));
            GM_setValues({ a: 1, b: { deep: [true] }, c: "three" });
            const byKeys = GM_getValues(["a", "b", "missing"]);
            const byDefaults = GM_getValues({ a: 0, missing: "fallback" });
            GM_deleteValues(["a", "c"]);
            await GM.setValues({ d: 4 });
            const promised = await GM.getValues(["b", "d", "a"]);
            await GM.deleteValues(["d"]);
            let refused = "";
            try { GM_deleteValues("b"); } catch (error) { refused = error.message; }
            return { byKeys, byDefaults, promised, listed: GM_listValues().sort(), heard, refused };
            """, grants: ["GM_setValues", "GM_getValues", "GM_deleteValues", "GM_listValues", "GM_addValueChangeListener",
                          "GM.setValues", "GM.getValues", "GM.deleteValues"])
        let host = GMHost(libraryDirectory: temporary.file("library"))
        let result = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> Result<ScriptResult, InjectionError> in
            do throws(InjectionError) {
                return .success(try await page.run(userScript: script, id: "several", host: host))
            } catch {
                return .failure(error)
            }
        }.get()
        await host.shutdown()
        #expect(result.error == nil, "\(engine): \(String(describing: result.error))")
        #expect(result.value == [
            "byKeys": ["a": 1, "b": ["deep": [true]]], "byDefaults": ["a": 1, "missing": "fallback"],
            "promised": ["b": ["deep": [true]], "d": 4], "listed": ["b"], "heard": [["b", .null, ["deep": [true]], false]],
            "refused": "GM_deleteValues needs an array of keys",
        ], "\(engine): \(result.value?.serialized ?? "nil")")
        let kept = try ScriptValueStore(libraryDirectory: temporary.file("library")).values(of: "several")
        #expect(kept.object == ["b": ["deep": [true]]], "\(kept.object.serialized)")
    }
}
