import Foundation

/// The stress engine's score of one short window (`window_method`; docs/engines/heart-coach.md,
/// Stress windows). `product` is the daily formula in window mode (`StressWindowMode`,
/// against a reference period); the others compare the window with the person's own
/// rolling reference, the windows of the last `reference_minutes` before it, so they use
/// only the past of the recording and no label.
public enum StressWindowMethod: Int, CaseIterable, Sendable {
    case product = 0, adaptiveRange, onset, beatHRV, respiration
    case pulseHR, pulseHRV, skinConductance, phasicResponses, skinTemperature, pulseConductance

    public var name: String {
        switch self {
        case .product: "product"
        case .adaptiveRange: "adaptive_range"
        case .onset: "onset"
        case .beatHRV: "beat_hrv"
        case .respiration: "respiration"
        case .pulseHR: "pulse_hr"
        case .pulseHRV: "pulse_hrv"
        case .skinConductance: "scl"
        case .phasicResponses: "scr"
        case .skinTemperature: "skin_temp"
        case .pulseConductance: "pulse_scl"
        }
    }

    /// The methods that need no reference period: the variants a watch runs on its own history.
    public static let rolling: [StressWindowMethod] = [.adaptiveRange, .onset, .beatHRV, .respiration]
    /// The rolling methods on a wristband's other channels (`StressChannelMeasures`): from
    /// the pulse wave and the accelerometer, then those that need skin conductance or temperature.
    public static let pulseWave: [StressWindowMethod] = [.pulseHR, .pulseHRV]
    public static let skin: [StressWindowMethod] = [.skinConductance, .phasicResponses, .skinTemperature, .pulseConductance]
}

/// One detected beat: the time it was detected (epoch ms) and the R-R interval ending there (ms).
public struct StressBeat: Equatable, Sendable {
    public var tMs: Int64
    public var rrMs: Double

    public init(tMs: Int64, rrMs: Double) {
        self.tMs = tMs; self.rrMs = rrMs
    }
}

/// What a watch measures over one window from its 1-Hz heart rate and the beats it detected.
public struct StressWindowMeasures: Equatable, Sendable {
    /// Mean HR of the window's samples, bpm.
    public var hrBpm: Double?
    /// SDNN (ms) when the window's R-R pass the HRV stage's reliability rule.
    public var sdnnMs: Double?
    /// RMSSD (ms) of the window's consecutive beats, whatever their coverage.
    public var beatRMSSDMs: Double?
    /// Σ R-R of the window's beats / the window's length, 0–1.
    public var beatCoverage: Double
    /// Breaths per minute from the respiratory sinus arrhythmia peak, where beats are dense.
    public var respirationPerMin: Double?
    /// The wristband's other channels over the window.
    public var channels = StressChannelMeasures()

    public init(hrBpm: Double?, sdnnMs: Double? = nil, beatRMSSDMs: Double? = nil, beatCoverage: Double = 0,
                respirationPerMin: Double? = nil) {
        self.hrBpm = hrBpm; self.sdnnMs = sdnnMs; self.beatRMSSDMs = beatRMSSDMs
        self.beatCoverage = beatCoverage; self.respirationPerMin = respirationPerMin
    }

    /// The beat measures of the beats detected in [startMs, endMs) (`beats` sorted by time):
    /// coverage = min(1, Σ R-R / window); RMSSD over successive pairs of consecutive beats
    /// (a beat follows the previous one when their time difference is within
    /// `beat_gap_tolerance_ms` of its R-R; Task Force 1996), at least `beat_min_pairs` of
    /// them; the respiration rate as 60 × the frequency of the largest Lomb–Scargle peak of
    /// the R-R series in [`respiration_min_hz`, `respiration_max_hz`] (the respiratory sinus
    /// arrhythmia; Schäfer & Kratky 2008) when coverage ≥ `respiration_coverage_min`.
    public static func beats(_ beats: ArraySlice<StressBeat>, startMs: Int64, endMs: Int64,
                             constants c: StressConstants) -> (coverage: Double, rmssdMs: Double?, respirationPerMin: Double?) {
        let inside = beats.filter { $0.tMs >= startMs && $0.tMs < endMs }
        guard endMs > startMs, !inside.isEmpty else { return (0, nil, nil) }
        let coverage = min(1, inside.reduce(0) { $0 + $1.rrMs } / Double(endMs - startMs))
        var squares = 0.0, pairs = 0
        for (a, b) in zip(inside, inside.dropFirst()) where abs(Double(b.tMs - a.tMs) - b.rrMs) <= c.beatGapToleranceMs {
            squares += (b.rrMs - a.rrMs) * (b.rrMs - a.rrMs)
            pairs += 1
        }
        let rmssd = Double(pairs) >= c.beatMinPairs ? (squares / Double(pairs)).squareRoot() : nil
        var respiration: Double?
        if coverage >= c.respirationCoverageMin, let t0 = inside.first?.tMs {
            let s = LombScargle.psd(timesS: inside.map { Double($0.tMs - t0) / 1000 }, values: inside.map(\.rrMs),
                                    maxHz: c.respirationMaxHz)
            let band = s.bins(c.respirationMinHz, c.respirationMaxHz + s.df / 2)
            if let k = band.max(by: { s.psd[$0] < s.psd[$1] }), s.psd[k] > 0 { respiration = 60 * s.frequency(k) }
        }
        return (coverage, rmssd, respiration)
    }
}

/// The person's own rolling reference for one window: the measures of the windows that
/// ended at or before its start, within `reference_minutes`, and the mean HR of the
/// `onset_minutes` before it.
public struct StressReference: Equatable, Sendable {
    public var windows: [StressWindowMeasures]
    public var onsetHRBpm: Double?

    public init(windows: [StressWindowMeasures], onsetHRBpm: Double?) {
        self.windows = windows; self.onsetHRBpm = onsetHRBpm
    }
}

/// The parts every rolling method is built from (each nil without its measure or enough
/// reference); the learned reference's features.
public struct StressWindowComponents: Equatable, Sendable {
    /// Mid-rank percentile (0–100) of the window's HR among the reference windows' HR.
    public var hrPercentile: Double?
    /// Window HR − mean HR of the onset minutes, bpm.
    public var onsetBpm: Double?
    /// Percentiles (0–100) of the reliable SDNN, the beat RMSSD and the respiration rate
    /// among the reference windows' own.
    public var sdnnPercentile: Double?
    public var rmssdPercentile: Double?
    public var respirationPercentile: Double?
    /// 0–1: the beat coverage ramp for the RMSSD (0 without an RMSSD percentile).
    public var hrvConfidence = 0.0
    /// Percentiles (0–100) of the channel measures among the reference windows' own
    /// (`StressChannelMeasures`: pulse-wave HR and RMSSD, skin conductance level, phasic
    /// responses per minute and their amplitude, temperature change).
    public var pulseHRPercentile: Double?
    public var pulseRMSSDPercentile: Double?
    public var sclPercentile: Double?
    public var scrPercentile: Double?
    public var scrAmplitudePercentile: Double?
    public var tempChangePercentile: Double?
    /// The window is dominated by movement: its moving share ≥ `motion_gate_fraction`.
    public var moving = false
}

extension StressEngine {
    /// Mid-rank percentile of `x` among `reference`: 100 × (#below + ½ #equal) / n.
    static func percentile(_ x: Double, among reference: [Double]) -> Double {
        var below = 0.0
        for r in reference { below += r < x ? 1 : r == x ? 0.5 : 0 }
        return 100 * below / Double(reference.count)
    }

    /// The components of `window` against `reference`.
    public func components(_ w: StressWindowMeasures, reference r: StressReference) -> StressWindowComponents {
        var out = StressWindowComponents()
        func percentile(_ value: Double?, _ key: KeyPath<StressWindowMeasures, Double?>, min: Double) -> Double? {
            guard let value else { return nil }
            let ref = r.windows.compactMap { $0[keyPath: key] }
            return Double(ref.count) >= min ? Self.percentile(value, among: ref) : nil
        }
        out.hrPercentile = percentile(w.hrBpm, \.hrBpm, min: constants.referenceMinWindows)
        if let hr = w.hrBpm, let onset = r.onsetHRBpm { out.onsetBpm = hr - onset }
        out.sdnnPercentile = percentile(w.sdnnMs, \.sdnnMs, min: constants.referenceMinHRVWindows)
        out.rmssdPercentile = percentile(w.beatRMSSDMs, \.beatRMSSDMs, min: constants.referenceMinHRVWindows)
        out.respirationPercentile = percentile(w.respirationPerMin, \.respirationPerMin, min: constants.referenceMinHRVWindows)
        if out.rmssdPercentile != nil {
            out.hrvConfidence = ramp(w.beatCoverage, from: constants.beatCoverageMin, 0, to: constants.beatCoverageFull, 1)
        }
        let m = constants.referenceMinWindows
        out.pulseHRPercentile = percentile(w.channels.pulseHRBpm, \.channels.pulseHRBpm, min: m)
        out.pulseRMSSDPercentile = percentile(w.channels.pulseRMSSDMs, \.channels.pulseRMSSDMs, min: constants.referenceMinHRVWindows)
        out.sclPercentile = percentile(w.channels.sclMicroS, \.channels.sclMicroS, min: m)
        out.scrPercentile = percentile(w.channels.scrPerMin, \.channels.scrPerMin, min: m)
        out.scrAmplitudePercentile = percentile(w.channels.scrAmplitudeMicroS, \.channels.scrAmplitudeMicroS, min: m)
        out.tempChangePercentile = percentile(w.channels.tempChangeC, \.channels.tempChangeC, min: m)
        out.moving = (w.channels.movingFraction ?? 0) >= constants.motionGateFraction
        return out
    }

    /// The 0–100 window score of a rolling method (nil without its inputs):
    /// - adaptive range: the HR percentile, averaged with 100 − the SDNN percentile when
    ///   the window's R-R are reliable;
    /// - onset: 50 + `onset_points_per_bpm` × the onset ΔHR, clamped to 0–100;
    /// - beat HRV: k × (100 − RMSSD percentile) + (1 − k) × HR percentile, k the beat
    ///   coverage confidence (so a window with too few beats scores its HR percentile);
    /// - respiration: the respiration-rate percentile where beats are dense (faster
    ///   breathing scores higher), else the HR percentile.
    /// The channel methods score 50 (no claim) in a window dominated by movement, and
    /// fall back to the HR percentile without their channel (`channelScore`).
    /// `product` has no rolling score (it needs the reference period: `StressWindowMode`).
    public func windowScore(_ p: StressWindowComponents, method: StressWindowMethod) -> Double? {
        switch method {
        case .product: return nil
        case .pulseHR, .pulseHRV, .skinConductance, .phasicResponses, .skinTemperature, .pulseConductance:
            return channelScore(p, method: method)
        case .adaptiveRange:
            guard let hr = p.hrPercentile else { return nil }
            return p.sdnnPercentile.map { (hr + 100 - $0) / 2 } ?? hr
        case .onset:
            return p.onsetBpm.map { clamp(50 + constants.onsetPointsPerBpm * $0, 0...100) }
        case .beatHRV:
            guard let hr = p.hrPercentile else { return nil }
            return p.rmssdPercentile.map { p.hrvConfidence * (100 - $0) + (1 - p.hrvConfidence) * hr } ?? hr
        case .respiration:
            guard let hr = p.hrPercentile else { return nil }
            return p.respirationPercentile ?? hr
        }
    }
}

extension StressEngine {
    /// The channel methods' 0–100 score (nil without an HR percentile), from the person's
    /// own reference ranges (Iqbal et al. 2022), each channel's direction under acute stress:
    /// - pulse HR: the pulse-wave HR percentile (HR rises; Kudielka et al. 2004);
    /// - pulse HRV: the mean of that and 100 − the pulse-wave RMSSD percentile (vagal
    ///   withdrawal; Kim et al. 2018);
    /// - scl: the skin conductance level percentile (sympathetic sudomotor drive; Boucsein 2012);
    /// - scr: the mean of the phasic responses' rate and amplitude percentiles (Boucsein 2012);
    /// - skin temp: 100 − the temperature change percentile (peripheral vasoconstriction
    ///   cools the skin; Vinkers et al. 2013);
    /// - pulse + scl: the mean of the pulse HR and scl scores (Healey & Picard 2005).
    /// Each missing channel falls back to the HR percentile; a moving window scores 50.
    func channelScore(_ p: StressWindowComponents, method: StressWindowMethod) -> Double? {
        guard let hr = p.hrPercentile else { return nil }
        if p.moving { return 50 }
        let pulse = p.pulseHRPercentile ?? hr, scl = p.sclPercentile ?? hr
        switch method {
        case .pulseHR: return pulse
        case .pulseHRV: return p.pulseRMSSDPercentile.map { (pulse + 100 - $0) / 2 } ?? pulse
        case .skinConductance: return scl
        case .phasicResponses:
            guard let rate = p.scrPercentile, let amplitude = p.scrAmplitudePercentile else { return hr }
            return (rate + amplitude) / 2
        case .skinTemperature: return p.tempChangePercentile.map { 100 - $0 } ?? hr
        case .pulseConductance: return (pulse + scl) / 2
        default: return nil
        }
    }
}
