import Foundation
import XCTest
@testable import ResonanceLab

/// Pulse onsets, beat quality and the beats stage on synthetic signals with known beats.
final class BeatsStageTests: XCTestCase {
    /// The timed runs: `body` runs as often as asked (at least once), and the first run's
    /// result comes back with one of the runs' times.
    func testTimingRunsGiveTheFirstResultAndRunTheBodyEachTime() {
        for (runs, calls) in [(0, 1), (1, 1), (4, 4)] {
            var made: [Int] = []
            let (result, ns) = DetectionTiming.median(of: runs) { () -> Int in
                made.append(made.count)
                return made.count - 1
            }
            XCTAssertEqual(made.count, calls, "runs \(runs)")
            XCTAssertEqual(result, 0, "runs \(runs)")
            XCTAssertGreaterThan(ns, 0)
        }
    }

    private func beatTimes(seconds: Double) -> [Double] {
        SyntheticBeats.times(seconds: seconds, from: 1, seed: 5)
    }

    private func pulseWave(_ onsets: [Double], seconds: Double, rateHz: Double) -> [Double] {
        SyntheticBeats.pulseWave(onsets, seconds: seconds, rateHz: rateHz)
    }

    private func ecg(_ beats: [Double], seconds: Double, rateHz: Double) -> [Double] {
        SyntheticBeats.ecg(beats: beats, seconds: seconds, rateHz: rateHz)
    }

    func testPulseOnsetsAtSixtyFourHertzAndInverted() {
        let onsets = beatTimes(seconds: 120)
        let x = pulseWave(onsets, seconds: 120, rateHz: 64)
        for (signal, polarity) in [(x, 1), (x.map { -$0 }, -1)] {
            let result = PPGOnsets.detect(signal, rateHz: 64)
            XCTAssertEqual(result.polarity, polarity)
            let match = BeatMatch.match(detected: result.onsets.map { $0 / 64 }, reference: onsets, window: 0.050)
            XCTAssertEqual(match.falseNegatives, 0)
            XCTAssertEqual(match.falsePositives, 0)
            // A 15.6-ms grid: the foot to within one sample.
            XCTAssertLessThanOrEqual(match.offsets.map(abs).max() ?? 1, 1.0 / 64)
        }
    }

    /// An E4 session whose wrist shakes (±1 g at 3 Hz on x) from 60 to 90 s: every
    /// beat inside the burst carries its motion and none of its intervals is reliable,
    /// while those before and after still are.
    func testAMotionBurstOnTheAccelerometerIsFlagged() throws {
        let dir = try makeTempDir() + "/S01"
        let onsets = beatTimes(seconds: 150)
        let bvp = pulseWave(onsets, seconds: 150, rateHz: 64)
        try writeFixture("1700000000\n64\n" + bvp.map { String(format: "%.2f", 100 * $0) }.joined(separator: "\n") + "\n",
                         to: dir + "/BVP.csv")
        var acc = "1700000000, 1700000000, 1700000000\n32, 32, 32\n"
        for i in 0..<(150 * 32) {
            let t = Double(i) / 32
            let shake = t >= 60 && t < 90 ? 64 * sin(2 * .pi * 3 * t) : 0
            acc += "\(Int(shake.rounded())),0,64\n"
        }
        try writeFixture(acc, to: dir + "/ACC.csv")
        let (ws, _) = try importSources([dir])
        try BeatsStage().runCommitted(ws, StageContext())
        let beats = try ws.read(DetectedBeat.self)
        func at(_ b: DetectedBeat) -> Double { Double(b.timestampMs) / 1000 - 1_700_000_000 }
        let inBurst = beats.filter { at($0) >= 62 && at($0) < 90 }
        XCTAssertGreaterThan(inBurst.count, 20)
        XCTAssertGreaterThanOrEqual(Double(inBurst.filter { ($0.motionG ?? 0) > 0.05 }.count) / Double(inBurst.count), 0.9)
        XCTAssertFalse(inBurst.contains(where: \.reliable))
        let still = beats.filter { at($0) >= 20 && at($0) < 58 || at($0) >= 100 && at($0) < 140 }
        XCTAssertTrue(still.allSatisfy { ($0.motionG ?? 1) < 0.01 })
        XCTAssertGreaterThan(still.filter(\.reliable).count, still.count - 2)
    }

    /// The synthetic sample's pulse wave (datasets/sample/S01/BVP.csv and ACC.csv, written
    /// by scripts/data/sample_pulse_wave.py): over its first 300 s the pulse feet lie at the
    /// beats of S01's IBI.csv, and the wrist moves from 180 to 190 s. Every IBI.csv beat
    /// outside the burst is found within 50 ms; no interval inside it is reliable.
    func testTheSamplePulseWaveGivesTheBeatsOfItsIBIFile() throws {
        let (ws, _) = try importSources([PipelineTests.sample])
        try BeatsStage().runCommitted(ws, StageContext())
        let start = 1_699_999_990.0
        func seconds(_ ms: Int64) -> Double { Double(ms) / 1000 - start }
        let onsets = try ws.read(DetectedBeat.self).filter { $0.subject == "S01" && $0.channel == "bvp" }
        let detected = onsets.map { seconds($0.timestampMs) }
        let ibi = try ws.read(RRInterval.self).filter { $0.subject == "S01" }.map { seconds($0.timestampMs) }.filter { $0 < 300 }
        XCTAssertEqual(ibi.count, 294)
        let still = ibi.filter { $0 < 179.5 || $0 >= 190.5 }
        XCTAssertEqual(BeatMatch.match(detected: detected, reference: still, window: 0.050).falseNegatives, 0)
        XCTAssertGreaterThanOrEqual(BeatMatch.match(detected: detected, reference: ibi, window: 0.050).sensitivity ?? 0, 0.97)
        let inBurst = onsets.filter { seconds($0.timestampMs) >= 180 && seconds($0.timestampMs) < 190 }
        XCTAssertGreaterThanOrEqual(inBurst.count, 15)
        XCTAssertFalse(inBurst.contains(where: \.reliable))
        XCTAssertGreaterThanOrEqual(inBurst.filter { ($0.motionG ?? 0) > 0.05 }.count, inBurst.count - 1)
        XCTAssertGreaterThan(Double(onsets.filter(\.reliable).count) / Double(onsets.count), 0.9)
    }

    func testReliableIntervalsNeedGoodBeatsPlausibleAndNearTheRecentMedian() {
        let c = BeatQualityConstants.defaults
        let times = [0, 1, 2, 3, 4, 5, 5.5, 6.5, 7.5]
        let ok = BeatQuality.reliable(times: times, quality: [1, 1, 1, 1, 1, 1, 1, 1, 0.5], motion: Array(repeating: nil, count: 9), constants: c)
        // The first beat has no interval; 0.5 s is 50 % off the median of 1 s; the last
        // interval's closing beat is of poor quality.
        XCTAssertEqual(ok, [false, true, true, true, true, true, false, true, false])
        let moving = BeatQuality.reliable(times: [0, 1, 2], quality: [1, 1, 1], motion: [0.01, 0.2, 0.01], constants: c)
        XCTAssertEqual(moving, [false, false, false])
    }

    func testTemplateCorrelationIsOneForRepeatedBeatsAndLowForNoise() {
        let beats = beatTimes(seconds: 30)
        var x = ecg(beats, seconds: 30, rateHz: 250)
        var random = SeededRandom(seed: 9)
        // Beat 20's window replaced by noise.
        let k = Int(beats[20] * 250)
        for i in (k - 25)...(k + 100) { x[i] = random.normal() }
        let q = BeatQuality.templateCorrelation(x, rateHz: 250, at: beats.map { $0 * 250 }, constants: .defaults)
        XCTAssertEqual(q.prefix(4), [0, 0, 0, 0], "fewer than 5 beats in the template")
        XCTAssertGreaterThan(q[10], 0.999)
        XCTAssertLessThan(q[20], 0.5)
    }

    /// A BIDMC-layout CSV with an ECG lead and a pulse wave: the stage writes R peaks and
    /// onsets, their intervals reliable; a lead of pure noise gives no reliable beat and says so.
    func testStageWritesBeatsOfTheECGAndThePulseWaveAndSaysWhenNoneIsReliable() throws {
        let dir = try makeTempDir() + "/bidmc"
        let beats = beatTimes(seconds: 60)
        let rate = 125.0
        let ecgSignal = ecg(beats, seconds: 60, rateHz: rate)
        // The pulse arrives 0.2 s after the R peak.
        let pulse = pulseWave(beats.map { $0 + 0.2 }, seconds: 60, rateHz: rate)
        var random = SeededRandom(seed: 11)
        var text = "Time [s], PLETH, II\n"
        for i in ecgSignal.indices {
            text += "\(String(format: "%.5g", Double(i) / rate)),\(String(format: "%.5f", pulse[i])),\(String(format: "%.5f", ecgSignal[i]))\n"
        }
        try writeFixture(text, to: dir + "/bidmc_01_Signals.csv")
        var noise = "Time [s], PLETH, II\n"
        for i in 0..<Int(60 * rate) {
            noise += "\(String(format: "%.5g", Double(i) / rate)),\(String(format: "%.5f", random.normal())),\(String(format: "%.5f", random.normal()))\n"
        }
        try writeFixture(noise, to: dir + "/bidmc_02_Signals.csv")
        let (ws, _) = try importSources([dir])
        let notes = Notes()
        try BeatsStage().runCommitted(ws, StageContext(progress: ProgressLog { notes.add($0) }))
        let rows = try ws.read(DetectedBeat.self)
        let first = rows.filter { $0.subject == "bidmc_01" }
        let r = first.filter { $0.fiducial == "r_peak" }, onsets = first.filter { $0.fiducial == "pulse_onset" }
        XCTAssertEqual(r.map(\.source).first, "bidmc:pan-tompkins")
        XCTAssertEqual(onsets.map(\.source).first, "bidmc:elgendi-foot")
        let rMatch = BeatMatch.match(detected: r.map { Double($0.timestampMs) / 1000 }, reference: beats, window: 0.150)
        XCTAssertEqual([rMatch.falseNegatives, rMatch.falsePositives], [0, 0])
        let pMatch = BeatMatch.match(detected: onsets.map { Double($0.timestampMs) / 1000 }, reference: beats.map { $0 + 0.2 }, window: 0.050)
        XCTAssertEqual([pMatch.falseNegatives, pMatch.falsePositives], [0, 0])
        // All but the first few (a template needs 5 beats) are reliable.
        XCTAssertGreaterThan(r.filter(\.reliable).count, r.count - 6)
        XCTAssertGreaterThan(onsets.filter(\.reliable).count, onsets.count - 6)
        XCTAssertTrue(r.allSatisfy { $0.motionG == nil })
        // The noise gives detections but nothing reliable, and a note says so.
        XCTAssertFalse(rows.contains { $0.subject == "bidmc_02" && $0.reliable })
        XCTAssertTrue(notes.lines.contains { $0.hasPrefix("beats: bidmc_02 ii:") && $0.contains("none reliable") }, "\(notes.lines)")
    }
}

/// Progress lines collected from any thread.
private final class Notes: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func add(_ line: String) { lock.lock(); collected.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return collected }
}
