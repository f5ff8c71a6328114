import Testing
@testable import UserScripts

struct ScriptVersionTests {
    /// Tampermonkey's documented list (documentation, `@version`), lowest first; versions on one
    /// line are equal. One entry is left out: the list puts `1.1.1.1.2` before `1.1.1.1`, which
    /// no order can do while it also has `1.1 == 1.1.0 < 1.1.1.1.1` (see ``ScriptVersion``).
    static let documented: [[String]] = [
        ["Alpha-v1"], ["Alpha-v2"], ["Alpha-v10"], ["Beta"],
        ["0.5pre3"], ["0.5prelimiary"], ["0.6pre4"], ["0.6pre5"], ["0.7pre4"], ["0.7pre10"],
        ["1.-1"], ["1", "1.", "1.0", "1.0.0"],
        ["1.1a"], ["1.1aa"], ["1.1ab"], ["1.1b"], ["1.1c"], ["1.1.-1"], ["1.1", "1.1.0", "1.1.00"],
        ["1.1.1.1"], ["1.1.1.1.1"], ["1.1.1.1.2"],
        ["1.10.0-alpha"], ["1.10", "1.10.0"],
        ["1.11.0-0.3.7"], ["1.11.0-alpha"], ["1.11.0-alpha.1"], ["1.11.0-alpha+1"],
        ["1.12+1", "1.12+1.0"], ["1.12+1.1", "1.12+1.1.0"], ["1.12+2"], ["1.12+2.1"], ["1.12+3"], ["1.12+4"], ["1.12"],
        ["2.0"], ["16.4", "16.04"],
        ["2023-08-17.alpha"], ["2023-08-17"], ["2023-08-17_14-04", "2023-08-17_14-04.0"], ["2023-08-17+alpha"], ["2023-09-11_14-0"],
    ]

    @Test func theDocumentedListIsInOrder() {
        let flat = Self.documented.enumerated().flatMap { rank, group in group.map { (rank, $0) } }
        for (leftRank, left) in flat {
            for (rightRank, right) in flat {
                let order = ScriptVersion.compare(left, right)
                let expected = leftRank == rightRank ? 0 : (leftRank < rightRank ? -1 : 1)
                #expect(order == expected, "\(left) vs \(right): \(order), expected \(expected)")
            }
        }
    }

    @Test(arguments: [
        ("1.9", "1.10"), ("0.9.9", "1"), ("2.0.0-beta", "2.0.0"), ("1.0", "1.0.1"), ("99999999999999999999", "100000000000000000000"),
        ("1.2.3", "1.2.4"), ("2024.1.5", "2024.01.12"), ("1.0.0-rc1", "1.0.0-rc2"), ("v1", "v2"),
    ])
    func newerVersionsCompareHigher(older: String, newer: String) {
        #expect(ScriptVersion(older) < ScriptVersion(newer))
        #expect(ScriptVersion(newer) > ScriptVersion(older))
        #expect(ScriptVersion(older) != ScriptVersion(newer))
    }

    @Test func spacesAroundTheVersionDoNotCount() {
        #expect(ScriptVersion(" 1.2 ") == ScriptVersion("1.2"))
        #expect(ScriptVersion(" 1.2 ").description == "1.2")
    }
}
