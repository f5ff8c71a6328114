import Foundation
import SystemSupport
import Testing

struct SharedHelperTests {
    @Test func onlyTheFirstClaimOfAOnceFlagWins() async {
        let flag = OnceFlag()
        let winners = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 {
                group.addTask { flag.claim() }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
        #expect(!flag.claim())
    }

    @Test func theSeededGeneratorIsSplitMix64() {
        // SplitMix64's reference output for seed 0.
        var random = SeededRandomGenerator(seed: 0)
        #expect([random.next(), random.next(), random.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test func theSameSeedGivesTheSameNumbers() {
        var first = SeededRandomGenerator(seed: 20_240_611)
        var second = SeededRandomGenerator(seed: 20_240_611)
        let drawn = (0..<100).map { _ in Int.random(in: 0..<1000, using: &first) }
        #expect(drawn == (0..<100).map { _ in Int.random(in: 0..<1000, using: &second) })
        #expect(Set(drawn).count > 50)
    }
}
