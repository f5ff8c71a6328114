import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript run` end to end: the built binary, real engines, a real loopback server.
@Suite(.serialized)
struct RunCommandTests {
    static let engines = ["webkit", "chromium"]

    static let hostileTitle = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}RTL"

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer(pages: [
            "/": "<!doctype html><html><head><title>Hello</title></head><body><p>hi</p></body></html>",
            "/hostile": "<!doctype html><html><head><title>x</title></head><body><script>document.title = \(JSONString(Self.hostileTitle))</script></body></html>",
        ])
    }

    /// Runs `pagescript run` with a process marker and checks that nothing it started survives.
    func run(_ arguments: [String], input: String? = nil) async throws -> PageScriptBinary.Outcome {
        let marker = ProcessProbe.newMarker()
        let outcome = try await PageScriptBinary.outcome(of: ["run"] + arguments, input: input, environment: [marker.name: marker.value])
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after pagescript \(arguments): \(leftovers)")
        return outcome
    }

    @Test(arguments: engines)
    func printsTheValueOfAnExpression(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "document.title.toUpperCase()", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "\"HELLO\"\n")
        #expect(outcome.standardError.contains("Hello"))
        #expect(outcome.standardError.contains(server.url()))
    }

    @Test(arguments: engines)
    func reportsConsoleLinesWithLevelsInJSON(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", #"console.log("a", 1); console.warn("w"); 6*7"#, "--json", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["value"] as? Int == 42)
        #expect(object["title"] as? String == "Hello")
        #expect(object["url"] as? String == server.url())
        #expect(object["error"] is NSNull)
        let console = try #require(object["console"] as? [[String: String]])
        #expect(console == [["level": "log", "message": "a 1"], ["level": "warn", "message": "w"]])
    }

    @Test(arguments: engines)
    func syntaxErrorExitsOneWithLineAndColumn(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "let x = ;", "--json", "--engine", engine])
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["name"] as? String == "SyntaxError")
        #expect(error["line"] as? Int == 1)
        #expect(error["column"] as? Int == 9)
    }

    @Test(arguments: engines)
    func syntaxErrorOnALaterLineIsPlacedThere(engine: String) async throws {
        let script = "const a = 1;\nconst b = 2;\n  if (a) { b +* 3 }\n"
        let outcome = try await run([server.url(), "-e", script, "--json", "--engine", engine])
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["name"] as? String == "SyntaxError")
        #expect(error["line"] as? Int == 3)
        #expect(error["column"] as? Int == 15)
    }

    @Test(arguments: engines)
    func typeErrorExitsOne(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "null.x", "--engine", engine])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("TypeError"))
        #expect(outcome.standardError.contains("line 1"))
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test(arguments: engines)
    func endlessScriptTimesOutWithExitFour(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "while (true) {}", "--timeout", "2", "--load-timeout", "60",
                                 "--engine", engine])
        #expect(outcome.status == 4, "\(outcome.standardError)")
        // A guard against a run that hangs, not a speed check: on a loaded machine the browser's
        // start alone can take several seconds.
        #expect(outcome.seconds < 30)
        #expect(outcome.standardError.contains("did not finish within 2 s"))
    }

    /// A timeout keeps what the run produced: the page's line and the console lines in text, as
    /// `--json` keeps them, and the timing of every phase.
    @Test(arguments: engines)
    func aTimeoutKeepsThePageTheConsoleAndTheTiming(engine: String) async throws {
        let code = "console.log('start'); await new Promise(() => {})"
        let text = try await run([server.url(), "-e", code, "--timeout", "4", "--engine", engine, "--timing"])
        #expect(text.status == 4, "\(text.standardError)")
        let lines = text.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "Hello <\(server.url())>", "\(lines)")
        #expect(lines.contains("console.log: start"), "\(lines)")
        #expect(lines.contains("pagescript: the script did not finish within 4 s"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("timing: ") && $0.contains("script ") && $0.contains("teardown ") }, "\(lines)")

        let json = try await run([server.url(), "-e", code, "--timeout", "4", "--engine", engine, "--timing", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Hello")
        #expect((object["console"] as? [[String: Any]])?.first?["message"] as? String == "start")
        let phases = try #require((object["timing"] as? [String: Any])?["phases"] as? [[String: Any]])
        #expect(phases.compactMap { $0["name"] as? String }.suffix(2) == ["script", "teardown"])
    }

    /// A script that blocks its page ends within a second of its limit on every engine: the
    /// page's line is still shown, and on Chromium, whose DevTools stops the script, its console.
    @Test(arguments: engines)
    func aBlockingScriptEndsWithinASecondOfItsLimit(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "console.log('start'); while (true) {}", "--timeout", "3", "--engine", engine,
                                     "--timing", "--json"])
        #expect(outcome.status == 4, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Hello")
        let phases = try #require((object["timing"] as? [String: Any])?["phases"] as? [[String: Any]])
        let seconds = Dictionary(uniqueKeysWithValues: phases.compactMap { phase in
            (phase["name"] as? String).flatMap { name in (phase["seconds"] as? Double).map { (name, $0) } }
        })
        // From the script's start to the process's end: a bound, not a benchmark.
        let afterLoad = try #require(seconds["script"]) + (seconds["teardown"] ?? 0)
        #expect(afterLoad < 4.5, "\(phases)")
        if engine == "chromium" {
            #expect((object["console"] as? [[String: Any]])?.first?["message"] as? String == "start", "\(object)")
        }
    }

    /// `--dialogs accept=TEXT` answers every prompt with TEXT, the script's own and a real one;
    /// dialogs are reported in the order they opened, a real one among the script's. A dialog the
    /// script's own code opens through `window` is the script's; once the script awaits, the page
    /// has its own functions back, and a dialog then is a real one.
    @Test(arguments: engines)
    func promptsGetTheGivenAnswerAndDialogsKeepTheirOrder(engine: String) async throws {
        let code = "alert('first'); const sure = window.confirm('Sure?'); const a = prompt('Name?', 'x'); "
            + "await new Promise(r => setTimeout(r, 20)); const b = window.prompt('Again?'); alert('third'); "
            + "[a, b, sure, String(window.confirm).includes('[native code]')]"
        let outcome = try await run([server.url(), "-e", code, "--dialogs", "accept=Ada Lovelace", "--engine", engine, "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let value = try #require(object["value"] as? [Any], "\(object)")
        #expect(value.compactMap { $0 as? String } == ["Ada Lovelace", "Ada Lovelace"], "\(object)")
        #expect(value.compactMap { $0 as? Bool } == [true, true], "the script's confirm was accepted and the page's is back: \(object)")
        let dialogs = try #require(object["dialogs"] as? [[String: Any]])
        #expect(dialogs.compactMap { $0["message"] as? String } == ["first", "Sure?", "Name?", "Again?", "third"], "\(dialogs)")
        #expect(dialogs.compactMap { $0["answer"] as? String } == ["Ada Lovelace", "Ada Lovelace"], "\(dialogs)")
        let sure = try #require(dialogs.first { $0["message"] as? String == "Sure?" })
        #expect(sure["type"] as? String == "confirm" && sure["byPage"] == nil, "window.confirm in the script's code is the script's: \(sure)")

        let refused = try await run([server.url(), "-e", "1", "--dialogs", "maybe", "--engine", engine])
        #expect(refused.status == 2 && refused.standardError.contains("accept=TEXT"), "\(refused.standardError)")
    }

    /// `about:blank` and `data:` URLs are pages like any other.
    @Test(arguments: engines)
    func runsOnAboutBlankAndOnADataURL(engine: String) async throws {
        let blank = try await run(["about:blank", "-e", "location.href", "--engine", engine])
        #expect(blank.status == 0, "\(blank.standardError)")
        #expect(blank.standardOutput == "\"about:blank\"\n")
        let data = try await run(["data:text/html,<title>Made here</title><p>hi</p>", "-e", "document.querySelector('p').textContent + ' ' + document.title",
                                  "--engine", engine])
        #expect(data.status == 0, "\(data.standardError)")
        #expect(data.standardOutput == "\"hi Made here\"\n")
        #expect(data.standardError.hasPrefix("Made here <data:text/html,"), "\(data.standardError)")
    }

    @Test(arguments: engines)
    func awaitsAReturnedPromise(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "new Promise(r => setTimeout(() => r(5), 100))", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "5\n")
    }

    @Test(arguments: engines)
    func rejectedPromiseExitsOne(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "Promise.reject(new RangeError('too far'))", "--json", "--engine", engine])
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["name"] as? String == "RangeError")
        #expect(error["message"] as? String == "too far")
    }

    @Test(arguments: engines)
    func readsTheScriptFromStandardInput(engine: String) async throws {
        let outcome = try await run([server.url(), "-", "--engine", engine], input: "[1, 'two', {three: 3}]")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "[1,\"two\",{\"three\":3}]\n")
    }

    @Test(arguments: engines)
    func hostileTitleIsEscapedInBothModes(engine: String) async throws {
        for mode in [[], ["--json"]] {
            let outcome = try await run([server.url("/hostile"), "-e", "document.title"] + mode + ["--engine", engine])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            for text in [outcome.standardOutput, outcome.standardError] {
                let raw = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E }
                #expect(raw.isEmpty, "raw control characters reached the terminal: \(raw.map { $0.value })")
            }
            #expect(outcome.standardOutput.contains("pwned"))
        }
    }

    @Test func missingEngineExitsThreeNamingThePackages() async throws {
        let bare = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "1"], environment: ["PATH": "/nonexistent"])
        #expect(bare.status == 3)
        #expect(bare.standardError.contains("webkit2gtk-driver"))
        #expect(bare.standardError.contains("xvfb"))
        let chromium = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "1", "--engine", "chromium"], environment: ["PATH": "/nonexistent"])
        #expect(chromium.status == 3)
        #expect(chromium.standardError.contains("chromium-driver"))
    }

    @Test func unreachableWebDriverURLExitsThreeQuickly() async throws {
        let outcome = try await run([server.url(), "-e", "1", "--webdriver-url", "http://127.0.0.1:9/"])
        #expect(outcome.status == 3)
        #expect(outcome.seconds < 5)
        #expect(outcome.standardError.contains("127.0.0.1:9"))
    }

    @Test func remoteEndpointRunsTheScript() async throws {
        // A real endpoint started through the library, used by the binary as a remote one.
        let engine = try await BrowserEngine.start(.webkit)
        let endpoint = engine.client.endpoint.absoluteString
        let outcome = try await Task.detached { [server] in
            try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "document.title", "--webdriver-url", endpoint])
        }.value
        await engine.stop()
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "\"Hello\"\n")
    }

    @Test(arguments: engines)
    func sigtermStopsEverythingPageScriptStarted(engine: String) throws {
        let marker = ProcessProbe.newMarker()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PageScriptBinary.path)
        process.arguments = ["run", server.url(), "-e", "while (true) {}", "--timeout", "60", "--engine", engine]
        process.environment = ProcessInfo.processInfo.environment.merging([marker.name: marker.value]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        // What the run said, should it end before the signal: then the premise below is gone.
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-sigterm-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorLog) }
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        // Wait until the browser is up and busy in the script.
        var browserSeen = false
        for _ in 0..<200 where !browserSeen {
            browserSeen = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
                .contains { $0.contains("MiniBrowser") || $0.contains("WebKitWebProcess") || $0.contains("chromium") }
            if !browserSeen { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(browserSeen)
        Thread.sleep(forTimeInterval: 1)
        let said = { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }
        try #require(process.isRunning, "the run ended before SIGTERM was sent: \(said())")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM, "\(process.terminationReason == .uncaughtSignal ? "killed by signal" : "exited"): \(said())")
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after SIGTERM: \(leftovers)")
    }

    /// `pagescript run ... | head -c 20`: the reader goes away before the value is written. The
    /// run ends quietly with 141 (128 + SIGPIPE), as other tools do, with nothing left running.
    @Test(arguments: engines)
    func aReaderThatGoesAwayEndsTheRunQuietly(engine: String) async throws {
        let marker = ProcessProbe.newMarker()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PageScriptBinary.path)
        process.arguments = ["run", server.url(), "-e", "'x'.repeat(100000)", "--engine", engine]
        process.environment = ProcessInfo.processInfo.environment.merging([marker.name: marker.value]) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try output.fileHandleForReading.close()
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGPIPE, "\(messages)")
        #expect(!messages.contains("Fatal error"), "\(messages)")
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after the reader went away: \(leftovers)")
    }

    /// `--screenshot FILE`: the page after the script ran, as PNG; what the script drew is in it.
    @Test(arguments: engines)
    func screenshotShowsThePageAfterTheScript(engine: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-shot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var shots: [Data] = []
        for colour in ["rgb(255, 0, 0)", "rgb(0, 0, 255)"] {
            let file = folder.appendingPathComponent("\(shots.count).png").path
            let outcome = try await run([server.url(), "-e", "document.body.style.background = '\(colour)'; 1", "--engine", engine,
                                   "--screenshot", file, "--json"])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
            #expect(object["screenshot"] as? String == file)
            let png = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            shots.append(png)
        }
        #expect(shots[0] != shots[1], "the two backgrounds must give two different pictures")
    }

    /// `--timing`: every phase of a cold run, in order, adding up to the total; a line on standard
    /// error, or `"timing"` in `--json`.
    @Test(arguments: engines)
    func timingAccountsForEveryPhase(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "document.title", "--engine", engine, "--timing", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let timing = try #require(object["timing"] as? [String: Any])
        let phases = try #require(timing["phases"] as? [[String: Any]])
        let names = phases.compactMap { $0["name"] as? String }
        #expect(names == ["prepare"] + (engine == "webkit" ? ["display"] : []) + ["driver", "session", "navigation", "script", "teardown"])
        let seconds = phases.compactMap { $0["seconds"] as? Double }
        #expect(seconds.count == names.count && seconds.allSatisfy { $0 >= 0 })
        let total = try #require(timing["total"] as? Double)
        #expect(abs(seconds.reduce(0, +) - total) < 1e-6)
        #expect(total <= outcome.seconds, "the phases fit inside the process's own time")

        let text = try await run([server.url(), "-e", "1", "--engine", engine, "--timing"])
        let line = try #require(text.standardError.split(separator: "\n").first { $0.hasPrefix("timing: ") })
        #expect(line.contains("session ") && line.contains("; total "), "\(line)")
    }

    @Test func badInputExitsTwo() async throws {
        let invalid = try await PageScriptBinary.outcome(of: ["run", "notascheme://x", "-e", "1"])
        #expect(invalid.status == 2)
        #expect(invalid.standardError.contains("notascheme"))
        let missingFile = try await PageScriptBinary.outcome(of: ["run", server.url(), "-f", "/nonexistent/script.js"])
        #expect(missingFile.status == 2)
        #expect(missingFile.standardError.contains("no such file"))
        // Code may follow a script (it inspects what the script did); two scripts cannot be given.
        let twoScripts = try await PageScriptBinary.outcome(of: ["run", server.url(), "--script", "mine", "--example", "word-count"])
        #expect(twoScripts.status == 2)
        #expect(twoScripts.standardError.contains("give one script"))
        let emptyLibrary = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: emptyLibrary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: emptyLibrary) }
        let noScript = try await PageScriptBinary.outcome(of: ["run", server.url(), "--library", emptyLibrary, "--engine", "chromium"])
        #expect(noScript.status == 0)
        #expect(noScript.standardError.contains("no library script runs automatically"))
    }
}

func JSONString(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value > 0x7E {
            output += String(format: "\\u%04x", scalar.value)
        } else if scalar == "\"" || scalar == "\\" {
            output += "\\" + String(scalar)
        } else {
            output.unicodeScalars.append(scalar)
        }
    }
    return output + "\""
}

func freePortForTest() async throws -> UInt16 {
    let server = try LoopbackServer(pages: [:])
    let port = server.port
    server.stop()
    return port
}
