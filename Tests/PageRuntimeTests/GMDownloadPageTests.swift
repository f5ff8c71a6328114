import Engines
import Foundation
import GMAPI
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import PageRuntime

/// `GM_download` and `GM.download` in real pages: a script that uses every option, the files
/// checked on disk and in the run's result; and a page whose own code tries to download.
@Suite(.serialized)
struct GMDownloadPageTests {
    /// The files, on another host than the page's (127.0.0.1; the page is on `localhost`).
    static func files(_ request: LoopbackRequest) -> LoopbackResponse {
        switch request.path {
        case "/report.bin": .text("report for \(request.header("x-token") ?? "nobody")", type: "application/octet-stream")
        case "/newer.bin": .text("newer report", type: "application/octet-stream")
        case "/missing.bin": .text("gone", status: 404)
        default: .text("other")
        }
    }

    @Test(arguments: PageFixtures.engines)
    func aScriptUsingEveryOptionSavesItsFiles(engine: Engine) async throws {
        let page = try LoopbackServer(responses: ["/": LoopbackResponse(html: "<!doctype html><title>Files</title><p>files</p>",
                                                                        headers: PageFixtures.strictPolicy)])
        let files = try LoopbackServer(route: Self.files)
        let silent = try SilentListener()
        let temporary = try TemporaryDirectory("gm-download-page")
        defer {
            page.stop()
            files.stop()
            silent.stop()
        }
        let base = files.url("")
        let script = UserScriptAPITests.userScript("""
            const events = [];
            const saved = await new Promise(resolve => GM_download({
              url: "\(base)/report.bin", name: "../../report.bin", headers: { "X-Token": "t0k" }, saveAs: true,
              onprogress: progress => events.push("progress " + progress.loaded + "/" + progress.total),
              onload: resolve, onerror: resolve
            }));
            const again = await new Promise(resolve => GM_download({ url: "\(base)/report.bin", name: "report.bin", conflictAction: "prompt",
              onload: resolve, onerror: resolve }));
            const replaced = await GM.download({ url: "\(base)/newer.bin", name: "report.bin", conflictAction: "overwrite" });
            const refused = await GM.download({ url: "http://127.0.0.2:\(files.port)/report.bin", name: "refused.bin" }).catch(error => error);
            const missing = await new Promise(resolve => GM_download({ url: "\(base)/missing.bin", onload: resolve, onerror: resolve }));
            const late = await new Promise(resolve => GM_download({ url: "http://127.0.0.1:\(silent.port)/slow.bin", timeout: 300,
              ontimeout: error => resolve("ontimeout " + error.error), onerror: error => resolve("onerror " + error.details) }));
            let aborted = "";
            const handle = GM_download({ url: "\(base)/aborted.bin", name: "aborted.bin", onload: () => { aborted = "loaded"; },
              onerror: error => { aborted = error.error; } });
            handle.abort();
            GM_download("\(base)/report.bin", "short form.bin");
            return { saved: [saved.name, saved.bytes], again: again.name, replaced: replaced.name, refused: refused.error,
                     missing: [missing.error, /HTTP 404/.test(missing.details)], late, aborted, events,
                     abortable: typeof GM.download("\(base)/report.bin", "promise form.bin").abort };
            """, grants: ["GM_download", "GM.download"], extra: ["// @connect 127.0.0.1"])
        let host = GMHost(libraryDirectory: temporary.file("library"), downloads: temporary.file("Downloads"))
        let result = try await PageFixtures.runUserScript(script, on: engine, url: "http://localhost:\(page.port)/", host: host, scriptTimeout: 20)
        await host.shutdown()
        #expect(result.error == nil, "\(engine): \(String(describing: result.error))")
        #expect(result.value == [
            "saved": ["report.bin", 14], "again": "report (1).bin", "replaced": "report.bin", "refused": "not_permitted",
            "missing": ["not_succeeded", true], "late": "ontimeout not_succeeded", "aborted": "not_succeeded", "events": ["progress 14/14"],
            "abortable": "function",
        ], "\(engine): \(result.value?.serialized ?? "nil")")
        // On disk: the overwritten file, the uniquified one, both short forms; nothing aborted,
        // refused or missing, and no temporary file.
        #expect(try temporary.entries("Downloads") == ["promise form.bin", "report (1).bin", "report.bin", "short form.bin"])
        #expect(try temporary.read("Downloads/report.bin") == "newer report")
        #expect(try temporary.read("Downloads/report (1).bin") == "report for nobody")
        #expect(try temporary.read("Downloads/short form.bin") == "report for nobody")
        #expect(files.requests(for: "/aborted.bin") == 0)
        let downloads = try #require(result.userscript?.downloads)
        #expect(downloads.count == 8, "\(downloads.map(\.line))")
        #expect(downloads.first?.path == temporary.path("Downloads/report.bin"))
        #expect(downloads.first?.notes.contains { $0.hasPrefix("saveAs ignored") } == true)
        #expect(downloads.contains { $0.error == .notPermitted && $0.url.contains("127.0.0.2") })
        #expect(downloads.contains { $0.timedOut })
        let json = try #require(result.userscript?.json["downloads"]?.arrayValue)
        #expect(json.count == 8)
        #expect(ReportRenderer.userscriptLines(result.userscript ?? GMActivity()).contains {
            $0.hasPrefix("download: \(base)/report.bin -> \(temporary.path("Downloads/report (1).bin"))")
        })
    }

    /// A download aborted while PageScript was fetching it has its saved file removed when the
    /// abort arrives; one made from a timer after the run ended is handed over with the run's
    /// later output (what `browse` and the editor show), its file saved.
    @Test(arguments: PageFixtures.engines)
    func anAbortAfterTheFileWasSavedRemovesItAndLateDownloadsAreHandedOver(engine: Engine) async throws {
        let page = try LoopbackServer(responses: ["/": LoopbackResponse(html: "<!doctype html><title>Files</title>")])
        let files = try LoopbackServer(route: { request in
            request.path == "/slow.bin" ? LoopbackResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: Array("slow".utf8), delay: 0.5)
                : .text("later", type: "application/octet-stream")
        })
        let temporary = try TemporaryDirectory("gm-download-page")
        defer {
            page.stop()
            files.stop()
        }
        let script = UserScriptAPITests.userScript("""
            let heard = "nothing";
            const handle = GM_download({ url: "\(files.url("/slow.bin"))", name: "slow.bin", onload: () => { heard = "onload"; },
              onerror: error => { heard = error.details; } });
            setTimeout(() => handle.abort(), 100);
            await new Promise(resolve => setTimeout(resolve, 800));
            setTimeout(() => GM_download("\(files.url("/later.bin"))", "later.bin"), 0);
            return heard;
            """, grants: ["GM_download"], extra: ["// @connect 127.0.0.1"], name: "Aborter")
        let host = GMHost(libraryDirectory: temporary.file("library"), downloads: temporary.file("Downloads"))
        let outcome = try await PageFixtures.withPage(engine, url: page.url("/")) { page -> Result<(ScriptResult, [LateScriptOutput]), InjectionError> in
            do throws(InjectionError) {
                let result = try await page.run(userScript: script, id: nil, host: host)
                let late = try await page.serveLateUserScriptWork(waitingAtMost: .milliseconds(500))
                return .success((result, late.output))
            } catch {
                return .failure(error)
            }
        }.get()
        await host.shutdown()
        #expect(outcome.0.value == "the script aborted the download", "\(engine): \(outcome.0.value?.serialized ?? "nil")")
        #expect(files.requests(for: "/slow.bin") == 1)
        #expect(outcome.0.userscript?.downloads.map(\.error) == [.notSucceeded])
        #expect(outcome.0.userscript?.downloads.first?.message?.contains("removed") == true)
        let late = try #require(outcome.1.first { !$0.downloads.isEmpty }, "\(engine): \(outcome.1)")
        #expect(late.name == "Aborter")
        #expect(late.downloads.map(\.relativePath) == ["later.bin"])
        #expect(ReportRenderer.lines(of: late).first?.hasPrefix("Aborter: download: \(files.url("/later.bin")) -> ") == true)
        #expect(try temporary.entries("Downloads") == ["later.bin"])
    }

    /// Only the script that granted it gets it: not another userscript, and not the page's own
    /// code, which calls everything it can find and reaches no file and no server.
    @Test(arguments: PageFixtures.engines)
    func onlyTheScriptThatGrantedItCanDownload(engine: Engine) async throws {
        let files = try LoopbackServer(route: Self.files)
        let pageScript = """
            window.tryDownloads = function () {
              const found = [];
              for (const name of ["GM_download", "GM", "GM_xmlhttpRequest"]) {
                if (typeof window[name] !== "undefined") found.push(name);
              }
              try { GM_download("\(files.url("/report.bin"))", "from-page.bin"); found.push("called GM_download"); } catch (error) {}
              try { GM.download("\(files.url("/report.bin"))"); found.push("called GM.download"); } catch (error) {}
              const item = '{"kind":"deliver","responses":[],"work":[{"run":"x","script":0,"type":"download","request":1,"details":{"url":"\(files.url("/report.bin"))"}}]}';
              for (const name of Object.getOwnPropertyNames(window).filter(name => name.startsWith("pagescript_"))) {
                try { if (window[name]("wrong key", [item], []) !== undefined) found.push("entry answered " + name); } catch (error) {}
              }
              return found;
            };
            """
        let page = try LoopbackServer(responses: UserScriptAPITests.pageResponses(pageScript: pageScript))
        let temporary = try TemporaryDirectory("gm-download-page")
        defer {
            page.stop()
            files.stop()
        }
        let granted = UserScriptAPITests.userScript("""
            return [typeof GM_download, typeof GM.download];
            """, grants: ["GM_download", "GM.download"], name: "Granted")
        let ungranted = UserScriptAPITests.userScript("""
            return [typeof GM_download, typeof GM.download, typeof GM.getValue];
            """, grants: ["GM.getValue"], name: "Other")
        let host = GMHost(libraryDirectory: temporary.file("library"), connecting: ["127.0.0.1"], downloads: temporary.file("Downloads"))
        let results = try await PageFixtures.withPage(engine, url: "http://localhost:\(page.port)/") { page -> Result<[ScriptResult], InjectionError> in
            do throws(InjectionError) {
                return .success([
                    try await page.run(userScript: granted, id: nil, host: host),
                    try await page.run(userScript: ungranted, id: nil, host: host),
                    try await page.run(script: "window.tryDownloads()"),
                    // Anything the page's calls could have queued is served now.
                    try await page.run(userScript: granted, id: nil, host: host),
                ])
            } catch {
                return .failure(error)
            }
        }.get()
        await host.shutdown()
        #expect(results[0].value == ["function", "function"])
        #expect(results[1].value == ["undefined", "undefined", "function"])
        #expect(results[2].value == [], "\(engine): \(results[2].value?.serialized ?? "nil")")
        #expect(results[3].userscript?.downloads == [])
        #expect(files.requests(for: "/report.bin") == 0)
        #expect(!FileManager.default.fileExists(atPath: temporary.path("Downloads")))
    }
}
