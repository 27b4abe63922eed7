/// HR and HRV at the start and end of an interval (a play or a session) and their
/// changes, with where the HRV came from and what limited the data.
public struct WindowBiometrics: Equatable, Sendable {
    public var hrStart: Double?
    public var hrEnd: Double?
    public var hrvStart: Double?
    public var hrvEnd: Double?
    /// `rr` (RMSSD of the cleaned NN intervals), `sdnn_sample` (nearest wearable SDNN
    /// sample), or empty when no HRV.
    public var hrvSource: String
    /// Data-quality notes: `no_physiology`, `few_hr_samples`, `few_beats`, `artifacts`,
    /// `hr_nearest_within_<N>s` (a level read from the nearest sparse sample).
    public var notes: [String]

    public var hrDelta: Double? { hrEnd.flatMap { e in hrStart.map { e - $0 } } }
    public var hrvDelta: Double? { hrvEnd.flatMap { e in hrvStart.map { e - $0 } } }

    /// Quality note of a level read from the nearest sample, with the tolerance.
    static func nearestNote(_ maxMs: Int64) -> String { "hr_nearest_within_\(maxMs / 1000)s" }

    public static let none = WindowBiometrics(hrStart: nil, hrEnd: nil, hrvStart: nil, hrvEnd: nil, hrvSource: "", notes: ["no_physiology"])
}

/// Where to look for the start and end values.
public struct BiometricWindows: Sendable {
    public var hrStart: ClosedRange<Int64>
    public var hrEnd: ClosedRange<Int64>
    public var rrStart: ClosedRange<Int64>
    public var rrEnd: ClosedRange<Int64>
    /// Anchors for the nearest SDNN sample (within `play_hrv_sample_max_minutes`).
    public var anchorStart: Int64
    public var anchorEnd: Int64

    /// A play: median HR of its first and last `play_hr_window_seconds`, RMSSD of its
    /// first and last `play_rr_window_seconds` (ultra-short RMSSD; Munoz et al. 2015,
    /// PLoS One 10:e0138921, show 60 s RMSSD agrees with 5 min, r > 0.9).
    public static func play(startMs: Int64, endMs: Int64, constants c: SessionConstants) -> BiometricWindows {
        BiometricWindows(
            hrStart: startMs...min(endMs, startMs + c.playHRWindowMs), hrEnd: max(startMs, endMs - c.playHRWindowMs)...endMs,
            rrStart: startMs...min(endMs, startMs + c.playRRWindowMs), rrEnd: max(startMs, endMs - c.playRRWindowMs)...endMs,
            anchorStart: startMs, anchorEnd: endMs)
    }

    /// A session: the ±`biometric_window_minutes` window around its start and its end.
    public static func session(startMs: Int64, endMs: Int64, constants c: SessionConstants) -> BiometricWindows {
        let w = c.biometricWindowMs
        return BiometricWindows(hrStart: (startMs - w)...(startMs + w), hrEnd: (endMs - w)...(endMs + w),
                                rrStart: (startMs - w)...(startMs + w), rrEnd: (endMs - w)...(endMs + w),
                                anchorStart: startMs, anchorEnd: endMs)
    }
}

extension ListenerPhysiology {
    /// Measures the start and end values in `windows`. HRV comes from the NN
    /// intervals for both ends when both windows are reliable (enough beats, few
    /// artifacts), else from the nearest SDNN samples for both ends (two distinct
    /// samples needed for a change), never mixed.
    public func measure(_ windows: BiometricWindows, constants c: SessionConstants) -> WindowBiometrics {
        var notes: [String] = []
        let minHR = Int(c.playMinHRSamples)
        func medianHR(_ w: ClosedRange<Int64>) -> Double? {
            let v = hr.values(fromMs: w.lowerBound, throughMs: w.upperBound)
            if v.isEmpty { return nil }
            if v.count < minHR { if !notes.contains("few_hr_samples") { notes.append("few_hr_samples") }; return nil }
            return Stats.median(Array(v))
        }
        var hrStart = medianHR(windows.hrStart), hrEnd = medianHR(windows.hrEnd)
        // Sparse heart rate (a watch at rest): a window without samples takes the
        // nearest sample within play_hr_nearest_max_minutes of its anchor; a change
        // needs two distinct samples.
        let emptyStart = hr.indices(fromMs: windows.hrStart.lowerBound, throughMs: windows.hrStart.upperBound).isEmpty
        let emptyEnd = hr.indices(fromMs: windows.hrEnd.lowerBound, throughMs: windows.hrEnd.upperBound).isEmpty
        if emptyStart || emptyEnd {
            let maxMs = c.playHRNearestMaxMs
            let i = emptyStart ? hr.nearest(toMs: windows.anchorStart, withinMs: maxMs) : nil
            let j = emptyEnd ? hr.nearest(toMs: windows.anchorEnd, withinMs: maxMs) : nil
            if let i { hrStart = hr.values[i] }
            if let j, j != i { hrEnd = hr.values[j] }
            if i != nil || j != nil { notes.append(WindowBiometrics.nearestNote(maxMs)) }
        }
        var hrvStart: Double?, hrvEnd: Double?, source = ""
        let a = rmssd(windows.rrStart, c), b = rmssd(windows.rrEnd, c)
        if let x = a.value, let y = b.value {
            (hrvStart, hrvEnd, source) = (x, y, "rr")
        } else {
            for note in a.notes + b.notes where !notes.contains(note) { notes.append(note) }
            let maxMs = c.playHRVSampleMaxMs
            let i = sdnn.nearest(toMs: windows.anchorStart, withinMs: maxMs)
            let j = sdnn.nearest(toMs: windows.anchorEnd, withinMs: maxMs)
            if let i, let j, i != j {
                (hrvStart, hrvEnd, source) = (sdnn.values[i], sdnn.values[j], "sdnn_sample")
            } else if let k = i ?? j {
                // One sample only: a level but no change.
                (hrvStart, source) = (sdnn.values[k], "sdnn_sample")
            }
        }
        // Nothing measured and no reason given: samples lie in the play but none
        // at either end, which is no physiology for this play.
        if hrStart == nil && hrEnd == nil && hrvStart == nil && hrvEnd == nil && notes.isEmpty { return .none }
        return WindowBiometrics(hrStart: hrStart, hrEnd: hrEnd, hrvStart: hrvStart, hrvEnd: hrvEnd, hrvSource: source, notes: notes)
    }

    /// RMSSD (ms) of the NN intervals whose closing beat lies in `w`, on the listener's
    /// cleaned NN series: the R-R intervals of the registry's plausibility range,
    /// corrected by the artifact method of `hrv.csv` (Lipponen & Tarvainen 2019), so a
    /// play's RMSSD and a window's RMSSD in `hrv.csv` are the same measurement. No
    /// difference spans a gap (`NNSeries.runStart`). Nil, with the reason, when the window
    /// is empty, has fewer than `play_min_beats` beats (or no successive pair), or more
    /// than `play_max_artifact_pct` % of its intervals corrected.
    func rmssd(_ w: ClosedRange<Int64>, _ c: SessionConstants) -> (value: Double?, notes: [String]) {
        let r = nn.range(fromMs: Double(w.lowerBound), toMs: Double(w.upperBound).nextUp)
        if r.isEmpty { return (nil, []) }
        if r.count < Int(c.playMinBeats) { return (nil, ["few_beats"]) }
        let corrected = nn.artifact[r].reduce(0) { $0 + ($1 == .none ? 0 : 1) }
        if Double(corrected) * 100 / Double(r.count) > c.playMaxArtifactPct { return (nil, ["artifacts"]) }
        let value = HRVTime.rmssd(NNWindow(nn, r))
        return value.isFinite ? (value, []) : (nil, ["few_beats"])
    }
}
