import XCTest
@testable import ResonanceLab

final class LongTermTests: XCTestCase {
    func testSDANNAndSDNNIndexWorkedByHand() {
        // Three 5-minute segments of constant NN 800, 1000 and 1200 ms (374, 300, 250 beats,
        // closing at 299.2 s, 599.2 s, 899.2 s): segment means 800, 1000, 1200 → SDANN = 200;
        // each segment's SDNN is 0 → SDNNI = 0.
        let nn = [Double](repeating: 800, count: 374) + [Double](repeating: 1000, count: 300)
            + [Double](repeating: 1200, count: 250)
        var t = 0.0
        let times = nn.map { v -> Int64 in t += v; return Int64(t) }
        let series = NNSeries.clean(timestampsMs: times, rrMs: nn, method: .none)
        let lt = HRVLongTerm(series, range: 0..<series.count)
        XCTAssertEqual(lt.sdann, 200, accuracy: 1e-9)
        XCTAssertEqual(lt.sdnni, 0, accuracy: 1e-9)
    }
}
