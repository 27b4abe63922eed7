import Foundation
import XCTest
@testable import ResonanceLab

/// Pulse onsets, beat quality and the beats stage on synthetic signals with known beats.
final class BeatsStageTests: XCTestCase {
    /// Beat times from 1 s on, R-R 0.7–1.1 s, seeded.
    private func beatTimes(seconds: Double, seed: UInt64 = 5) -> [Double] {
        var random = SeededRandom(seed: seed)
        var t = 1.0, out: [Double] = []
        while t < seconds - 1 {
            out.append(t)
            t += random.uniform(0.7, 1.1)
        }
        return out
    }

    /// A pulse wave: each pulse a 150-ms rise (half a cosine period, starting flat) then
    /// an exponential decay (τ 0.3 s), the pulses added up, so the wave is continuous and
    /// its foot lies within 2 ms after each onset; sampled at `rateHz`.
    private func pulseWave(_ onsets: [Double], seconds: Double, rateHz: Double) -> [Double] {
        (0..<Int(seconds * rateHz)).map { i in
            let t = Double(i) / rateHz
            return onsets.reduce(0) { sum, o in
                let tau = t - o
                guard tau >= 0 else { return sum }
                return sum + (tau < 0.15 ? (1 - cos(.pi * tau / 0.15)) / 2 : exp(-(tau - 0.15) / 0.3))
            }
        }
    }

    /// A synthetic ECG beat train (R σ 10 ms, T wave at +250 ms).
    private func ecg(_ beats: [Double], seconds: Double, rateHz: Double) -> [Double] {
        (0..<Int(seconds * rateHz)).map { i in
            let t = Double(i) / rateHz
            return beats.reduce(0) { sum, b in
                sum + exp(-0.5 * pow((t - b) / 0.010, 2)) + 0.3 * exp(-0.5 * pow((t - b - 0.25) / 0.040, 2))
            }
        }
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
