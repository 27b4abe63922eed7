import XCTest
@testable import ResonanceLab

/// BioAge known answers worked by hand (docs/engines/heart-coach.md, BioAge): built-in norms, the
/// product's weights and years per unit.
final class BioAgeEngineTests: XCTestCase {
    let engine = BioAgeEngine()

    func day(_ d: Int = 100, vo2: Double? = nil, rhr: Double? = nil, sdnn: Double? = nil, sleep: Double? = nil,
             zone: Double? = nil, mass: Double? = nil) -> DailySnapshot {
        DailySnapshot(subject: "S", day: d, restingHRBpm: rhr, hrvSDNNMs: sdnn, vo2Max: vo2, zoneMinutes: zone, sleepHours: sleep,
                      bodyMassKg: mass)
    }

    /// Male, 45: norms VO2 47, RHR 71, SDNN 50. Offsets: VO2 (47 − 42)·0.8 = +4.0; RHR
    /// (66 − 71)·0.4 = −2.0; SDNN (50 − 60)·0.15 = −1.5; sleep 1 h below 7 → +1.5;
    /// activity (30 − 10)/10·0.05 = +0.1; BMI 81/1.8² = 25.0 → 3·0.6 = +1.8.
    /// Σ w·offset = 0.8 − 0.44 − 0.33 + 0.18 + 0.012 + 0.216 = 0.438 (weights sum to 1).
    func testAllSixInputs() throws {
        let r = try XCTUnwrap(engine.assess(day(vo2: 42, rhr: 66, sdnn: 60, sleep: 6, zone: 10, mass: 81), history: [],
                                            ageYears: 45, sex: "male", heightCm: 180))
        XCTAssertEqual(r.offsets.map(\.name), ["vo2max", "resting_hr", "hrv_sdnn", "sleep", "activity", "bmi"])
        let expected = [4.0, -2.0, -1.5, 1.5, 0.1, 1.8]
        for (o, e) in zip(r.offsets, expected) { XCTAssertEqual(o.years, e, accuracy: 1e-9, o.name) }
        XCTAssertEqual(r.bioAgeYears, 45.438, accuracy: 1e-9)
        XCTAssertEqual(r.differenceYears, 0.438, accuracy: 1e-9)
        XCTAssertEqual(r.category, .onTrack)
        XCTAssertFalse(r.heightAssumed)
    }

    /// Female, 30, VO2 and RHR only: VO2 norm halfway between 43 (25) and 40 (35) =
    /// 41.5 → (41.5 − 36.5)·0.8 = +4.0; RHR (79 − 74)·0.4 = +2.0; renormalised over
    /// 0.20 + 0.22: (0.8 + 0.44)/0.42 = 2.952381.
    func testMissingInputsRenormalise() throws {
        let r = try XCTUnwrap(engine.assess(day(vo2: 36.5, rhr: 79), history: [], ageYears: 30, sex: "female"))
        XCTAssertEqual(r.offsets.map(\.norm), [41.5, 74])
        XCTAssertEqual(r.differenceYears, 1.24 / 0.42, accuracy: 1e-9)
        XCTAssertEqual(r.category, .watchful)
    }

    /// Male, 25: VO2 70 against 54 would be −12.8 years, RHR 40 against 71 −12.4, SDNN
    /// 120 against 50 −10.5: each clamps to −8, so BioAge is 25 − 8 = 17.
    func testEachOffsetIsClampedToEightYears() throws {
        let r = try XCTUnwrap(engine.assess(day(vo2: 70, rhr: 40, sdnn: 120), history: [], ageYears: 25, sex: "male"))
        XCTAssertEqual(r.offsets.map(\.years), [-8, -8, -8])
        XCTAssertEqual(r.bioAgeYears, 17, accuracy: 1e-12)
        XCTAssertEqual(r.category, .excellent)
        let slow = try XCTUnwrap(engine.assess(day(rhr: 100), history: [], ageYears: 25, sex: "male"))
        XCTAssertEqual(slow.bioAgeYears, 33, accuracy: 1e-12, "(100 − 71)·0.4 = 11.6 clamps to +8")
    }

    /// Each edge belongs to the category farther from 0.
    func testCategoryBoundaries() {
        let cases: [(Double, BioAgeCategory)] = [
            (-9, .excellent), (-5, .excellent), (-4.999, .good), (-2, .good), (-1.999, .onTrack), (0, .onTrack),
            (1.999, .onTrack), (2, .watchful), (4.999, .watchful), (5, .needsWork), (9, .needsWork),
        ]
        for (d, c) in cases { XCTAssertEqual(engine.category(differenceYears: d), c, "\(d)") }
    }

    /// Sleep inside 7–9 h adds nothing; 10 h is 1 h outside → +1.5. Without a height the
    /// product's sex average, flagged: 70 kg female → 70/1.63² = 26.347 → +2.608.
    func testSleepBandAndAssumedHeight() throws {
        XCTAssertEqual(engine.assess(day(sleep: 8.5), history: [], ageYears: 40, sex: "male")?.differenceYears, 0)
        XCTAssertEqual(try XCTUnwrap(engine.assess(day(sleep: 10), history: [], ageYears: 40, sex: "male")).differenceYears, 1.5, accuracy: 1e-12)
        let r = try XCTUnwrap(engine.assess(day(mass: 70), history: [], ageYears: 40, sex: "female"))
        XCTAssertTrue(r.heightAssumed)
        XCTAssertEqual(r.offsets[0].value, 70 / (1.63 * 1.63), accuracy: 1e-9)
        XCTAssertEqual(r.differenceYears, (70 / (1.63 * 1.63) - 22) * 0.6, accuracy: 1e-9)
        XCTAssertEqual(engine.bmi(massKg: 69, heightCm: nil, sex: "").bmi, 69 / (1.69 * 1.69), accuracy: 1e-9, "no sex: mean height")
        // subjects.csv's weight stands in for a day without body mass.
        XCTAssertEqual(engine.assess(day(), history: [], ageYears: 40, sex: "male", heightCm: 200, weightKg: 88)?.differenceYears ?? .nan,
                       0, accuracy: 1e-12, "88/2² = 22, the optimum")
    }

    /// Activity is the mean zone minutes of the days with them among the 7 ending today.
    func testActivityIsTheWeeksMeanZoneMinutes() throws {
        let history = [day(95, zone: 60), day(96), day(99, zone: 0)]
        let r = try XCTUnwrap(engine.assess(day(100, zone: 30), history: history[...], ageYears: 40, sex: "male"))
        XCTAssertEqual(r.offsets.map(\.name), ["activity"])
        XCTAssertEqual(r.offsets[0].value, 30, "(60 + 0 + 30)/3")
        XCTAssertEqual(r.differenceYears, 0, accuracy: 1e-12)
        XCTAssertNil(engine.assess(day(100), history: [], ageYears: 40, sex: "male"), "no input")
        XCTAssertNil(engine.assess(day(100, rhr: 60), history: [], ageYears: nil, sex: "male"), "no age")
    }

    /// Norms: linear between listed ages, the nearest row outside, the mean of both
    /// sexes without one; a replacement table with a duplicate or an unknown metric is
    /// an error naming file, line and column.
    func testNormsTable() throws {
        let n = BioAgeNorms.builtIn
        XCTAssertEqual(n.expected("vo2max", age: 45, sex: "male"), 47)
        XCTAssertEqual(n.expected("vo2max", age: 50, sex: "male"), 44.5)
        XCTAssertEqual(n.expected("vo2max", age: 18, sex: "female"), 43)
        XCTAssertEqual(n.expected("vo2max", age: 90, sex: "female"), 27)
        XCTAssertEqual(n.expected("vo2max", age: 45, sex: ""), 42.5)
        XCTAssertEqual(n.expected("resting_hr", age: 60, sex: "other"), 72.5)
        XCTAssertEqual(n.expected("hrv_sdnn", age: 33, sex: "female"), 50)

        let dir = try makeTempDir()
        let good = dir + "/norms.csv"
        try "metric,sex,age_years,value,source\nvo2max,male,20,50,x\nvo2max,male,60,30,x\n".write(toFile: good, atomically: true, encoding: .utf8)
        let custom = try BioAgeNorms.read(path: good)
        XCTAssertEqual(custom.expected("vo2max", age: 40, sex: "male"), 40)
        XCTAssertNil(custom.expected("resting_hr", age: 40, sex: "male"), "a metric the table leaves out is not scored")
        let r = try XCTUnwrap(BioAgeEngine(norms: custom).assess(day(vo2: 40, rhr: 90), history: [], ageYears: 40, sex: "male"))
        XCTAssertEqual(r.offsets.map(\.name), ["vo2max"])

        let dup = dir + "/dup.csv"
        try "metric,sex,age_years,value,source\nvo2max,male,20,50,x\nvo2max,male,20,51,x\n".write(toFile: dup, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try BioAgeNorms.read(path: dup)) { XCTAssertEqual("\($0)", "\(dup):3:3: a second vo2max norm for male aged 20") }
        let bad = dir + "/bad.csv"
        try "metric,sex,age_years,value,source\nsteps,male,20,50,x\n".write(toFile: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try BioAgeNorms.read(path: bad)) { XCTAssertTrue("\($0)".hasPrefix("\(bad):2:1: 'metric' is 'steps'"), "\($0)") }
    }

    /// The daily engines give BioAge from subjects.csv's age, sex and height, and the
    /// `bmi_height_assumed` flag without a height.
    func testDailyEnginesUseSubjects() throws {
        let s = DailySnapshot(subject: "A", day: Timestamp.daysFromCivil(2026, 3, 1), restingHRBpm: 66, bodyMassKg: 81)
        let subjects = DailySubjects([SubjectRow(subject: "A", birthYear: 1981, sex: "male", heightCm: 180, source: "t")])
        let a = try XCTUnwrap(DailyEngines.assess(history: [s], subjects: subjects).first)
        // Age 45; RHR −2.0 (w 0.22), BMI +1.8 (w 0.12): (−0.44 + 0.216)/0.34.
        XCTAssertEqual(try XCTUnwrap(a.row.bioAge), 45 + (-0.44 + 0.216) / 0.34, accuracy: 1e-9)
        XCTAssertEqual(a.row.bioAgeCategory, "on_track")
        XCTAssertFalse(a.flags.contains("bmi_height_assumed"))
        let noHeight = DailySubjects([SubjectRow(subject: "A", birthYear: 1981, sex: "male", source: "t")])
        XCTAssertTrue(try XCTUnwrap(DailyEngines.assess(history: [s], subjects: noHeight).first).flags.contains("bmi_height_assumed"))
        XCTAssertNil(DailyEngines.assess(history: [s]).first?.row.bioAge, "no age, no BioAge")
        XCTAssertEqual(DailyEngines.assess(history: [s], subjects: DailySubjects(defaultAgeYears: 45)).first?.row.bioAgeCategory, "on_track")
    }
}
