import XCTest
@testable import ResonanceLab

final class SeededRandomTests: XCTestCase {
    func testSplitMix64ReferenceStream() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var r = SeededRandom(seed: 0)
        XCTAssertEqual(r.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(r.next(), 0x6E78_9E6A_A1B9_65F4)
    }

    func testDjb2AndMoments() {
        // djb2("a") = 5381·33 + 97 = 177670.
        XCTAssertEqual(SeededRandom.djb2("a"), 177_670)
        var r = SeededRandom(seed: 42)
        let x = (0..<20000).map { _ in r.normal() }
        XCTAssertEqual(Stats.mean(x), 0, accuracy: 0.03)
        XCTAssertEqual(Stats.sd(x), 1, accuracy: 0.03)
    }
}
