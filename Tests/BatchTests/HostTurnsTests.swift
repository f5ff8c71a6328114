@testable import Batch
import Testing

/// `HostTurns`: the per-host limit and the delay between starts, on a clock the test gives.
struct HostTurnsTests {
    @Test func aHostAtItsLimitWaitsUntilOneOfItsPagesEnds() {
        var turns = HostTurns(limit: 2, delay: 0)
        turns.start("a.example", at: 0)
        #expect(turns.wait(before: "a.example", at: 0) == 0)
        turns.start("a.example", at: 0)
        #expect(turns.wait(before: "a.example", at: 5) == .infinity)
        #expect(turns.wait(before: "b.example", at: 5) == 0)
        turns.end("a.example")
        #expect(turns.wait(before: "a.example", at: 5) == 0)
    }

    @Test func theDelayCountsFromTheLastStart() {
        var turns = HostTurns(limit: nil, delay: 1.5)
        turns.start("a.example", at: 10)
        #expect(turns.wait(before: "a.example", at: 10.5) == 1)
        #expect(turns.wait(before: "b.example", at: 10.5) == 0)
        turns.end("a.example")
        #expect(turns.wait(before: "a.example", at: 11.5) == 0)
    }

    @Test func hostsAreNamesLowercasedAndAnAddressWithoutOneIsNeverHeld() {
        #expect(HostTurns.host(of: "https://Example.COM:8443/a?b") == "example.com")
        #expect(HostTurns.host(of: "http://127.0.0.1:80/") == "127.0.0.1")
        #expect(HostTurns.host(of: "file:///tmp/a.html") == nil)
        var turns = HostTurns(limit: 1, delay: 60)
        turns.start(nil, at: 0)
        #expect(turns.wait(before: nil, at: 0) == 0)
    }

    @Test func withoutLimitOrDelayNothingIsCounted() {
        var turns = HostTurns(limit: nil, delay: 0)
        #expect(!turns.holdsBack)
        for _ in 0..<3 { turns.start("a.example", at: 0) }
        #expect(turns.wait(before: "a.example", at: 0) == 0)
    }
}
