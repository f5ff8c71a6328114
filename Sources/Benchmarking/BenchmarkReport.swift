import Foundation

/// The benchmark's rows as one JSON object, for machines: the machine measured, the date, and
/// every row with its values in base units (seconds or bytes).
///
/// ```json
/// {"machine": {"cpu": "AMD EPYC 7B13", "cores": 2, "system": "Debian GNU/Linux 12 (bookworm)"},
///  "date": "2026-05-04T10:00:00Z",
///  "rows": [{"name": "webkit: warm run vs bare Execute Script", "value": 0.0019, "baseline": 0.0012,
///            "ratio": 1.58, "unit": "seconds", "aim": 1.2, "meetsAim": false, "note": null}]}
/// ```
///
/// A value that could not be measured (no baseline, a peer that was unavailable) is `null`.
public struct BenchmarkReport: Encodable, Sendable {
    /// What the benchmark ran on.
    public struct Machine: Encodable, Sendable {
        /// The processor's model name (`/proc/cpuinfo`), or `unknown`.
        public var cpu: String
        /// The processors this process may use.
        public var cores: Int
        /// The operating system's name (`/etc/os-release`), or the kernel's.
        public var system: String

        /// The machine this process runs on.
        public static var current: Machine {
            let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
            let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
            return Machine(
                cpu: value(of: "model name", in: cpuinfo, separator: ":") ?? "unknown",
                cores: ProcessInfo.processInfo.activeProcessorCount,
                system: value(of: "PRETTY_NAME", in: release, separator: "=") ?? ProcessInfo.processInfo.operatingSystemVersionString)
        }

        private static func value(of key: String, in text: String, separator: Character) -> String? {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: separator, maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key else { continue }
                return parts[1].trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\"")))
            }
            return nil
        }
    }

    /// One row, in base units.
    public struct Row: Encodable, Sendable {
        /// What the row compares.
        public var name: String
        /// PageScript's median.
        public var value: Double?
        /// The baseline's median; `nil` when it was not measured.
        public var baseline: Double?
        /// value / baseline.
        public var ratio: Double?
        /// `seconds` or `bytes`.
        public var unit: String
        /// The highest ratio that meets the row's aim.
        public var aim: Double?
        /// Whether the aim is met.
        public var meetsAim: Bool?
        /// Why a baseline is missing, or another remark.
        public var note: String?

        private enum CodingKeys: String, CodingKey {
            case name, value, baseline, ratio, unit, aim, meetsAim, note
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(value, forKey: .value)
            try container.encode(baseline, forKey: .baseline)
            try container.encode(ratio, forKey: .ratio)
            try container.encode(unit, forKey: .unit)
            try container.encode(aim, forKey: .aim)
            try container.encode(meetsAim, forKey: .meetsAim)
            try container.encode(note, forKey: .note)
        }
    }

    /// The machine.
    public var machine: Machine
    /// When the rows were measured, ISO 8601 in UTC.
    public var date: String
    /// The rows, in the table's order.
    public var rows: [Row]

    /// The report of `rows`, measured on `machine` at `date`.
    public init(rows: [ComparisonRow], machine: Machine = .current, date: Date = Date()) {
        self.machine = machine
        self.date = ISO8601DateFormatter().string(from: date)
        self.rows = rows.map { row in
            Row(name: row.title, value: Self.finite(row.subject.median), baseline: row.baseline.flatMap { Self.finite($0.median) },
                ratio: row.ratio.flatMap(Self.finite), unit: row.subject.unit == .bytes ? "bytes" : "seconds",
                aim: row.aim, meetsAim: row.meetsAim, note: row.note)
        }
    }

    /// The report as JSON text, keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Every value is finite or nil, and the strings are plain: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static func finite(_ value: Double) -> Double? {
        value.isFinite ? value : nil
    }
}
