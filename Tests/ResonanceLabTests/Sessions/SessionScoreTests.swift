import XCTest
@testable import ResonanceLab

final class SessionScoreTests: XCTestCase {
    func testScoreWorkedByHand() {
        let c = SessionConstants.defaults
        // 0.25·(1 − 0.25) + 0.30·clamp(0.5 + 4/20) + 0.25·0.8 + 0.20·0.75
        //   = 0.1875 + 0.30·0.7 + 0.2 + 0.15 = 0.1875 + 0.21 + 0.2 + 0.15 = 0.7475
        XCTAssertEqual(SessionScore.score(skipRate: 0.25, hrvDeltaMs: 4, avgListen: 0.8, sleepScore: 0.75, constants: c),
                       0.7475, accuracy: 1e-12)
        // Unknown sleep → 0.5; ΔHRV +30 ms clamps the HRV term to 1:
        //   0.25·1 + 0.30·1 + 0.25·1 + 0.20·0.5 = 0.9
        XCTAssertEqual(SessionScore.score(skipRate: 0, hrvDeltaMs: 30, avgListen: 1, sleepScore: nil, constants: c),
                       0.9, accuracy: 1e-12)
        // ΔHRV −15 ms clamps to 0, unknown ΔHRV counts as 0.5:
        //   0.25·0.5 + 0 + 0.25·0.5 + 0.20·0.5 = 0.35;  with unknown ΔHRV +0.15 = 0.5
        XCTAssertEqual(SessionScore.score(skipRate: 0.5, hrvDeltaMs: -15, avgListen: 0.5, sleepScore: nil, constants: c), 0.35, accuracy: 1e-12)
        XCTAssertEqual(SessionScore.score(skipRate: 0.5, hrvDeltaMs: nil, avgListen: 0.5, sleepScore: nil, constants: c), 0.5, accuracy: 1e-12)
    }
}
