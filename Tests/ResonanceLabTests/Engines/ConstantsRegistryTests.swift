import XCTest
@testable import ResonanceLab
import ResonanceTestSupport

final class ConstantsRegistryTests: XCTestCase {
    func testDefaultsAreTheProductSpecification() {
        let s = SessionConstants.defaults
        XCTAssertEqual(s.values["gap_minutes"], 30)
        XCTAssertEqual(s.gapMs, 1_800_000)
        XCTAssertEqual(ImpactConstants.defaults.values["calm_hr"], -0.3)
        XCTAssertEqual(SongEffectConstants.defaults.values["alpha_late"], 0.2)
        for spec in ConstantsRegistry.specs {
            for c in spec.constants { XCTAssertTrue(c.range.contains(c.value), "\(spec.name).\(c.name)") }
            let names = Set(spec.constants.map(\.name))
            for rule in spec.orderRules {
                XCTAssertTrue(names.isSuperset(of: rule.names), "\(spec.name) \(rule.names)")
                let v = rule.names.compactMap { n in spec.constants.first { $0.name == n }?.value }
                XCTAssertTrue(zip(v, v.dropFirst()).allSatisfy { rule.strict ? $0 < $1 : $0 <= $1 }, "\(spec.name) \(rule.names)")
            }
            for group in spec.weightGroups {
                XCTAssertTrue(names.isSuperset(of: group), "\(spec.name) \(group)")
                let sum = group.map { name in spec.constants.first { $0.name == name }?.value ?? .nan }.reduce(0, +)
                XCTAssertEqual(sum, 1, accuracy: 1e-12, "\(spec.name) \(group)")
            }
        }
    }

    func testShownJSONLoadsBackToTheSameRegistryAndDigest() throws {
        let path = try makeTempDir() + "/c.json"
        try ConstantsRegistry.defaults.json().render().write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try ConstantsRegistry(contentsOf: path)
        XCTAssertEqual(loaded, .defaults)
        XCTAssertEqual(loaded.digest, ConstantsRegistry.defaults.digest)
    }

    func testOverrideChangesValueAndDigest() throws {
        let path = try writeFixture(#"{"engines":{"sessions":{"version":"1.1.0","constants":{"gap_minutes":45}}}}"#,
                                    to: try makeTempDir() + "/c.json")
        let r = try ConstantsRegistry(contentsOf: path)
        XCTAssertEqual(SessionConstants(registry: r).gapMs, 2_700_000)
        XCTAssertNotEqual(r.digest, ConstantsRegistry.defaults.digest)
        XCTAssertTrue(r.version.contains("sessions@1.1.0"))
    }

    func testInvalidFilesAreClearErrors() throws {
        let dir = try makeTempDir()
        let cases: [(String, String)] = [
            (#"{"engines":{"sesions":{}}}"#, "unknown engine 'sesions'"),
            (#"{"engines":{"sessions":{"constants":{"gap":1}}}}"#, "unknown constant 'gap'"),
            (#"{"engines":{"sessions":{"constants":{"gap_minutes":"30"}}}}"#, "must be a number"),
            (#"{"engines":{"sessions":{"constants":{"gap_minutes":true}}}}"#, "must be a number"),
            (#"{"engines":{"impact":{"constants":{"mood_calm":-0.1}}}}"#, "outside"),
            (#"{"engines":{"impact":{"constants":{"mood_calm":0.5}}}}"#, "sum to"),
            (#"{"engines":{"impact":{"version":"2"}}}"#, "semantic version"),
            // In range one by one, but morning would start after the commute.
            (#"{"engines":{"sessions":{"constants":{"morning_start_hour":8}}}}"#,
             "morning_start_hour ≤ commute_am_start_hour ≤ work_start_hour"),
            (#"{"engines":{"zones":{"constants":{"zone3_from":0.6}}}}"#, "zone2_from < zone3_from"),
            ("{not json", "not valid JSON"),
        ]
        for (i, (text, expected)) in cases.enumerated() {
            let path = try writeFixture(text, to: "\(dir)/c\(i).json")
            XCTAssertThrowsError(try ConstantsRegistry(contentsOf: path)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text) → \(error)")
                XCTAssertTrue("\(error)".hasPrefix(path))
            }
        }
    }
}
