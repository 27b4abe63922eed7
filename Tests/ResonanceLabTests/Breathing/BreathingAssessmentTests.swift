import Foundation
import XCTest
@testable import ResonanceLab

/// A synthetic stepped session (Lehrer et al. 2000 protocol: 6.5, 6.0, 5.5, 5.0, 4.5/min,
/// 3 minutes each) whose HR oscillation amplitude peaks at a planted rate.
final class BreathingAssessmentTests: XCTestCase {
    static let rates = [6.5, 6.0, 5.5, 5.0, 4.5]
    static let trialMs = 180_000.0

    /// Beats of the session: HR(t) = 65 + A(rate)·sin(2π·rate/60·t), A Gaussian in the rate
    /// around `planted` (SD 0.85/min, 6 bpm at the peak); each R-R = 60000/HR at its start.
    static func session(planted: Double) -> (NNSeries, [BreathingInterval]) {
        var times: [Int64] = [], rr: [Double] = []
        var t = 0.0
        while t < trialMs * Double(rates.count) {
            let rate = rates[Int(t / trialMs)]
            let z = (rate - planted) / 0.85
            let hr = 65 + 6 * exp(-0.5 * z * z) * sin(2 * .pi * rate / 60 * t / 1000)
            let interval = 60000 / hr
            t += interval
            times.append(Int64(t.rounded()))
            rr.append(interval)
        }
        let intervals = rates.enumerated().map { i, rate in
            BreathingInterval(subject: "S", startedAtMs: Int64(Double(i) * trialMs), endedAtMs: Int64(Double(i + 1) * trialMs),
                              rateBpm: rate, source: "protocol")
        }
        return (NNSeries.clean(timestampsMs: times, rrMs: rr, method: .none), intervals)
    }

    let assessment = BreathingAssessment(coherence: ConstantsRegistry.defaults.coherence, pacer: ConstantsRegistry.defaults.pacer)

    /// Walking the recording (trials in order of their start, listed in any order, one
    /// overlapping another, one after every beat, one reversed), the rows are those of
    /// the whole series, in the order the trials are listed.
    func testTrialsScoredWalkingTheRecordingAreThoseOfTheWholeSeries() throws {
        let (_, intervals) = Self.session(planted: 5.5)
        var times: [Int64] = [], rr: [Double] = []
        var t = 0.0
        while t < Self.trialMs * Double(Self.rates.count) {
            let interval = 60000 / (65 + 6 * sin(2 * .pi * 5.5 / 60 * t / 1000)) + (times.count % 97 == 0 ? 400 : 0)
            t += interval
            times.append(Int64(t.rounded()))
            rr.append(interval.rounded())
        }
        let ws = Workspace(path: try makeTempDir())
        try ws.write(zip(times, rr).map { RRInterval(subject: "S", timestampMs: $0, rrMs: $1, source: "e4") })
        var listed = Array(intervals.reversed())
        listed.append(BreathingInterval(subject: "S", startedAtMs: 100_000, endedAtMs: 400_000, rateBpm: 5.5, source: "x"))
        listed.append(BreathingInterval(subject: "S", startedAtMs: 10_000_000, endedAtMs: 10_100_000, rateBpm: 6, source: "x"))
        listed.append(BreathingInterval(subject: "S", startedAtMs: 300_000, endedAtMs: 200_000, rateBpm: 6, source: "x"))
        let series = NNSeries.clean(timestampsMs: times, rrMs: rr, method: .lipponen)
        let whole = try assessment.trials(subject: "S", series: series, intervals: listed)
        XCTAssertEqual(whole.count, 6)
        for pieces in [1, 50, 8192] {
            let index = try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName), pieceRecords: pieces)
            let stream = NNStream(index, subject: "S", method: .lipponen, plausible: .defaults)
            let walked = try XCTUnwrap(try assessment.trials(subject: "S", stream: stream, intervals: listed))
            // As text, where NaN (a trial too short for windowed coherence) reads equal.
            XCTAssertEqual(try Workspace.encode(walked).bytes, try Workspace.encode(whole).bytes, "pieces of \(pieces)")
        }
        let none = try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName))
        XCTAssertNil(try assessment.trials(subject: "T", stream: NNStream(none, subject: "T", method: .lipponen, plausible: .defaults),
                                           intervals: listed))
    }

    func testEveryCriterionRecoversThePlantedRate() throws {
        let (series, intervals) = Self.session(planted: 5.5)
        let trials = try assessment.trials(subject: "S", series: series, intervals: intervals)
        XCTAssertEqual(trials.map(\.rateBpm), Self.rates)
        // 170 s after settling at ≈ 65 bpm: about 184 beats per trial.
        for trial in trials { XCTAssertEqual(Double(trial.beats), 184, accuracy: 6) }
        // Peak-to-trough at the planted rate: 2 × 6 bpm, less what 4 Hz sampling misses.
        let best = try XCTUnwrap(trials.first { $0.rateBpm == 5.5 })
        XCTAssertEqual(best.peakToTroughBpm, 12, accuracy: 0.3)
        // The LF peak sits at the paced rate, 5.5/60 Hz, within one bin of the padded spectrum.
        XCTAssertEqual(best.lfPeakHz, 5.5 / 60, accuracy: 0.004)
        let choices = AssessmentRowsByCriterion(BreathingAssessment.choose(trials))
        for criterion in ["peak_to_trough", "lf_power", "lf_peak", "combined"] {
            let c = try XCTUnwrap(choices[criterion], criterion)
            XCTAssertEqual(c.rateBpm, 5.5, criterion)
            XCTAssertFalse(c.atEdge, criterion)
            XCTAssertEqual(c.ratesTried, 5)
            XCTAssertTrue([5.0, 6.0].contains(c.runnerUpRateBpm ?? 0), criterion)
            XCTAssertGreaterThan(c.margin, 0, criterion)
        }
        // A(5.0)/A(5.5) = exp(−0.5·(0.5/0.85)²) = 0.841: peak-to-trough margin ≈ 1 − 0.841.
        XCTAssertEqual(choices["peak_to_trough"]?.margin ?? 0, 1 - exp(-0.5 * pow(0.5 / 0.85, 2)), accuracy: 0.03)
    }

    /// Planted between the rates tried: at 5.35/min A(5.5) = 0.984, A(5.0) = 0.919 and
    /// A(6.0) = 0.746 (× 6 bpm), so 5.5 wins with 5.0, not 6.0, as runner-up and a
    /// peak-to-trough margin of 1 − 0.919/0.984 = 0.066; at 5.15/min the order turns:
    /// 5.0 wins, 5.5 is the runner-up.
    func testAPlantedRateBetweenTheRatesTriedPicksTheNearerAndItsNeighbour() throws {
        func a(_ rate: Double, _ planted: Double) -> Double { exp(-0.5 * pow((rate - planted) / 0.85, 2)) }
        for (planted, best, runnerUp) in [(5.35, 5.5, 5.0), (5.15, 5.0, 5.5)] {
            let (series, intervals) = Self.session(planted: planted)
            let choices = AssessmentRowsByCriterion(BreathingAssessment.choose(try assessment.trials(subject: "S", series: series,
                                                                                                   intervals: intervals)))
            for criterion in ["peak_to_trough", "lf_power", "combined"] {
                let c = try XCTUnwrap(choices[criterion], criterion)
                XCTAssertEqual(c.rateBpm, best, "\(planted) \(criterion)")
                XCTAssertEqual(c.runnerUpRateBpm, runnerUp, "\(planted) \(criterion)")
                XCTAssertFalse(c.atEdge)
            }
            XCTAssertEqual(choices["peak_to_trough"]?.margin ?? 0, 1 - a(runnerUp, planted) / a(best, planted), accuracy: 0.02,
                           "\(planted)")
        }
    }

    func testAResonanceBelowTheRatesTriedIsFlaggedAtTheEdge() throws {
        let (series, intervals) = Self.session(planted: 3.8)
        let choices = AssessmentRowsByCriterion(BreathingAssessment.choose(try assessment.trials(subject: "S", series: series,
                                                                                               intervals: intervals)))
        let combined = try XCTUnwrap(choices["combined"])
        XCTAssertEqual(combined.rateBpm, 4.5)
        XCTAssertTrue(combined.atEdge)
        XCTAssertEqual(combined.runnerUpRateBpm, 5.0)
    }

    func testOneRecordingWithOneRateAndNoBounds() throws {
        let (series, _) = Self.session(planted: 5.5)
        let whole = [BreathingInterval(subject: "S", startedAtMs: nil, endedAtMs: nil, rateBpm: 6, source: "protocol")]
        let trials = try assessment.trials(subject: "S", series: series, intervals: whole)
        XCTAssertEqual(trials.count, 1)
        XCTAssertEqual(trials.first?.startedAtMs, series.timeMs.first.map { Int64($0) })
        let choice = BreathingAssessment.choose(trials)
        XCTAssertEqual(choice.map(\.criterion), ["peak_to_trough", "lf_power", "lf_peak", "combined"])
        XCTAssertTrue(choice.allSatisfy { $0.runnerUpRateBpm == nil && $0.margin.isNaN && !$0.atEdge })
    }
}

private func AssessmentRowsByCriterion(_ rows: [ResonanceChoiceRow]) -> [String: ResonanceChoiceRow] {
    Dictionary(uniqueKeysWithValues: rows.map { ($0.criterion, $0) })
}
