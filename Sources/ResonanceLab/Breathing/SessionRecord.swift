import Foundation

/// Beat times of a heart whose rate follows a sampled heart-rate curve: integral pulse
/// frequency modulation (Bayly 1968, "Spectral analysis of pulse frequency modulation
/// in the nervous systems", IEEE Trans Biomed Eng 15:257) — a beat each time the
/// integral of HR/60 from the start reaches the next whole number, the rate held over
/// each sample. Deterministic: the simulation's R-R need no random draw of their own.
public enum PulseFrequencyModulation {
    /// Beat times (s from the first sample) of `hr` (bpm, one sample every 1/`hz` s).
    public static func beats(hr: [Double], hz: Double) -> [Double] {
        var out: [Double] = [], phase = 0.0
        for (i, bpm) in hr.enumerated() where bpm > 0 {
            let rate = bpm / 60
            var t = Double(i) / hz, left = 1 / hz
            while phase + rate * left >= 1 {
                let dt = (1 - phase) / rate
                t += dt
                left -= dt
                out.append(t)
                phase = 0
            }
            phase += rate * left
        }
        return out
    }
}

/// One row of `breathing_sim_records.csv`: the summary the product stores at the end of
/// one simulated session, each field replayed as the product computes it, beside what
/// the field's name promises (docs/methods.md, Breathing, "The session record").
public struct SessionRecordRow: Sendable, Equatable {
    public var seed: Int
    public var persona: String
    public var strategy: String
    /// Session length, s.
    public var durationSeconds: Double
    /// `averageRMSSD` as stored: the RMSSD of the intervals of the session's last 30 s, ms.
    public var recordedAverageRMSSDMs: Double
    /// The mean over the session of that 30-s RMSSD, taken every second once two
    /// intervals are in the window, ms.
    public var meanRMSSDMs: Double
    /// `peakCoherence` as stored: the session's last coherence score.
    public var recordedPeakCoherence: Double
    /// The session's highest coherence score.
    public var peakCoherence: Double
    /// The resonance rate as stored: the pacer's final rate, breaths/min.
    public var recordedResonanceRateBpm: Double
    /// The simulated person's resonance rate, breaths/min.
    public var resonanceRateBpm: Double
    /// Mean of the product's coherence every 0.25 s on the watch's 4 Hz series (the
    /// latest beat's HR repeated) and on the R-R-derived 4 Hz series (cubic spline).
    public var watchCoherence: Double
    public var rrCoherence: Double
    /// Mean |watch − R-R-derived| coherence over the same scores.
    public var coherenceMeanAbsDifference: Double
}

extension SessionRecordRow: CanonicalRow {
    public static let fileName = "breathing_sim_records.csv"
    public static let header = ["seed", "persona", "strategy", "duration_s", "recorded_average_rmssd_ms", "mean_rmssd_ms",
                                "recorded_peak_coherence", "peak_coherence", "recorded_resonance_rate_bpm",
                                "resonance_rate_bpm", "watch_coherence", "rr_coherence", "coherence_mean_abs_diff"]

    public func write(to w: CSVWriter) {
        w.field(seed); w.field(persona); w.field(strategy); w.field(durationSeconds); w.field(recordedAverageRMSSDMs)
        w.field(meanRMSSDMs); w.field(recordedPeakCoherence); w.field(peakCoherence); w.field(recordedResonanceRateBpm)
        w.field(resonanceRateBpm); w.field(watchCoherence); w.field(rrCoherence); w.field(coherenceMeanAbsDifference)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(seed: try r.count("seed"), persona: try r.string("persona"), strategy: try r.string("strategy"),
                  durationSeconds: try r.double("duration_s"),
                  recordedAverageRMSSDMs: try r.doubleOrNaN("recorded_average_rmssd_ms"),
                  meanRMSSDMs: try r.doubleOrNaN("mean_rmssd_ms"), recordedPeakCoherence: try r.double("recorded_peak_coherence"),
                  peakCoherence: try r.double("peak_coherence"),
                  recordedResonanceRateBpm: try r.double("recorded_resonance_rate_bpm"),
                  resonanceRateBpm: try r.double("resonance_rate_bpm"), watchCoherence: try r.doubleOrNaN("watch_coherence"),
                  rrCoherence: try r.doubleOrNaN("rr_coherence"),
                  coherenceMeanAbsDifference: try r.doubleOrNaN("coherence_mean_abs_diff"))
    }
}

/// The product's session record replayed on a simulated session.
public enum SessionRecord {
    /// The product's sliding RMSSD at `now` (s) over intervals `rrMs` that arrived at
    /// `times` (s, ascending): RMSSD of those at or after now − `windowSeconds`
    /// (`pacer.rmssd_window_seconds`); nil below two.
    static func rmssd(at now: Double, times: [Double], rrMs: [Double], windowSeconds: Double) -> Double? {
        let from = times.firstIndex { $0 >= now - windowSeconds } ?? times.count
        let last = times.lastIndex { $0 <= now }.map { $0 + 1 } ?? 0
        guard last - from >= 2 else { return nil }
        return HRVTime.rmssd(Array(rrMs[from..<last]))
    }

    /// The record of `session` on `world`: beats from its 4 Hz heart rate
    /// (`PulseFrequencyModulation`), each interval arriving at its closing beat.
    public static func replay(_ session: SimulatedSession, world: ResonanceWorld, seed: Int, strategy: PacerStrategy,
                              product: ProductCoherence, pacer: PacerConstants) -> SessionRecordRow {
        let hz = product.sampleHz
        let duration = Double(session.hr.count) / hz
        let beats = PulseFrequencyModulation.beats(hr: session.hr, hz: hz)
        let times = Array(beats.dropFirst())
        let rr = zip(beats, beats.dropFirst()).map { ($1 - $0) * 1000 }
        let window = pacer.rmssdWindowSeconds
        let recordedRMSSD = rmssd(at: duration, times: times, rrMs: rr, windowSeconds: window) ?? .nan
        let perSecond = stride(from: 1.0, through: duration, by: 1).compactMap {
            rmssd(at: $0, times: times, rrMs: rr, windowSeconds: window)
        }
        // The two 4 Hz series of the same beats, both from the first beat.
        let beatMs = beats.map { $0 * 1000 }, beatHR = rr.map { 60_000 / $0 }
        let closing = Array(beatMs.dropFirst())
        let watch = HRSampling.repeatLatest.grid(timeMs: closing, bpm: beatHR, hz: hz)
        let spline = HRSampling.spline.grid(timeMs: closing, bpm: beatHR, hz: hz)
        let every = max(1, Int((pacer.stepSeconds * hz).rounded()))
        var watchSum = 0.0, rrSum = 0.0, absSum = 0.0, n = 0
        let t0 = closing.first ?? 0
        for j in stride(from: every - 1, to: min(watch.count, spline.count), by: every) {
            let sample = min(session.rates.count - 1, Int(((t0 / 1000) * hz).rounded(.down)) + j)
            guard sample >= 0 else { continue }
            let f = session.rates[sample] / 60
            let a = product.score(watch[...j], breathingHz: f), b = product.score(spline[...j], breathingHz: f)
            watchSum += a; rrSum += b; absSum += abs(a - b); n += 1
        }
        let mean = { (sum: Double) in n == 0 ? Double.nan : sum / Double(n) }
        return SessionRecordRow(seed: seed, persona: world.persona, strategy: strategy.rawValue, durationSeconds: duration,
                                recordedAverageRMSSDMs: recordedRMSSD,
                                meanRMSSDMs: perSecond.isEmpty ? .nan : Stats.mean(perSecond),
                                recordedPeakCoherence: session.lastCoherence, peakCoherence: session.maxCoherence,
                                recordedResonanceRateBpm: session.lockedRateBpm, resonanceRateBpm: world.plantedRateBpm,
                                watchCoherence: mean(watchSum), rrCoherence: mean(rrSum), coherenceMeanAbsDifference: mean(absSum))
    }
}
