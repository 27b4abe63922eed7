import XCTest
@testable import ResonanceLab

final class DailyEngineConstantsTests: XCTestCase {
    func testDailyEnginesAreRegisteredWithTheSpecificationDefaults() {
        XCTAssertTrue(Set(ConstantsRegistry.specs.map(\.name)).isSuperset(of: ["stress", "state", "readiness", "trend", "zones"]))
        XCTAssertEqual(StressConstants.defaults.weightRHR, 0.5)
        XCTAssertEqual(ReadinessConstants.defaults.sleepSigmaHours, 1.5)
        XCTAssertEqual(TrendConstants.defaults.rhrSlopeThreshold, 0.3)
        XCTAssertEqual(ZoneConstants.defaults.maxHRIntercept, 208)
        XCTAssertEqual(StateConstants.defaults.maxHRIntercept, 220)
        let p = ConstantsRegistry.defaults.provenance
        guard case let .object(fields) = p else { return XCTFail("provenance is not an object") }
        XCTAssertEqual(fields["constants_digest"], .string(ConstantsRegistry.defaults.digest))
        XCTAssertEqual(fields["constants_version"], .string(ConstantsRegistry.defaults.version))
    }

    func testInvalidDailyEngineConstantsAreClearErrors() throws {
        let dir = try makeTempDir()
        let cases: [(String, String)] = [
            (#"{"engines":{"stress":{"constants":{"weight_rhr":0.6}}}}"#, "weight_rhr + weight_hrv + weight_cv sum to"),
            (#"{"engines":{"stress":{"constants":{"weight_rhr_without_cv":0.5}}}}"#, "weight_rhr_without_cv + weight_hrv_without_cv sum to 0.9"),
            (#"{"engines":{"readiness":{"constants":{"weight_sleep":-0.25}}}}"#, "outside 0.0…1.0"),
            (#"{"engines":{"readiness":{"constants":{"weight_sleep":0.3,"weight_recovery":0.3}}}}"#, "sum to 1.1"),
            (#"{"engines":{"trend":{"constants":{"mad_scale":0}}}}"#, "'mad_scale' = 0.0 is outside"),
            (#"{"engines":{"zones":{"constants":{"zone6_from":0.95}}}}"#, "unknown constant 'zone6_from'"),
            (#"{"engines":{"breathing":{}}}"#, "unknown engine 'breathing'"),
        ]
        for (i, (text, expected)) in cases.enumerated() {
            let path = try writeFixture(text, to: "\(dir)/c\(i).json")
            XCTAssertThrowsError(try ConstantsRegistry(contentsOf: path)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text) → \(error)")
            }
        }
        // A valid re-weighting loads and changes the typed view and the digest.
        let path = try writeFixture(#"{"engines":{"readiness":{"version":"1.1.0","constants":{"weight_sleep":0.35,"weight_recovery":0.15}}}}"#,
                                    to: "\(dir)/ok.json")
        let r = try ConstantsRegistry(contentsOf: path)
        XCTAssertEqual(ReadinessConstants(registry: r).weightSleep, 0.35)
        XCTAssertNotEqual(r.digest, ConstantsRegistry.defaults.digest)
    }
}
