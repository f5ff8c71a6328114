import Foundation
import SystemSupport
import TestSupport
import Testing

/// A page that replaces `Array.prototype.map`: Chromium runs scripts on it as on any page; WebKit's
/// driver uses the page's own `map` for every call, so there PageScript says why nothing can run
/// and what to use instead, rather than an opaque driver error.
struct HijackedBuiltInsTests {
    static let page = "<!doctype html><title>Hijack</title><script>Array.prototype.map = function () { return 'HIJACKED'; };</script>"

    @Test func chromiumRunsOnAPageThatReplacedArrayMap() async throws {
        let server = try LoopbackServer(pages: ["/": Self.page])
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "[1, 2, 3].length", "--engine", "chromium"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "3\n")
    }

    @Test func webKitSaysWhyItCannotRunThereAndWhatToUse() async throws {
        let server = try LoopbackServer(pages: ["/": Self.page])
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "[1, 2, 3].length", "--engine", "webkit"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("Array.prototype.map"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("use --engine chromium"), "\(outcome.standardError)")
    }

    /// A page that replaces every method of the built-ins the runtime could touch (`Array`,
    /// `Object`, `JSON`, `Promise`, `Function.prototype`, `String`, `Number.prototype`,
    /// `Reflect`, `Math`, and their prototypes) with one that returns a string. On Chromium a
    /// userscript runs with its whole GM API (values, a request and its callback, a promise,
    /// console lines from the callback), and so do the library's scripts; on WebKit, whose driver
    /// needs the page's own built-ins, PageScript says why nothing can run and what to use instead.
    static let everythingReplaced = """
        <!doctype html><title>Hijack all</title><script>
        (function () {
          var targets = [Array, Array.prototype, Object, Object.prototype, JSON, Promise, Promise.prototype, Function.prototype,
                         String, String.prototype, Number.prototype, Reflect, Math];
          var skipped = ['constructor', 'prototype', 'length', 'name', 'caller', 'arguments'];
          var replaced = [];
          for (var t = 0; t < targets.length; t++) {
            var names = Object.getOwnPropertyNames(targets[t]);
            for (var n = 0; n < names.length; n++) {
              var d = Object.getOwnPropertyDescriptor(targets[t], names[n]);
              if (skipped.indexOf(names[n]) < 0 && d && typeof d.value === 'function' && d.configurable) { replaced.push([targets[t], names[n]]); }
            }
          }
          var define = Object.defineProperty, count = replaced.length;
          for (var i = 0; i < count; i++) {
            define(replaced[i][0], replaced[i][1], { value: function () { return 'HIJACKED'; }, writable: true, configurable: true });
          }
          window.replacedCount = count;
        })();
        </script>
        """

    static let userscript = """
        // ==UserScript==
        // @name Hijacked
        // @match http://127.0.0.1/*
        // @grant GM_setValue
        // @grant GM_getValue
        // @grant GM_xmlhttpRequest
        // ==/UserScript==
        console.log('start', [1, 2, 3].length);
        GM_setValue('kept', { list: [1, 2] });
        // The script's own code meets the page's built-ins, as in any manager's page world: `await`
        // does not look `then` up, `.then(...)` would.
        const status = await new Promise(function (resolve) {
          GM_xmlhttpRequest({ method: 'GET', url: '/', onload: function (response) { console.log('status', response.status); resolve(response.status); } });
        });
        ({ kept: GM_getValue('kept'), status: status, replaced: window.replacedCount > 150 })
        """

    @Test func chromiumRunsUserscriptsOnAPageThatReplacedEveryBuiltIn() async throws {
        let server = try LoopbackServer(pages: ["/": Self.everythingReplaced])
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-hijack-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let expected = #"{"kept":{"list":[1,2]},"status":200,"replaced":true}"# + "\n"
        let single = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", Self.userscript, "--engine", "chromium", "--library", folder])
        #expect(single.status == 0, "\(single.standardError)")
        #expect(single.standardOutput == expected, "\(single.standardOutput) \(single.standardError)")
        #expect(single.standardError.contains("console.log: start 3") && single.standardError.contains("console.log: status 200"), "\(single.standardError)")
        // The library's scripts, matched and run the same way.
        #expect(try await PageScriptBinary.outcome(of: ["scripts", "new", "-e", Self.userscript, "--library", folder]).status == 0)
        let library = try await PageScriptBinary.outcome(of: ["run", server.url(), "--engine", "chromium", "--library", folder])
        #expect(library.status == 0, "\(library.standardError)")
        #expect(library.standardOutput == expected, "\(library.standardOutput) \(library.standardError)")
    }

    @Test func webKitSaysWhyItCannotRunWhereEveryBuiltInWasReplaced() async throws {
        let server = try LoopbackServer(pages: ["/": Self.everythingReplaced])
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "1 + 1", "--engine", "webkit"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("replaced one of them") && outcome.standardError.contains("use --engine chromium"), "\(outcome.standardError)")
    }
}
