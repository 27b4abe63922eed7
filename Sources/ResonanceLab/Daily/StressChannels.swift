import Foundation

/// What a wristband's other channels give the stress engine over one window
/// (docs/engines/heart-coach.md, Stress windows): heart rate and RMSSD from the pulse
/// wave's reliable beats, motion from the accelerometer, skin conductance level and phasic
/// responses, skin temperature change. Every value is computed from samples at or before
/// the window's end (causal filters, trailing windows), with no label.
public struct StressChannelMeasures: Equatable, Sendable {
    /// 60 000 / mean interval of the window's reliable pulse-wave beats, bpm (at least
    /// `pulse_min_beats` of them).
    public var pulseHRBpm: Double?
    /// RMSSD of the window's consecutive reliable pulse-wave beats, ms.
    public var pulseRMSSDMs: Double?
    /// Mean over the window's seconds of the accelerometer magnitude's SD in that second, g.
    public var motionG: Double?
    /// Share of the window's seconds whose magnitude SD exceeds `motion_gate_g`, 0–1.
    public var movingFraction: Double?
    /// Mean skin conductance level (EDA after the causal low-pass), µS.
    public var sclMicroS: Double?
    /// Phasic responses peaking in the window, per minute, and their summed amplitude, µS.
    public var scrPerMin: Double?
    public var scrAmplitudeMicroS: Double?
    /// Mean low-passed skin temperature of the window − that of the `onset_minutes` before it, °C.
    public var tempChangeC: Double?

    public init() {}
}

/// One subject's wristband channels processed causally over the whole recording, ready to
/// be cut into windows: the reliable pulse-wave beats, the per-second motion, the skin
/// conductance level, the phasic responses (at their peaks) and the low-passed temperature.
public struct StressChannelSeries: Sendable {
    public var pulseBeats: [StressBeat] = []
    public var motionG = TimeSeries([])
    public var scl = TimeSeries([])
    public var responses = TimeSeries([])
    public var temperature = TimeSeries([])

    public init() {}

    /// First-order causal low-pass (an RC filter: y[n] = y[n−1] + α (x[n] − y[n−1]),
    /// α = Δt / (RC + Δt), RC = 1 / (2π f_c); Smith 1997, ch. 19), started at the first sample.
    public static func lowPass(_ x: [Double], rateHz: Double, cutoffHz: Double) -> [Double] {
        guard let first = x.first, rateHz > 0, cutoffHz > 0 else { return x }
        let dt = 1 / rateHz, rc = 1 / (2 * Double.pi * cutoffHz), alpha = dt / (rc + dt)
        var y = first
        return x.map { v in
            y += alpha * (v - y)
            return y
        }
    }

    /// Phasic skin conductance responses of `phasic` (EDA − its level), found as it arrives:
    /// a response is a rise from the lowest value since the last response's peak that
    /// reaches at least `minAmplitude` µS and then turns down; its time is the peak's and its
    /// amplitude the rise (trough-to-peak scoring, 0.01 µS minimum; Boucsein et al. 2012).
    /// Returns (sample index of the peak, amplitude µS).
    public static func responses(_ phasic: [Double], minAmplitude: Double) -> [(index: Int, amplitude: Double)] {
        var out: [(index: Int, amplitude: Double)] = []
        guard var trough = phasic.first else { return out }
        for i in phasic.indices.dropFirst() {
            let rise = phasic[i - 1] - trough
            if phasic[i] < phasic[i - 1], rise >= minAmplitude {
                out.append((i - 1, rise))
                trough = phasic[i]
            }
            trough = min(trough, phasic[i])
        }
        return out
    }

    /// The accelerometer magnitude's SD in each whole second (the magnitude √(x²+y²+z²),
    /// in g after `gPerUnit`), stamped at the second's end; the E4 counts 1/64 g.
    public static func motion(x: [Double], y: [Double], z: [Double], rateHz: Double, startMs: Int64,
                              gPerUnit: Double) -> [(timeMs: Int64, value: Double)] {
        let n = min(x.count, y.count, z.count), perSecond = Int(rateHz.rounded())
        guard perSecond > 1 else { return [] }
        let magnitude: [Double] = (0..<n).map { (i: Int) -> Double in
            let squares: Double = x[i] * x[i] + y[i] * y[i] + z[i] * z[i]
            return squares.squareRoot() * gPerUnit
        }
        return stride(from: 0, through: n - perSecond, by: perSecond).map { s in
            let second = Array(magnitude[s..<s + perSecond])
            let endMs = startMs + Int64((Double(s + perSecond) / rateHz * 1000).rounded())
            return (timeMs: endMs, value: Stats.sd(second))
        }
    }
}

extension StressChannelSeries {
    /// The channel measures over [startMs, endMs), the temperature change against the
    /// `onset_minutes` before startMs.
    public func measures(startMs: Int64, endMs: Int64, constants c: StressConstants) -> StressChannelMeasures {
        var m = StressChannelMeasures()
        let inside = pulseBeats.filter { $0.tMs >= startMs && $0.tMs < endMs }
        if Double(inside.count) >= c.pulseMinBeats {
            m.pulseHRBpm = 60_000 / Stats.mean(inside.map(\.rrMs))
            m.pulseRMSSDMs = StressWindowMeasures.beats(inside[...], startMs: startMs, endMs: endMs, constants: c).rmssdMs
        }
        let motion = motionG.values(fromMs: startMs + 1, throughMs: endMs)
        if !motion.isEmpty {
            m.motionG = Stats.mean(Array(motion))
            m.movingFraction = Double(motion.filter { $0 > c.motionGateG }.count) / Double(motion.count)
        }
        let level = scl.values(fromMs: startMs, throughMs: endMs - 1)
        if !level.isEmpty {
            m.sclMicroS = Stats.mean(Array(level))
            let peaks = responses.values(fromMs: startMs, throughMs: endMs - 1)
            m.scrPerMin = Double(peaks.count) * 60_000 / Double(endMs - startMs)
            m.scrAmplitudeMicroS = peaks.reduce(0, +)
        }
        let now = temperature.values(fromMs: startMs, throughMs: endMs - 1)
        let before = temperature.values(fromMs: startMs - Int64((c.onsetMinutes * 60_000).rounded()), throughMs: startMs - 1)
        if !now.isEmpty, !before.isEmpty { m.tempChangeC = Stats.mean(Array(now)) - Stats.mean(Array(before)) }
        return m
    }

    /// Window mode's inputs from the reliable detected beats over [startMs, endMs)
    /// (`window_input` 1): HR = 60 000 / their mean interval and the SDNN of their intervals
    /// (sample SD, ms) with at least `pulse_min_beats` of them, and the RMSSD of the
    /// consecutive ones (`pulseRMSSDMs`); nothing below that count.
    public func beatSignals(startMs: Int64, endMs: Int64, constants c: StressConstants) -> (WindowSignals, rmssd: Double?) {
        let inside = pulseBeats.filter { $0.tMs >= startMs && $0.tMs < endMs }
        guard Double(inside.count) >= c.pulseMinBeats, inside.count >= 2 else { return (WindowSignals(hrBpm: nil, sdnnMs: nil), nil) }
        let rr = inside.map(\.rrMs)
        return (WindowSignals(hrBpm: 60_000 / Stats.mean(rr), sdnnMs: Stats.sd(rr)),
                StressWindowMeasures.beats(inside[...], startMs: startMs, endMs: endMs, constants: c).rmssdMs)
    }
}
