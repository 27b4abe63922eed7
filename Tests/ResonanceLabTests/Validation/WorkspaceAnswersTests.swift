import XCTest
@testable import ResonanceLab

/// What a workspace can answer (`WorkspaceAnswers.assess`): each reason an analysis
/// cannot run, from the facts alone, and the facts read from a workspace's tables.
final class WorkspaceAnswersTests: XCTestCase {
    typealias Span = WorkspaceAnswers.Span
    static let day: Int64 = 86_400_000
    /// 2024-03-01 and some days after it.
    static func span(_ firstDay: Int64, _ lastDay: Int64) -> Span {
        Span(firstMs: 19_783 * day + firstDay * day, lastMs: 19_783 * day + lastDay * day + 3_600_000)
    }

    /// A workspace that answers everything: heart rate and R-R overlapping plays, a song with enough plays, labels.
    static var complete: WorkspaceAnswers.Facts {
        var f = WorkspaceAnswers.Facts()
        f.heartRateSamples = 5000; f.rrIntervals = 20_000; f.plays = 300; f.labelledSubjects = 2
        f.playsWithHeartData = 250; f.mostPlaysPerSong = 14; f.songsWithEnoughPlays = 3; f.minSongPlays = 10
        return f
    }

    func reasons(_ f: WorkspaceAnswers.Facts) -> [WorkspaceAnswers.Analysis: [String]] {
        Dictionary(uniqueKeysWithValues: WorkspaceAnswers.assess(f).answers.map { ($0.analysis, $0.reasons.map(\.key)) })
    }

    func testEverythingAnsweredWithItsSource() {
        let a = WorkspaceAnswers.assess(Self.complete)
        XCTAssertEqual(a.answers.map(\.analysis), WorkspaceAnswers.Analysis.allCases)
        XCTAssertTrue(a.answers.allSatisfy(\.answered))
        XCTAssertEqual(a.answers.map(\.line), [
            "HRV: yes (from 20000 R-R intervals)",
            "coherence: yes (from 20000 R-R intervals)",
            "stress scoring: yes (2 labelled subjects)",
            "sessions with physiology: yes (250 of 300 plays with heart data)",
            "song and listener effects: yes (3 songs with at least 10 plays with heart data)",
            "daily heart-coach engines: yes (from 5000 heart-rate samples)",
        ])
        XCTAssertNil(a.foundText)
    }

    func testNoHeartDataSaysWhatTheExportsHoldInstead() {
        var f = Self.complete
        f.heartRateSamples = 0; f.rrIntervals = 0; f.playsWithHeartData = 0; f.mostPlaysPerSong = 0; f.songsWithEnoughPlays = 0
        f.found = [.init(kind: "plays", count: 300, unit: "play"), .init(kind: "steps", count: 35, unit: "day"),
                   .init(kind: "sleep", count: 1, unit: "sleep record"),
                   .init(kind: "flights climbed", count: 170, unit: "record", read: false)]
        let a = WorkspaceAnswers.assess(f)
        for analysis in [WorkspaceAnswers.Analysis.hrv, .coherence, .sessions, .effects] {
            XCTAssertEqual(a.answer(analysis)?.reasons, [.noHeartData], analysis.rawValue)
        }
        XCTAssertEqual(a.answer(.stress)?.reasons, [.noHeartData])
        XCTAssertEqual(a.answer(.daily)?.reasons, [.noDailyHeartData])
        XCTAssertEqual(a.answer(.hrv)?.line, "HRV: no — no heart rate or R-R intervals in these exports")
        XCTAssertEqual(a.foundText, "These exports hold no heart rate or R-R intervals; they hold 300 plays; steps on 35 days; "
            + "1 sleep record; records the toolkit does not read: flights climbed 170.")
        // The daily engines run on resting heart rate or HRV samples alone.
        f.restingHRDays = 30
        XCTAssertEqual(WorkspaceAnswers.assess(f).answer(.daily)?.reasons, [])
        XCTAssertEqual(WorkspaceAnswers.assess(f).answer(.daily)?.detail, "from resting heart rate on 30 days")
    }

    func testHeartRateWithoutRRAnswersAllButHRV() {
        var f = Self.complete
        f.rrIntervals = 0
        let a = WorkspaceAnswers.assess(f)
        XCTAssertEqual(a.answer(.hrv)?.reasons, [.noRR(heartRateSamples: 5000)])
        XCTAssertEqual(a.answer(.hrv)?.reasons.first?.text,
                       "heart rate (5000 samples) but no R-R intervals: HRV needs beat-to-beat intervals")
        XCTAssertEqual(a.answer(.coherence)?.detail, "from 5000 heart-rate samples")
        XCTAssertEqual(a.answers.filter { !$0.answered }.map(\.analysis), [.hrv])
    }

    func testNoPlays() {
        var f = Self.complete
        f.plays = 0; f.playsWithHeartData = 0; f.mostPlaysPerSong = 0; f.songsWithEnoughPlays = 0
        let r = reasons(f)
        XCTAssertEqual(r[.sessions], ["no_plays"])
        XCTAssertEqual(r[.effects], ["no_plays"])
        XCTAssertEqual(r[.hrv], [])
        XCTAssertEqual(WorkspaceAnswers.assess(f).answer(.sessions)?.reasons.first?.text, "no plays in these exports")
    }

    func testHeartDataAndListeningThatNeverOverlapNameBothDateRanges() {
        var f = Self.complete
        f.playsWithHeartData = 0; f.mostPlaysPerSong = 0; f.songsWithEnoughPlays = 0
        f.heart = Self.span(0, 13); f.listening = Self.span(400, 1500)
        let a = WorkspaceAnswers.assess(f)
        XCTAssertEqual(a.answer(.sessions)?.reasons, [.noOverlap(what: "heart data", health: f.heart!, listening: f.listening!)])
        XCTAssertEqual(a.answer(.sessions)?.reasons.first?.text,
                       "the heart data (2024-03-01 – 2024-03-14) and the listening (2025-04-05 – 2028-04-09) never overlap")
        XCTAssertEqual(a.answer(.effects)?.reasons.map(\.key), ["no_overlap"])
        // Without heart data the span of every health record is compared, beside the missing heart data.
        f.heartRateSamples = 0; f.rrIntervals = 0; f.heart = nil; f.health = Self.span(0, 30)
        XCTAssertEqual(reasons(f)[.sessions], ["no_heart_data", "no_overlap"])
        XCTAssertTrue(WorkspaceAnswers.assess(f).answer(.sessions)?.line.hasSuffix(
            "the health records (2024-03-01 – 2024-03-31) and the listening (2025-04-05 – 2028-04-09) never overlap") == true)
    }

    func testOverlappingSpansWithoutHeartDataAtAnyPlay() {
        var f = Self.complete
        f.playsWithHeartData = 0; f.mostPlaysPerSong = 0; f.songsWithEnoughPlays = 0
        f.heart = Self.span(0, 30); f.listening = Self.span(10, 20)
        XCTAssertEqual(WorkspaceAnswers.assess(f).answer(.sessions)?.reasons, [.noHeartDataAtPlays(plays: 300)])
        XCTAssertEqual(WorkspaceAnswers.assess(f).answer(.sessions)?.reasons.first?.text, "none of the 300 plays has heart data around it")
    }

    func testTooFewPlaysWithHeartDataPerSong() {
        var f = Self.complete
        f.playsWithHeartData = 12; f.mostPlaysPerSong = 3; f.songsWithEnoughPlays = 0
        let a = WorkspaceAnswers.assess(f)
        XCTAssertTrue(a.answer(.sessions)?.answered == true)
        XCTAssertEqual(a.answer(.effects)?.reasons, [.tooFewPlaysPerSong(most: 3, needed: 10, playsWithHeartData: 12)])
        XCTAssertEqual(a.answer(.effects)?.reasons.first?.text, "too few plays with heart data per song: the most any song has is 3 "
            + "(12 plays with heart data in all); a song's effect needs 10")
    }

    func testNoLabels() {
        var f = Self.complete
        f.labelledSubjects = 0
        XCTAssertEqual(reasons(f)[.stress], ["no_labels"])
        XCTAssertEqual(reasons(f).values.filter { !$0.isEmpty }.count, 1)
    }

    func testRecordKindsInWords() {
        XCTAssertEqual(AppleHealth.words(ofType: "HKQuantityTypeIdentifierFlightsClimbed"), "flights climbed")
        XCTAssertEqual(AppleHealth.words(ofType: "HKQuantityTypeIdentifierDistanceWalkingRunning"), "distance walking running")
        XCTAssertEqual(AppleHealth.words(ofType: "HKQuantityTypeIdentifierUVExposure"), "UV exposure")
        XCTAssertEqual(AppleHealth.words(ofType: "HKQuantityTypeIdentifierVO2Max"), "VO2 max")
        XCTAssertEqual(AppleHealth.words(ofType: "HKCategoryTypeIdentifierMindfulSession"), "mindful session")
        XCTAssertEqual(AppleHealth.words(ofType: "podcast episode"), "podcast episode")
    }

    /// The facts of a workspace: counts from the manifest, labels, the plays with heart
    /// data per song, and — no play having any — the spans and what the exports hold.
    func testFactsOfAWorkspace() throws {
        let dir = try makeTempDir()
        let ws = Workspace(path: dir)
        try ws.write([HRSample(subject: "A", timestampMs: 1_709_280_000_000, bpm: 60, source: "x"),
                      HRSample(subject: "A", timestampMs: 1_709_283_600_000, bpm: 62, source: "x")])
        try ws.write([Play(subject: "A", playId: "p1", songId: "s1", title: "", artist: "", album: "", playlist: "",
                           startedAtMs: 1_740_000_000_000, endedAtMs: 1_740_000_200_000, mediaDurationS: nil, playedS: 200,
                           endReason: "", skipped: false)])
        try ws.write([LabelInterval(subject: "A", startMs: 0, endMs: 1, label: "stress"),
                      LabelInterval(subject: "A", startMs: 2, endMs: 3, label: "baseline"),
                      LabelInterval(subject: "B", startMs: 0, endMs: 1, label: "stress")])
        try ws.write([SessionPlayRow(subject: "A", sessionId: "A:1", playId: "p1", songId: "s1",
                                     biometrics: WindowBiometrics(hrStart: nil, hrEnd: nil, hrvStart: nil, hrvEnd: nil, hrvSource: "", notes: []),
                                     quality: "no_physiology", playlist: "", startedAtMs: 1_740_000_000_000, endedAtMs: 1_740_000_200_000,
                                     playedS: 200, listenFraction: nil, skipped: false, context: "unknown", timeSlot: "night")])
        var manifest = Manifest()
        manifest.tables = try [HRSample.fileName, Play.fileName, LabelInterval.fileName, SessionPlayRow.fileName].map {
            try TableDigest.of(file: ws.file($0), name: $0)
        }
        try Data(try manifest.encoded()).write(to: URL(fileURLWithPath: ws.file(Manifest.fileName)))
        let f = try WorkspaceAnswers.Facts.of(ws)
        XCTAssertEqual(f.heartRateSamples, 2)
        XCTAssertEqual(f.plays, 1)
        XCTAssertEqual(f.labelledSubjects, 1)
        XCTAssertEqual(f.playsWithHeartData, 0)
        XCTAssertEqual(f.heart, Span(firstMs: 1_709_280_000_000, lastMs: 1_709_283_600_000))
        XCTAssertEqual(f.listening, Span(firstMs: 1_740_000_000_000, lastMs: 1_740_000_200_000))
        XCTAssertEqual(WorkspaceAnswers.assess(f).answer(.sessions)?.reasons.map(\.key), ["no_overlap"])
    }
}
