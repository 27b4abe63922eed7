import XCTest
@testable import ResonanceLab

final class ConstantsRegistryTests: XCTestCase {
    func testDefaultsAreTheProductSpecification() {
        let s = SessionConstants.defaults
        XCTAssertEqual(s.gapMinutes, 30)
        XCTAssertEqual(s.gapMs, 1_800_000)
        XCTAssertEqual(ImpactConstants.defaults.calmHR, -0.3)
        XCTAssertEqual(SongEffectConstants.defaults.alphaLate, 0.2)
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

    /// Every constant of every spec is read into a stored property of its engine's
    /// typed constants, and every stored property comes from the spec.
    func testEveryConstantOfEverySpecIsAStoredPropertyOfItsEngine() throws {
        for type in ConstantsRegistry.engineTypes {
            let spec = type.spec
            let reader = ConstantReader(engine: spec.name, values: Self.defaults(spec), origin: "test")
            let typed = try type.init(reader)
            XCTAssertEqual(reader.names, Set(spec.constants.map(\.name)), "\(spec.name): spec names not read")
            // A Double each, or an array of them (the stress engine's 24 hourly multipliers).
            let stored = Mirror(reflecting: typed).children.reduce(0) { $0 + ($1.value is Double ? 1 : ($1.value as? [Double])?.count ?? 0) }
            XCTAssertEqual(stored, spec.constants.count, "\(spec.name): stored properties")
        }
    }

    func testAConstantMissingFromTheSpecIsAnErrorAtLoad() throws {
        for type in ConstantsRegistry.engineTypes {
            let spec = type.spec
            let dropped = spec.constants[spec.constants.count / 2].name
            var values = Self.defaults(spec)
            values[dropped] = nil
            XCTAssertThrowsError(try type.init(ConstantReader(engine: spec.name, values: values, origin: "test"))) { error in
                XCTAssertEqual("\(error)", "test: engine '\(spec.name)' has no constant '\(dropped)'")
            }
        }
        XCTAssertNoThrow(try ConstantsRegistry.builtIn())
    }

    func testReplacingConstantsInMemoryIsValidatedAsAFileIs() throws {
        let s = try StressConstants(replacing: ["weight_rhr": 0.6, "weight_hrv": 0.2])
        XCTAssertEqual(s.weightRHR, 0.6)
        XCTAssertEqual(s.weightHRV, 0.2)
        XCTAssertEqual(s.weightCV, 0.2)
        XCTAssertEqual(s.sigmoidSlope, StressConstants.defaults.sigmoidSlope)
        let r = try ConstantsRegistry.defaults.replacing("stress", with: ["sigmoid_slope": 0.1], version: "1.1.0")
        XCTAssertEqual(r.stress.sigmoidSlope, 0.1)
        XCTAssertEqual(r.values(of: "stress")["sigmoid_slope"], 0.1)
        XCTAssertTrue(r.version.contains("stress@1.1.0"))
        XCTAssertNotEqual(r.digest, ConstantsRegistry.defaults.digest)
        XCTAssertEqual(r.readiness.weightSleep, ReadinessConstants.defaults.weightSleep)
        let cases: [(() throws -> Any, String)] = [
            ({ try StressConstants(replacing: ["weight_rhr": 0.6]) }, "weights weight_rhr + weight_hrv + weight_cv sum to 1.09"),
            ({ try StressConstants(replacing: ["weight_rhr_typo": 0.6]) }, "unknown constant 'weight_rhr_typo'"),
            ({ try StressConstants(replacing: ["sigmoid_slope": .nan]) }, "'sigmoid_slope' must be a number"),
            ({ try StressConstants(replacing: ["relaxed_below": 70]) }, "relaxed_below ≤ elevated_from must hold"),
            ({ try ConstantsRegistry.defaults.replacing("stres", with: [:]) }, "unknown engine 'stres'"),
            ({ try ConstantsRegistry.defaults.replacing("stress", with: [:], version: "1.1") }, "semantic version"),
        ]
        for (make, expected) in cases {
            XCTAssertThrowsError(try make()) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    private static func defaults(_ spec: EngineSpec) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: spec.constants.map { ($0.name, $0.value) })
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

    /// The product's constants that no formula uses are listed, no engine declares them,
    /// and a constants file carrying the list (as `constants show` prints it) loads.
    func testConstantsWithoutAFormulaAreListedAndSetNothing() throws {
        XCTAssertEqual(ConstantsRegistry.withoutFormula.map(\.name), ["skip_penalty_weight", "hrv_response_weight"])
        XCTAssertEqual(ConstantsRegistry.withoutFormula.map(\.value), [0.5, 0.3])
        let declared = Set(ConstantsRegistry.specs.flatMap { $0.constants.map(\.name) })
        XCTAssertTrue(ConstantsRegistry.withoutFormula.allSatisfy { !declared.contains($0.name) })
        let text = ConstantsRegistry.defaults.json().render()
        XCTAssertTrue(text.contains("\"without_formula\""))
        let path = try writeFixture(text, to: try makeTempDir() + "/c.json")
        XCTAssertEqual(try ConstantsRegistry(contentsOf: path), ConstantsRegistry.defaults)
    }
}
