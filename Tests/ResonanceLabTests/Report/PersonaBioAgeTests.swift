import XCTest
@testable import ResonanceLab

/// On generated personas, BioAge reads younger than the calendar for YoungAthlete and
/// older for CardiacRehab, and the persona reports show BioAge and the zone distribution.
/// CardiacRehab's VO2 max is the watch's heart-rate-ratio estimate from her resting HR
/// (about 36 mL/kg/min against the profile's 22), which knows nothing of her heart, so
/// she reads only a little older than her age (on track or watchful), not the 2 years
/// her profile's VO2 max would give.
final class PersonaBioAgeTests: XCTestCase {
    func testYoungAthleteBelowAndCardiacRehabAboveChronologicalAge() throws {
        let ws = Workspace(path: try makeTempDir())
        let personas = try ["YoungAthlete", "CardiacRehab"].map { try XCTUnwrap(PersonaProfile.named($0)) }
        try PersonaGenerator(personas: personas, days: 14).generate(into: ws, jobs: 2)
        let inputs = try PersonaReportInputs(workspace: ws)
        XCTAssertEqual(inputs.subjectRows.map(\.subject), ["CardiacRehab", "YoungAthlete"])
        XCTAssertEqual(inputs.subjectRows.map(\.birthYear), [1964, 2004], "2026 − the profiles' ages 62 and 22")
        XCTAssertEqual(inputs.subjectRows.map(\.heightCm), [175, 175])

        let athlete = PersonaReport(subject: "YoungAthlete", inputs: inputs, registry: .defaults)
        let rehab = PersonaReport(subject: "CardiacRehab", inputs: inputs, registry: .defaults)
        let a = try XCTUnwrap(athlete.meanBioAge), r = try XCTUnwrap(rehab.meanBioAge)
        print("mean BioAge: YoungAthlete \(a.bioAge) at \(a.age), CardiacRehab \(r.bioAge) at \(r.age)")
        XCTAssertEqual(a.days, 14)
        XCTAssertEqual(a.age, 22)
        XCTAssertEqual(r.age, 62)
        XCTAssertLessThan(a.bioAge, a.age - 2, "YoungAthlete at least 2 years younger (good or better)")
        XCTAssertGreaterThan(r.bioAge, r.age, "CardiacRehab older than her age")
        XCTAssertLessThan(r.bioAge, r.age + 4, "the ratio method's VO2 max reads her fitter than her profile")
        let rehabVO2 = Stats.mean(rehab.rows.compactMap(\.snapshot.vo2Max))
        XCTAssertGreaterThan(rehabVO2, personas[1].vo2Max + 10, "estimated from resting HR, not the profile's 22")
        XCTAssertTrue(athlete.rows.allSatisfy { ["good", "excellent"].contains($0.bioAgeCategory) }, "\(athlete.rows.map(\.bioAgeCategory))")
        XCTAssertTrue(rehab.rows.allSatisfy { ["on_track", "watchful"].contains($0.bioAgeCategory) }, "\(rehab.rows.map(\.bioAgeCategory))")
        XCTAssertTrue(athlete.mismatchedDays.isEmpty, "the report re-runs the engines with subjects.csv")

        // zones.csv: the athlete trains 75–120 min a day, well past the AHA target in a week.
        let zones = try XCTUnwrap(inputs.zones).filter { $0.subject == "YoungAthlete" }
        XCTAssertEqual(zones.count, 14)
        XCTAssertTrue(try XCTUnwrap(zones.last).ahaMet)
        XCTAssertGreaterThan(try XCTUnwrap(zones.last).weekVigorousMinutes, 300)

        let md = athlete.markdown()
        XCTAssertTrue(md.contains("## BioAge\n\nMean BioAge \(decimals(a.bioAge, 1)) years against a chronological age of 22.0 ("), md)
        XCTAssertTrue(md.contains("## Zone distribution of workouts\n\n| zone | minutes | share |"), md)
    }
}
