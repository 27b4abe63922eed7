import XCTest
@testable import ResonanceLab

/// The generated workspace: deterministic, readable as canonical tables, in range.
final class PersonaGeneratorTests: XCTestCase {
    static let files = ["hr.csv", "rr.csv", "plays.csv", "sleep.csv", "workouts.csv", "labels.csv",
                        "rejects.csv", "subjects.csv", "daily.csv", "zones.csv", "truth.csv", "manifest.json"]

    private func generate(seed: UInt64, names: [String] = ["NewMom", "CardiacRehab"], days: Int = 3) throws -> Workspace {
        let ws = Workspace(path: try makeTempDir())
        let generator = PersonaGenerator(personas: names.compactMap(PersonaProfile.named), days: days, seed: seed)
        try generator.generate(into: ws, jobs: 2)
        return ws
    }

    private func digests(_ ws: Workspace) throws -> [String] {
        try Self.files.map { try SHA256.hex(ofFile: ws.file($0)) }
    }

    func testSameSeedIsByteIdenticalAndAnotherSeedDiffers() throws {
        let a = try digests(try generate(seed: 7)), b = try digests(try generate(seed: 7))
        let c = try digests(try generate(seed: 8))
        XCTAssertEqual(a, b)
        // Every simulated table changes with the seed; labels and rejects are header-only.
        for (i, name) in Self.files.enumerated() where !["labels.csv", "rejects.csv", "truth.csv", "subjects.csv"].contains(name) {
            XCTAssertNotEqual(a[i], c[i], name)
        }
    }

    func testWorkspaceReadsBackAsCanonicalTablesWithinPhysiologicalRanges() throws {
        let ws = try generate(seed: 0, names: ["YoungAthlete", "NightShiftNurse", "CardiacRehab"], days: 4)
        let manifest = try Manifest.read(from: ws)
        let hr = try ws.read(HRSample.self), rr = try ws.read(RRInterval.self), plays = try ws.read(Play.self)
        let sleep = try ws.read(SleepEpisode.self), workouts = try ws.read(Workout.self)
        let daily = try ws.read(DailyRow.self), truth = try ws.read(PlantedEffect.self), subjects = try ws.read(SubjectRow.self)
        XCTAssertEqual(try ws.read(LabelInterval.self), [])
        XCTAssertEqual(try ws.read(Reject.self), [])
        let rows = ["hr.csv": hr.count, "rr.csv": rr.count, "plays.csv": plays.count, "sleep.csv": sleep.count,
                    "workouts.csv": workouts.count, "daily.csv": daily.count, "truth.csv": truth.count,
                    "subjects.csv": subjects.count]
        for source in manifest.sources {
            XCTAssertEqual(source.rowsRead, rows[source.path], source.path)
            XCTAssertEqual(source.accepted, source.rowsRead, source.path)
            XCTAssertEqual(try SHA256.hex(ofFile: ws.file(source.path)), source.sha256, source.path)
        }
        // Canonical order: subjects by byte order, as an import writes them.
        XCTAssertEqual(manifest.subjects.map(\.subject), ["CardiacRehab", "NightShiftNurse", "YoungAthlete"])
        XCTAssertEqual(daily.count, 3 * 4)
        XCTAssertEqual(subjects.map(\.sex), ["male", "female", "male"])
        // 200 songs × 2 metrics + 3 personas × 2 metrics.
        XCTAssertEqual(truth.count, 406)
        XCTAssertTrue(rr.allSatisfy { (250...2500).contains($0.rrMs) })
        XCTAssertTrue(hr.allSatisfy { (20...250).contains($0.bpm) })
        for subject in manifest.subjects.map(\.subject) {
            let times = hr.filter { $0.subject == subject }.map(\.timestampMs)
            XCTAssertEqual(times, times.sorted(), subject)
            XCTAssertEqual(Set(times).count, times.count, subject)
        }
        for play in plays {
            let end = try XCTUnwrap(play.endedAtMs)
            let played = try XCTUnwrap(play.playedS), duration = try XCTUnwrap(play.mediaDurationS)
            XCTAssertEqual(Double(end - play.startedAtMs) / 1000, played, accuracy: 0.001)
            XCTAssertLessThanOrEqual(played, duration)
            XCTAssertEqual(play.skipped, play.endReason == "TRACK_SKIPPED_FORWARDS")
        }
    }

    /// HR reported inside a recording span is 60000 / mean R-R of the beats closing in
    /// the 5 s before it, rounded to 1 bpm: hr.csv and rr.csv agree.
    func testHeartRateAgreesWithTheBeatsAtTheSameInstants() throws {
        let r = try XCTUnwrap(PersonaFixture.record("SeniorFit"))
        let rr = r.rr, rrTimes = rr.map(\.timestampMs)
        var checked = 0
        for sample in r.hr {
            let lo = rrTimes.lowerBound(sample.timestampMs - 4999)
            let hi = rrTimes.lowerBound(sample.timestampMs + 1)
            // Inside a span: a beat shortly before the 5-s window (gaps between beats < 2.5 s).
            guard hi > lo, hi < rrTimes.count, lo > 0, sample.timestampMs - rrTimes[lo - 1] < 7500 else { continue }
            let mean = Stats.mean(rr[lo..<hi].map(\.rrMs))
            XCTAssertEqual(sample.bpm, (60_000 / mean).rounded(), "\(sample.timestampMs)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 10_000)
    }
}

final class PersonaZoneMinutesTests: XCTestCase {
    /// Zone minutes are measured with the registry's zones: raising zone 2's lower bound
    /// from 60 % to 65 % of the heart-rate reserve can only remove minutes, and does.
    func testZoneMinutesFollowTheZonesConstants() throws {
        let path = try writeFixture(#"{"engines":{"zones":{"version":"1.1.0","constants":{"zone2_from":0.65}}}}"#,
                                    to: try makeTempDir() + "/c.json")
        let athlete = try XCTUnwrap(PersonaProfile.all.first { $0.name == "YoungAthlete" })
        func minutes(_ registry: ConstantsRegistry) throws -> [Double] {
            let records = try PersonaGenerator(personas: [athlete], days: 7, registry: registry).simulate(jobs: 1)
            return records.flatMap(\.days).map { $0.zoneMinutes ?? .nan }
        }
        let standard = try minutes(.defaults), stricter = try minutes(try ConstantsRegistry(contentsOf: path))
        XCTAssertEqual(standard.count, 7)
        XCTAssertTrue(zip(stricter, standard).allSatisfy { $0 <= $1 }, "\(stricter) vs \(standard)")
        XCTAssertLessThan(stricter.reduce(0, +), standard.reduce(0, +))
    }
}
