import Foundation

/// One subject's recording measured window by window for stress scoring: the window
/// signals window mode scores (from the source the engine's `window_input` names, or from
/// the detected beats), what a watch measures in a window for the rolling methods, and the
/// rolling reference of the windows before it.
final class StressRecording {
    let subject: String
    let options: StressScoringOptions
    let stress: StressConstants
    /// Heart rate (bpm) by time.
    let hr: TimeSeries
    /// HRV over any window of the cleaned analysis R-R (its FFT plans cached as it runs); nil without R-R.
    private var hrv: HRVWindows?
    /// The plausible analysis R-R as beats.
    let beats: [StressBeat]
    let channels: StressChannelSeries
    /// The rolling reference's windows: the same length every `reference_step_seconds`
    /// from the first heart-rate sample, each with its start.
    private(set) var grid: [(startMs: Int64, measures: StressWindowMeasures)] = []

    init(subject: String, hr: MeasurementSeries?, rr: MeasurementSeries?, options o: StressScoringOptions,
         stress: StressConstants, channels: StressChannelSeries) {
        self.subject = subject; options = o; self.stress = stress; self.channels = channels
        self.hr = TimeSeries(hr.map { h in zip(h.timestampsMs, h.values).map { (timeMs: $0.0, value: $0.1) } } ?? [])
        if let rr, !rr.values.isEmpty {
            var hrvOptions = HRVOptions()
            hrvOptions.maxArtifactPct = o.maxArtifactPct
            let series = NNSeries.clean(timestampsMs: rr.timestampsMs, rrMs: rr.values, method: hrvOptions.artifactMethod)
            hrv = HRVWindows(subject: subject, series: series, options: hrvOptions)
        }
        beats = rr.map { r in zip(r.timestampsMs, r.values).map { StressBeat(tMs: $0.0, rrMs: $0.1) } } ?? []
        let stepMs = max(1, Int64((stress.referenceStepSeconds * 1000).rounded()))
        if let first = self.hr.timesMs.first, let last = self.hr.timesMs.last {
            var g = first
            while g + o.windowMs <= last + 1 {
                grid.append((g, watch(g, g + o.windowMs, measure(g, g + o.windowMs).0)))
                g += stepMs
            }
        }
    }

    /// The window's mean HR (at least `minHRSamples` samples) and, when its R-R is reliable,
    /// SDNN and RMSSD (ms): `window_input` 0.
    func deviceMeasure(_ start: Int64, _ end: Int64) -> (WindowSignals, rmssd: Double?) {
        let bpm = hr.values(fromMs: start, throughMs: end - 1)
        let hrBpm = bpm.count >= options.minHRSamples ? bpm.reduce(0, +) / Double(bpm.count) : nil
        guard let row = hrv?.row(fromMs: start, toMs: end), row.reliable,
              row.time.sdnn.isFinite, row.time.sdnn > 0 else { return (WindowSignals(hrBpm: hrBpm, sdnnMs: nil), nil) }
        return (WindowSignals(hrBpm: hrBpm, sdnnMs: row.time.sdnn), row.time.rmssd.isFinite ? row.time.rmssd : nil)
    }

    /// The same from the reliable detected beats: `window_input` 1.
    func beatMeasure(_ start: Int64, _ end: Int64) -> (WindowSignals, rmssd: Double?) {
        channels.beatSignals(startMs: start, endMs: end, constants: stress)
    }

    /// The window's signals from the engine's `window_input`.
    func measure(_ start: Int64, _ end: Int64) -> (WindowSignals, rmssd: Double?) {
        stress.windowInput.rounded() == 1 ? beatMeasure(start, end) : deviceMeasure(start, end)
    }

    /// What a watch measures in [start, end): the signals, the analysis beats' RMSSD,
    /// coverage and respiration, and the wristband's channels.
    func watch(_ start: Int64, _ end: Int64, _ signals: WindowSignals) -> StressWindowMeasures {
        let b = StressWindowMeasures.beats(beats[...], startMs: start, endMs: end, constants: stress)
        var m = StressWindowMeasures(hrBpm: signals.hrBpm, sdnnMs: signals.sdnnMs, beatRMSSDMs: b.rmssdMs,
                                     beatCoverage: b.coverage, respirationPerMin: b.respirationPerMin)
        m.channels = channels.measures(startMs: start, endMs: end, constants: stress)
        return m
    }

    /// The rolling reference of a window starting at `start`: the grid windows that ended by
    /// it within `reference_minutes`, and the mean HR of the `onset_minutes` before it.
    func rolling(before start: Int64) -> StressReference {
        let referenceMs = Int64((stress.referenceMinutes * 60_000).rounded()), onsetMs = Int64((stress.onsetMinutes * 60_000).rounded())
        let windowMs = options.windowMs
        let past = grid.filter { $0.startMs + windowMs <= start && $0.startMs >= start - referenceMs }.map(\.measures)
        let onset = hr.values(fromMs: start - onsetMs, throughMs: start - 1)
        return StressReference(windows: past, onsetHRBpm: onset.count >= options.minHRSamples ? onset.reduce(0, +) / Double(onset.count) : nil)
    }

    /// A reference period from `start` tiled into consecutive windows ending by `end`, from
    /// the engine's input, or from the detected beats (`beats`).
    func tiles(from start: Int64, until end: Int64, beats: Bool = false) -> [WindowSignals] {
        stride(from: start, through: end - options.windowMs, by: .init(options.windowMs)).map {
            (beats ? beatMeasure($0, $0 + options.windowMs) : measure($0, $0 + options.windowMs)).0
        }
    }

    /// One slot measured: its signals from both sources, its watch measures and rolling reference.
    func scored(_ slot: StressSlot) -> StressWindow {
        let (signals, rmssd) = measure(slot.startMs, slot.endMs)
        return StressWindow(subject: subject, startMs: slot.startMs, endMs: slot.endMs, stress: slot.stress, task: slot.task,
                            signals: signals, beatSignals: beatMeasure(slot.startMs, slot.endMs).0, rmssdMs: rmssd,
                            measures: watch(slot.startMs, slot.endMs, signals), rolling: rolling(before: slot.startMs))
    }
}
