import XCTest
@testable import ResonanceLab

final class MusicResponseTests: XCTestCase {
    func testExpressionFactorsByHand() {
        // κHR(225) = e^{−12.5/45} − e^{−207.5/45} = 0.757465 − 0.009941 = 0.747524.
        XCTAssertEqual(MusicResponse.expressionHR(seconds: 225), 0.747524, accuracy: 1e-6)
        // κRMSSD(225) = (45/60)(1 − e^{−60/45})(1 − e^{−165/45}) = 0.75 × 0.736403 × 0.974448 = 0.538184.
        XCTAssertEqual(MusicResponse.expressionRMSSD(seconds: 225), 0.538184, accuracy: 1e-6)
        // Too short for the two windows: nothing expressed.
        XCTAssertEqual(MusicResponse.expressionHR(seconds: 29), 0)
        XCTAssertEqual(MusicResponse.expressionRMSSD(seconds: 59), 0)
    }

    /// Noise-free, the windowed measurement of a full play returns the effect exactly
    /// for HR: 5-s samples report the response 2.5 s earlier (their window's centre)
    /// and the median of a monotone rise is the middle sample.
    func testFullPlayMeasuresItsEffect() {
        let r = MusicResponse(startS: 0, endS: 225, durationS: 225, deltaHRBpm: -4, deltaRMSSDMs: 6)
        let first = Stats.median(stride(from: 0.0, through: 30, by: 5).map { r.value(at: $0 - 2.5).hrBpm })
        let last = Stats.median(stride(from: 195.0, through: 225, by: 5).map { r.value(at: $0 - 2.5).hrBpm })
        XCTAssertEqual(last - first, -4, accuracy: 1e-9)
        // RMSSD: mean over the windows (beats once a second) — equal to 1 % (the mean of
        // samples approximates the integral mean).
        let firstR = Stats.mean(stride(from: 0.5, to: 60, by: 1).map { r.value(at: $0).rmssdMs })
        let lastR = Stats.mean(stride(from: 165.5, to: 225, by: 1).map { r.value(at: $0).rmssdMs })
        XCTAssertEqual(lastR - firstR, 6, accuracy: 0.06)
        // Release: 6 s after the end the response is e^{−1} of its end value.
        XCTAssertEqual(r.value(at: 231).hrBpm, r.value(at: 225).hrBpm * exp(-1), accuracy: 1e-9)
        XCTAssertEqual(r.value(at: -1).hrBpm, 0)
    }
}
