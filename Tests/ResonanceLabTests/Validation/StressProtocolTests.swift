import XCTest
@testable import ResonanceLab

final class StressProtocolTests: XCTestCase {
    /// One stress and one baseline window whose scores give, per score, AUC 1 (`up`), 0
    /// (`down`) or 0.5 (any other key); the features are constant.
    func subject(up: Set<String>, down: Set<String>) -> [StressProtocol.Window] {
        [true, false].map { stress in
            StressProtocol.Window(stress: stress, task: stress ? "stroop" : "", scores: StressProtocol.scores.map { s in
                up.contains(s.key) ? (stress ? 1 : 0) : down.contains(s.key) ? (stress ? 0 : 1) : 0.5
            }, features: [0.5, 0, 0, 0, 0])
        }
    }

    func testTheHeldOutSubjectNeverTakesPartInTheChoice() throws {
        // Per-subject AUCs: adaptive_range 1, 0, 1; onset 0, 1, 1. Held out S0, the others
        // give adaptive_range median 0.5 and onset 1: onset is chosen and S0 scores 0. Had S0
        // taken part, both medians would be 1 and the earlier method (adaptive_range, S0's
        // best) would have been chosen.
        let subjects = [subject(up: ["adaptive_range"], down: ["onset"]),
                        subject(up: ["onset"], down: ["adaptive_range"]),
                        subject(up: ["adaptive_range", "onset"], down: [])]
        let nested = try StressProtocol.nested(subjects, profile: StressProtocol.profiles[0], jobs: 1)
        XCTAssertEqual(nested.map(\.method), [.onset, .adaptiveRange, .adaptiveRange])
        XCTAssertEqual(nested[0].choice.auc, 0, accuracy: 1e-12)
        XCTAssertEqual(nested[1].choice.auc, 0, accuracy: 1e-12)
        // Constant features: the learned reference is a constant, AUC 0.5.
        XCTAssertEqual(nested[0].learned.auc, 0.5, accuracy: 1e-12)
    }

    /// A profile chooses among its own methods only: pulse_hr wins on every subject, so the
    /// PPG wristband chooses it and the heart-rate profile (which cannot) its best HR method.
    func testEachProfileChoosesAmongItsOwnMethods() throws {
        let subjects = (0..<3).map { _ in subject(up: ["pulse_hr", "onset"], down: ["adaptive_range"]) }
        let heart = try StressProtocol.nested(subjects, profile: StressProtocol.profiles[0], jobs: 1)
        let ppg = try StressProtocol.nested(subjects, profile: StressProtocol.profiles[1], jobs: 1)
        XCTAssertEqual(heart.map(\.method), [.onset, .onset, .onset])
        XCTAssertEqual(ppg.map(\.method), [.onset, .onset, .onset], "onset ties pulse_hr and comes first")
        let only = (0..<3).map { _ in subject(up: ["pulse_hr"], down: []) }
        XCTAssertEqual(try StressProtocol.nested(only, profile: StressProtocol.profiles[1], jobs: 1).map(\.method),
                       [.pulseHR, .pulseHR, .pulseHR])
        XCTAssertEqual(StressProtocol.profiles.map(\.features), [7, 10, 15])
    }

    /// Without a window of a breathing task the secondary result (all tasks, every window)
    /// is Stroop + interview's: one sentence in place of the same tables again, the same
    /// numbers under both JSON keys.
    func testSecondaryTablesIdenticalToThePrimaryAreShownOnce() throws {
        let subjects = [subject(up: ["adaptive_range"], down: ["onset"]), subject(up: ["onset"], down: []),
                        subject(up: ["adaptive_range", "onset"], down: [])]
        let names = ["S1", "S2", "S3"]
        let (md, json) = try StressProtocol.report(subjects, design: subjects, subjectNames: names, stress: .defaults, jobs: 1)
        XCTAssertTrue(md.contains("#### Stroop + interview vs baseline, every window (3 subjects, 6 windows)\n"), md)
        XCTAssertTrue(md.contains("#### Secondary: all tasks vs baseline, every window\n\nThe same windows as the table above "
            + "(none of a breathing task here), so the same scores and differences.\n"), md)
        XCTAssertEqual(md.components(separatedBy: "| score | pooled AUC |").count, 3, "the design's and one more AUC table: \(md)")
        guard case let .object(o) = json else { return XCTFail("\(json)") }
        XCTAssertEqual(o["secondary"], o["every_window"])
        // A hyperventilation window makes the secondary result its own.
        var breathing = subjects
        breathing[0].append(StressProtocol.Window(stress: true, task: "hyperventilation", scores: breathing[0][0].scores,
                                                  features: breathing[0][0].features))
        let (other, _) = try StressProtocol.report(breathing, design: subjects, subjectNames: names, stress: .defaults, jobs: 1)
        XCTAssertTrue(other.contains("#### Secondary: all tasks vs baseline, every window (3 subjects, 7 windows)\n"), other)
        XCTAssertEqual(other.components(separatedBy: "| score | pooled AUC |").count, 4)
    }

    /// The engines on the detected beats are scored on the primary design's windows where
    /// every beat input is defined, paired with the device-input scores of the same windows:
    /// the product formula on the beats separates every subject (AUC 1) where raw HR ties
    /// (0.5), so the paired difference is +0.5 in each subject; a window without beat inputs
    /// is left out of both.
    func testBeatInputsArePairedWithTheDeviceScoresOfTheSameWindows() throws {
        let subjects = (0..<3).map { _ -> [StressProtocol.Window] in
            var ws = subject(up: [], down: [])
            for i in ws.indices { ws[i].beatInputs = [ws[i].stress ? 90 : 10, 0.5, 0.5, 70] }
            ws.append(StressProtocol.Window(stress: true, task: "stroop", scores: ws[0].scores, features: ws[0].features))
            return ws
        }
        let (md, json) = try XCTUnwrap(StressProtocol.beatInputPart(subjects, names: ["S1", "S2", "S3"]))
        XCTAssertTrue(md.contains("#### The engines on the pulse wave's beats (primary design: 3 subjects, 6 of its 9 windows)\n"), md)
        XCTAssertTrue(md.contains("| engine_beats − raw_hr | 0.500 |"), md)
        XCTAssertTrue(md.contains("| dj_beats_stress − dj_stress | 0.000 |"), md)
        guard case let .object(o) = json, case let .object(scores)? = o["scores"],
              case let .object(engine)? = scores["engine_beats"] else { return XCTFail("\(json)") }
        XCTAssertEqual(o["windows"], .int(6))
        XCTAssertEqual(engine["subject_median"], .num(1))
        // No window with every beat input: no part.
        XCTAssertNil(StressProtocol.beatInputPart([subject(up: [], down: [])], names: ["S1"]))
    }

    func testPairedDifferenceIsTheMeanOfPerSubjectDifferences() {
        let a = StressProtocol.Summary([[true, false], [true, false], [true, false]].enumerated().map { i, y in
            var g = BinaryScores()
            for (k, s) in y.enumerated() { g.append(i == 2 ? Double(k) : Double(1 - k), stress: s) }
            return g
        })
        XCTAssertEqual(a.perSubject, [1, 1, 0])
        let b = StressProtocol.Summary((0..<3).map { _ in
            var g = BinaryScores()
            g.append(0, stress: true); g.append(0, stress: false)
            return g
        })
        let d = StressProtocol.pairedDifference(a, b)
        // Differences 0.5, 0.5, −0.5.
        XCTAssertEqual(d.mean, 1.0 / 6, accuracy: 1e-12)
        XCTAssertEqual(d.above, 2)
        XCTAssertEqual(d.subjects, 3)
        // Pooled, a's stress scores 1, 1, 0 against baseline 0, 0, 1: 4 wins and 4 ties of 9
        // pairs, AUC 6/9; b's are all ties, 1/2.
        let p = StressProtocol.pairedPooledDifference(a, b)
        XCTAssertEqual(p.difference, 2.0 / 3 - 0.5, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(p.ci.0, p.ci.1)
        XCTAssertGreaterThanOrEqual(p.ci.0, -0.5)
    }
}
