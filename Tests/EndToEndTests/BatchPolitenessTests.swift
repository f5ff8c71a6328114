import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript batch --per-host` and `--delay-per-host`, end to end: the built binary, Chromium
/// (the turns are the scheduler's, the same for every engine) and a loopback site that is two
/// hosts (`127.0.0.1` and `localhost`). The records' own `startedAt` and `durationMs` show when
/// each page was open.
@Suite(.serialized)
struct BatchPolitenessTests {
    /// When each record's page was open, in seconds since 1970, by the host it opened.
    static func openTimes(_ records: [[String: Any]]) throws -> [String: [(start: Double, end: Double)]] {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var byHost: [String: [(start: Double, end: Double)]] = [:]
        for record in records {
            let started = try #require(format.date(from: record["startedAt"] as? String ?? ""), "\(record)")
            let duration = try #require(record["durationMs"] as? Int, "\(record)")
            let host = try #require(URLComponents(string: record["requested"] as? String ?? "")?.host, "\(record)")
            let start = started.timeIntervalSince1970
            byHost[host, default: []].append((start, start + Double(duration) / 1000))
        }
        return byHost.mapValues { $0.sorted { $0.start < $1.start } }
    }

    /// With `--per-host 1`, a host's pages are open one after another (each starts once the one
    /// before has ended), and a page of another host, further down the list, does not wait for
    /// them: it goes first.
    @Test func perHostOpensOneHostsPagesOneAtATimeAndLetsOthersGoFirst() throws {
        let site = try BatchCommandTests.site()
        defer { site.stop() }
        let folder = try BatchCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = try BatchCommandTests.writeList(
            [site.url("/slow/1"), site.url("/slow/2"), site.url("/slow/3"), site.url("/slow/4", host: "localhost")], in: folder)
        let batch = try BatchCommandTests.RunningBatch(
            [list, "-e", "document.title", "--engine", "chromium", "--jobs", "2", "--per-host", "1", "--ordered"], in: folder)
        #expect(batch.wait() == 0, "\(batch.standardError)")
        let records = try BatchCommandTests.records(batch.standardOutput)
        #expect(records.map { $0["status"] as? String } == Array(repeating: "ok", count: 4), "\(records)")
        let open = try Self.openTimes(records)
        let first = try #require(open["127.0.0.1"])
        #expect(first.count == 3)
        // A record's duration is taken a moment after its host's turn moved on: a little slack.
        for (earlier, later) in zip(first, first.dropFirst()) {
            #expect(later.start >= earlier.end - 0.3, "\(first)")
        }
        let other = try #require(open["localhost"]?.first)
        #expect(other.start < first[2].start, "\(open)")
    }

    /// With `--delay-per-host`, the pages of one host start that far apart, with sessions free.
    @Test func delayPerHostSpacesTheStartsOfOneHostsPages() throws {
        let site = try BatchCommandTests.site()
        defer { site.stop() }
        let folder = try BatchCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = try BatchCommandTests.writeList((1...3).map { site.url("/fast/\($0)") }, in: folder)
        let batch = try BatchCommandTests.RunningBatch(
            [list, "-e", "document.title", "--engine", "chromium", "--jobs", "3", "--delay-per-host", "1"], in: folder)
        #expect(batch.wait() == 0, "\(batch.standardError)")
        let records = try BatchCommandTests.records(batch.standardOutput)
        #expect(records.count == 3 && records.allSatisfy { $0["status"] as? String == "ok" }, "\(records)")
        let starts = try #require(try Self.openTimes(records)["127.0.0.1"]).map(\.start)
        for (earlier, later) in zip(starts, starts.dropFirst()) {
            // A host's turn is taken a moment before the record's stamp, which may come later for
            // one page than for the next: a little slack.
            #expect(later - earlier >= 0.9, "\(starts)")
        }
    }

    /// Numbers out of range are refused before anything starts, naming the option.
    @Test func badPolitenessNumbersAreRefused() throws {
        for (arguments, named) in [(["--per-host", "-1"], "--per-host"), (["--per-host", "257"], "--per-host"),
                                   (["--delay-per-host", "-2"], "--delay-per-host"), (["--delay-per-host", "nan"], "--delay-per-host")] {
            let refused = try PageScriptBinary.run(["batch", "-e", "1"] + arguments, input: "http://127.0.0.1:9/\n")
            #expect(refused.status == 2, "\(arguments): \(refused.standardError)")
            #expect(refused.standardError.contains(named), "\(refused.standardError)")
        }
    }
}
