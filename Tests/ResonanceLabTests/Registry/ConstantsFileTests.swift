import Foundation
import XCTest
@testable import ResonanceLab

/// A constants file is read strictly: a misspelt key is an error, not the defaults.
final class ConstantsFileTests: XCTestCase {
    private func load(_ json: String) throws -> ConstantsRegistry {
        try ConstantsRegistry(contentsOf: try writeFixture(json, to: try makeTempDir() + "/c.json"))
    }

    private func assertError(_ json: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try load(json), file: file, line: line) { error in
            XCTAssertTrue("\(error)".hasSuffix(message), "\(error)", file: file, line: line)
        }
    }

    func testUnknownKeysAreRejectedAtEveryLevel() throws {
        assertError(#"{"engines":{"readiness":{"constnats":{"ready_from":50}}}}"#,
                    "c.json: engine 'readiness': unknown key 'constnats' (known: version, constants)")
        assertError(#"{"engines":{},"engine":{"readiness":{}}}"#, "c.json: the file: unknown key 'engine' (known: engines, constants_version, constants_digest, tuning, without_formula)")
        assertError(#"{"engines":{"readyness":{}}}"#, "c.json: unknown engine 'readyness' (known: hr, rr, hrv, sessions, impact, "
                    + "song_effect, mixed_model, daily_inputs, stress, state, ranking, readiness, trend, zones, coherence, pacer, morning_recovery, coaching, bio_age, ecg_beats, ppg_beats, beat_quality, ope, dj_learning)")
        assertError(#"{"engines":{"readiness":{"constants":{"ready_from":{"valeu":50}}}}}"#,
                    "c.json: engine 'readiness': constant 'ready_from': unknown key 'valeu' (known: value, unit, min, max, source)")
        assertError(#"{"engines":{"readiness":{"constants":{"redy_from":50}}}}"#, "c.json: engine 'readiness': unknown constant 'redy_from'")
        assertError(#"{"engines":{"readiness":{"constants":[50]}}}"#, "c.json: engine 'readiness': \"constants\" must be an object")
        // What `constants show` prints loads back as it is.
        let shown = ConstantsRegistry.defaults.json().render()
        XCTAssertEqual(try load(shown), ConstantsRegistry.defaults)
        // With the provenance the command line prints beside the engines.
        XCTAssertEqual(try load(#"{"constants_digest":"0","constants_version":"x","engines":{}}"#), ConstantsRegistry.defaults)
        XCTAssertEqual(try load(#"{"engines":{"readiness":{"constants":{"ready_from":{"value":50,"unit":"score"}}}}}"#).readiness.readyFrom, 50)
    }

    func testMalformedJSONNamesLineAndColumn() {
        assertError("{\"engines\": {\n  \"readiness\": {,\n}}", "c.json:2:17: not valid JSON: Invalid value around character 30.")
        assertError("{\"engines\": {}", "c.json:1:15: not valid JSON: Unexpected end of file during JSON parse.")
    }

    /// Bands whose ends cross leave nothing between them: coherence was 0 everywhere.
    func testOrderRulesCoverEveryPairOfBounds() {
        let crossed: [(String, [String: Double])] = [
            ("coherence", ["coach_band_low_hz": 0.2]), ("coherence", ["heartmath_peak_low_hz": 0.3]),
            ("coherence", ["heartmath_total_low_hz": 0.05]), ("coherence", ["heartmath_peak_high_hz": 0.45]),
            ("rr", ["rr_min_ms": 1000, "rr_max_ms": 1000]), ("readiness", ["recovery_zero_bpm": 40]),
            ("stress", ["cv_stable": 0.3]), ("zones", ["zone2_from": 0.75]), ("trend", ["slope_min_days": 8]),
        ]
        for (engine, values) in crossed {
            XCTAssertThrowsError(try ConstantsRegistry.defaults.replacing(engine, with: values), "\(engine) \(values)") { error in
                XCTAssertTrue("\(error)".contains("must hold"), "\(error)")
            }
        }
        // Every constant named …low…/…min… has its …high…/…max… partner in some rule.
        for spec in ConstantsRegistry.specs {
            for c in spec.constants {
                for (low, high) in [("_low_", "_high_"), ("_min_", "_max_")] where c.name.contains(low) {
                    let partner = c.name.replacingOccurrences(of: low, with: high)
                    guard spec.constant(partner) != nil else { continue }
                    XCTAssertTrue(spec.orderRules.contains { rule in
                        guard let i = rule.names.firstIndex(of: c.name), let j = rule.names.firstIndex(of: partner) else { return false }
                        return i < j
                    }, "\(spec.name): \(c.name) < \(partner) has no rule")
                }
            }
        }
    }
}
