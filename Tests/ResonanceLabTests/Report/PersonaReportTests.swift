import Foundation
import XCTest
@testable import ResonanceLab

final class PersonaReportTests: XCTestCase {
    /// 30 days of two subjects: NewMom (a built-in persona) steady then with resting HR
    /// rising 3 bpm/day over the last 5 days, and an unknown subject.
    func makeWorkspace() throws -> Workspace {
        let ws = Workspace(path: try makeTempDir())
        let start = Timestamp.daysFromCivil(2026, 1, 1)
        var snapshots: [DailySnapshot] = []
        for subject in ["NewMom", "Custom"] {
            for d in 0..<30 {
                let rise = subject == "NewMom" && d >= 25 ? Double(d - 24) * 3 : 0
                snapshots.append(DailySnapshot(
                    subject: subject, day: start + d, restingHRBpm: 72 + Double(d % 3) - 1 + rise,
                    hrvSDNNMs: 38 + Double(d % 5) - 2, recovery1mBpm: 15 + Double(d % 4), vo2Max: 32,
                    zoneMinutes: 10, steps: 6000, sleepHours: 5 + Double(d % 2) * 0.5, bodyMassKg: 68))
            }
        }
        try ws.write(DailyEngines.assess(history: snapshots).map(\.row))
        let t0 = Int64(start) * 86_400_000 + 3_600_000
        try ws.write([
            Play(subject: "NewMom", playId: "p1", songId: "s1", title: "Air", artist: "Bach", album: "A", playlist: "calm",
                 startedAtMs: t0, endedAtMs: t0 + 180_000, mediaDurationS: 180, playedS: 180, endReason: "ended", skipped: false),
            Play(subject: "NewMom", playId: "p2", songId: "s2", title: "Run", artist: "X", album: "B", playlist: "calm",
                 startedAtMs: t0 + 180_000, endedAtMs: t0 + 200_000, mediaDurationS: 200, playedS: 20, endReason: "skip", skipped: true),
            Play(subject: "Custom", playId: "p3", songId: "s1", title: "Air", artist: "Bach", album: "A", playlist: "mix",
                 startedAtMs: t0, endedAtMs: t0 + 180_000, mediaDurationS: 180, playedS: 180, endReason: "ended", skipped: false),
        ])
        try writeFixture("kind,subject,entity,metric,value,start,end\npersona_sensitivity,NewMom,,delta_hr_bpm,0.4,,\nsong_effect,,s1,delta_hr_bpm,-2,,\n",
                         to: ws.file("truth.csv"))
        func hrv(_ reliable: Bool, sdnn: Double, rmssd: Double, meanHR: Double) -> HRVRow {
            var row = HRVRow(subject: "NewMom", windowStartMs: nil, windowEndMs: nil, nBeats: 300,
                             artifactPct: reliable ? 0 : 9, reliable: reliable)
            row.time.meanNN = 830; row.time.sdnn = sdnn; row.time.rmssd = rmssd; row.time.pnn50 = 5; row.time.meanHR = meanHR
            return row
        }
        try ws.write([hrv(true, sdnn: 40, rmssd: 30, meanHR: 72.3), hrv(false, sdnn: 90, rmssd: 80, meanHR: 72),
                      hrv(true, sdnn: 36, rmssd: 26, meanHR: 72.1)])
        try ws.write([("NewMom", 0.5), ("NewMom", 0.7), ("Custom", 0.2)].map {
            CoherenceRow(subject: $0.0, windowStartMs: nil, windowEndMs: nil, method: "heartmath", breathingHz: 0.1,
                         peakHz: 0.1, coherence: $0.1, nSamples: 256, source: "rr")
        })
        return ws
    }

    func testReportsAreWrittenPerPersonaAndByteIdentical() throws {
        let ws = try makeWorkspace()
        let dir1 = try makeTempDir(), dir2 = try makeTempDir()
        let paths = try PersonaReports.write(workspace: ws, to: dir1, registry: .defaults)
        try PersonaReports.write(workspace: ws, to: dir2, registry: .defaults, jobs: 2)
        XCTAssertEqual(paths.map { ($0 as NSString).lastPathComponent }, ["NewMom.md", "Custom.md", "index.md"])
        for name in ["NewMom.md", "Custom.md", "index.md"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir1 + "/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: dir2 + "/" + name)), name)
        }
        let mom = try String(contentsOfFile: dir1 + "/NewMom.md", encoding: .utf8)
        XCTAssertTrue(mom.contains("reproduces daily.csv on all 30 days"))
        // Zones: age 32, female → max 208 − 22.4 − 1 = 184.6; median RHR 72 → reserve 112.6;
        // zone 1 = 72 + 0.5·112.6 = 128.3 → "128–140" (zone 2 from 72 + 0.6·112.6 = 139.56).
        XCTAssertTrue(mom.contains("| 1 | 50–60 | 128–140 |"), mom)
        // RHR rising 3 bpm/day over the last days → regression with its slope in words.
        XCTAssertTrue(mom.contains("regression: 7-day slopes RHR +"))
        XCTAssertTrue(mom.contains("Planted music sensitivity (truth.csv): delta_hr_bpm 0.40."))
        // HRV medians over the two reliable windows: SDNN (40 + 36)/2 = 38.0, RMSSD 28.0.
        XCTAssertTrue(mom.contains("| 38.0 | 28.0 | 72.2 | 38.0 | 28.0 |"), mom)
        // Coherence 0.5 and 0.7: median 0.6, 90th percentile (type 7) 0.5 + 0.9·0.2 = 0.68.
        XCTAssertTrue(mom.contains("| heartmath | 2 | 0.600 | 0.680 |"), mom)
        // Listening: 2 plays, 200 s = 0.06 h, 1 skipped (50.0 %), s1 also heard by Custom.
        XCTAssertTrue(mom.contains("2 plays of 2 songs, 0.1 h listened, 1 skipped (50.0 %); 1 of the 2 songs are also heard"))
        // Sleep note: 7 h → 80.1 vs the example 95 → −14.9.
        XCTAssertTrue(mom.contains("| 7 | 95 | 80.1 | -14.9 |"))
        let custom = try String(contentsOfFile: dir1 + "/Custom.md", encoding: .utf8)
        XCTAssertTrue(custom.contains("Not one of the built-in personas"))
        XCTAssertTrue(custom.contains("No hrv.csv") == false && custom.contains("0 windows, 0 reliable"))
        let index = try String(contentsOfFile: dir1 + "/index.md", encoding: .utf8)
        XCTAssertTrue(index.contains("[NewMom](NewMom.md)"))
        // Both subjects share the same inputs except NewMom's late rise, so NewMom has the
        // higher mean stress; "Custom" is not the expected StressedExecutive.
        XCTAssertTrue(index.contains("- highest mean stress: NewMom ("), index)
        XCTAssertTrue(index.contains("expected StressedExecutive — NOT MET"))
        // Slopes need 4 of the 7 days: days 4…30 of each subject → 2 × 27 = 54 person-days.
        XCTAssertTrue(index.contains("person-days with a slope") && index.contains(" of 54 person-days") && index.contains(" ms/day on "))
    }

    func testReportSaysWhenDailyCSVCameFromOtherConstants() throws {
        let ws = try makeWorkspace()
        let path = try writeFixture(#"{"engines":{"stress":{"version":"1.1.0","constants":{"sigmoid_slope":0.1}}}}"#,
                                    to: try makeTempDir() + "/c.json")
        let dir = try makeTempDir()
        try PersonaReports.write(workspace: ws, to: dir, registry: try ConstantsRegistry(contentsOf: path))
        let mom = try String(contentsOfFile: dir + "/NewMom.md", encoding: .utf8)
        // Stress exists from the third day on (the 7-day SDNN stability needs three values,
        // the baselines three earlier days): 28 of 30 days differ.
        XCTAssertTrue(mom.contains("differs from daily.csv on 28 of 30 days (first 2026-01-03)"), mom)
        XCTAssertTrue(mom.contains("stress@1.1.0"))
    }

    func testMissingDailyCSVIsAClearError() throws {
        let ws = Workspace(path: try makeTempDir())
        XCTAssertThrowsError(try PersonaReports.write(workspace: ws, to: try makeTempDir(), registry: .defaults)) { error in
            XCTAssertEqual("\(error)", ws.file("daily.csv") + ": no daily.csv: not a persona workspace (run `resonance personas generate`)")
        }
    }

    /// The recovery section of the fixture's NewMom: 1-minute recovery 15 + (d mod 4) bpm
    /// over 30 days, i.e. (8·15 + 8·16 + 7·17 + 7·18) / 30 = 16.43 bpm; day 9 (SDNN 40 ms,
    /// 5.5 h of sleep, resting HR 71 at its baseline median 71) scores
    /// 100 × (0.4 · 10/30 + 0.4 · 1.5/3 + 0.2 · 1) = 53.3 → 53, above 50: no rest.
    func testRecoverySectionSummarisesTheMorningsBesideReadiness() throws {
        let ws = try makeWorkspace()
        let report = PersonaReport(subject: "NewMom", inputs: try PersonaReportInputs(workspace: ws), registry: .defaults)
        let section = try XCTUnwrap(report.markdown().components(separatedBy: "## Recovery\n").last?.components(separatedBy: "\n## ").first)
        XCTAssertTrue(section.contains("1-minute heart-rate recovery: mean 16.4 bpm over 30 days."), section)
        XCTAssertTrue(section.contains("over 30 mornings"), section)
        let counts = ["both_rest", "both_train", "morning_rest", "readiness_rest"].map { kind -> Int in
            let line = section.split(separator: "\n").first { $0.hasPrefix("| \(kind) |") } ?? ""
            return Int(line.split(separator: "|").dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        }
        XCTAssertEqual(counts.reduce(0, +), 30, "every morning has both a decision and a readiness level: \(counts)")
        let day9 = MorningRecoveryEngine(constants: ConstantsRegistry.defaults.morningRecovery)
            .mornings(report.rows.map { $0.snapshot }, readiness: [:]).map { $0.row }[9]
        XCTAssertEqual(day9.score.overall, 53)
        XCTAssertEqual(day9.withoutPlan?.action, "suggest")
    }
}

/// The coaching section on a generated persona: NewMom (2 000 steps a day, 4.8 h of sleep)
/// gets the low-activity and short-sleep recommendations.
final class PersonaReportCoachingTests: XCTestCase {
    func testNewMomsLowActivityAndShortSleepRecommendationsFire() throws {
        let ws = Workspace(path: try makeTempDir())
        try PersonaGenerator(personas: [try XCTUnwrap(PersonaProfile.named("NewMom"))], days: 10).generate(into: ws, jobs: 1)
        let report = PersonaReport(subject: "NewMom", inputs: try PersonaReportInputs(workspace: ws), registry: .defaults)
        let md = report.markdown()
        let section = try XCTUnwrap(md.components(separatedBy: "## The week's nudges and recommendations\n").last?
            .components(separatedBy: "\n## ").first)
        let tables = CoachingRules.replay(report.rows, constants: .defaults)
        let fired = { (id: String) in Set(tables.coaching.filter { $0.id == id }.map(\.date)) }
        // From the third day on, two of the last three days are below 5 000 steps and two nights under 6 h.
        XCTAssertGreaterThanOrEqual(fired("activity_pattern").count, 7, "\(fired("activity_pattern"))")
        XCTAssertGreaterThanOrEqual(fired("sleep_pattern").count, 7, "\(fired("sleep_pattern"))")
        XCTAssertTrue(section.contains("| recommendation | activity_pattern | "), section)
        XCTAssertTrue(section.contains("| recommendation | sleep_pattern | "), section)
        XCTAssertTrue(section.contains("activity_pattern (medium)"), section)
        XCTAssertTrue(section.contains("sleep_pattern (medium)"), section)
        XCTAssertEqual(section.components(separatedBy: "\n| 2026-").count - 1, 7, "one row for each of the last 7 days")
        XCTAssertTrue(section.contains("Health-profile phase on 2026-01-14: baseline (start)."), section)
    }
}
