import Foundation

/// HRV of one subject's NN series over sliding windows and over the whole recording.
/// Each window's beats are resampled, detrended and transformed on their own, as Kubios
/// and NeuroKit2 do: a window's spectrum then depends on its beats only, and on a
/// sample grid that starts at its first beat.
public struct HRVWindows {
    public let subject: String
    public let series: NNSeries
    public let options: HRVOptions
    private var welch: Welch
    private var detrender: Detrender
    /// Sample entropy's template order, carried from each window to the next.
    private var ascending = AscendingOrder()
    /// Time spent on each index family over the windowed rows so far.
    public private(set) var timings = HRVTimings()
    /// PSD of the whole recording (ms²/Hz), set by `rows()` when it writes the whole row.
    public private(set) var wholeSpectrum: Spectrum?

    public init(subject: String, series: NNSeries, options: HRVOptions) {
        self.subject = subject
        self.series = series
        self.options = options
        welch = Welch(options: options.welch)
        detrender = Detrender(options.detrending, lambda: options.lambda)
    }

    /// Window starts: from the first beat, every step, while the window fits before the
    /// last beat, skipping windows that hold no beat (see `WindowPlacement`).
    public func windowStartsMs() -> [Int64] {
        WindowPlacement.starts(timesMs: series.timeMs, windowMs: Int64(options.windowSeconds * 1000),
                               stepMs: Int64(options.stepSeconds * 1000))
    }

    public mutating func rows() -> [HRVRow] {
        var out: [HRVRow] = []
        forEachRow { out.append($0) }
        return out
    }

    /// Calls `body` with each row as it is computed: the sliding windows in order, then the
    /// whole recording. A stage encodes them as they come, so that a subject's rows are
    /// never all held at once.
    public mutating func forEachRow(_ body: (HRVRow) throws -> Void) rethrows {
        guard series.count > 0 else { return }
        if options.windows {
            let window = Int64(options.windowSeconds * 1000)
            for start in windowStartsMs() {
                try body(row(fromMs: start, toMs: start + window))
            }
        }
        if options.whole {
            let all = 0..<series.count
            let span = series.timeMs[series.count - 1] - series.timeMs[0] + series.nnMs[0]
            var whole = row(all, spanMs: span, startMs: nil, endMs: nil, timed: false)
            wholeSpectrum = lastSpectrum
            whole.longTerm = HRVLongTerm(series, range: all)
            try body(whole)
        }
    }

    /// The spectrum of the row computed last.
    private var lastSpectrum: Spectrum?

    /// The row of the window [startMs, endMs): the beats it holds, its artifact share
    /// and reliability, and every index; windows placed by the caller (e.g. inside
    /// labelled intervals) get the same treatment as the sliding windows.
    public mutating func row(fromMs startMs: Int64, toMs endMs: Int64) -> HRVRow {
        let r = series.range(fromMs: Double(startMs), toMs: Double(endMs))
        return row(r, spanMs: Double(endMs - startMs), startMs: startMs, endMs: endMs, timed: true)
    }

    private mutating func row(_ r: Range<Int>, spanMs: Double, startMs: Int64?, endMs: Int64?, timed: Bool) -> HRVRow {
        let w = NNWindow(series, r)
        let flagged = series.artifact[r].reduce(0) { $0 + ($1 == .none ? 0 : 1) }
        // Beats lost in gaps (or before the recording starts or after it ends) are estimated
        // from the time the window's intervals leave uncovered, at their mean length.
        let covered = series.nnMs[r].reduce(0, +)
        let meanNN = r.isEmpty ? 1000 : covered / Double(r.count)
        let missing = max(0, ((spanMs - covered) / meanNN).rounded(.down))
        let expected = Double(r.count) + missing
        let artifactPct = expected > 0 ? 100 * (Double(flagged) + missing) / expected : 100
        let t0 = DispatchTime.now().uptimeNanoseconds
        let time = HRVTime(w)
        let t1 = DispatchTime.now().uptimeNanoseconds
        let psd = spectrum(r)
        if !timed { lastSpectrum = psd }
        let frequency = HRVFrequency(psd)
        let t2 = DispatchTime.now().uptimeNanoseconds
        let order = HRVNonlinear.sampleEntropyTemplates(r).map { ascending.update(to: $0, values: series.nnMs) }
        let nonlinear = HRVNonlinear(w, ascending: order)
        let t3 = DispatchTime.now().uptimeNanoseconds
        if timed { timings.add(windows: 1, time: t1 - t0, frequency: t2 - t1, nonlinear: t3 - t2) }
        return HRVRow(
            subject: subject, windowStartMs: startMs, windowEndMs: endMs, nBeats: r.count,
            artifactPct: artifactPct, reliable: r.count >= 2 && artifactPct <= options.reliableArtifactPct,
            time: time, frequency: frequency, nonlinear: nonlinear, longTerm: HRVLongTerm())
    }

    /// PSD of the NN series over beats `r`: spline-resampled from the first beat, detrended,
    /// by Welch; or Lomb–Scargle on the beats themselves. Beats separated by a gap longer
    /// than one Welch segment are resampled and detrended as separate runs whose segments
    /// Welch averages, so no segment is interpolated across such a gap and a recording's
    /// gaps cost no memory; the runs are averaged one at a time (`Welch.Average`), so the
    /// whole recording's spectrum holds one run's samples, not the recording's.
    private mutating func spectrum(_ r: Range<Int>) -> Spectrum {
        guard r.count >= 3 else { return Spectrum(df: 0, psd: []) }
        switch options.psdMethod {
        case .lomb:
            let times = series.timeMs[r].map { $0 / 1000 }
            return LombScargle.psd(timesS: times, values: Array(series.nnMs[r]))
        case .welch:
            let segmentS = options.welch.segmentSeconds > 0 ? options.welch.segmentSeconds : options.windowSeconds
            let gapMs = segmentS * 1000
            // Grid t0, t0 + step, … < t_last + step, as NumPy's `arange` in NeuroKit2.
            let stepMs = 1000 / options.resampleHz
            var average = welch.begin(fs: options.resampleHz)
            var first = r.lowerBound
            for i in r where i == r.upperBound - 1 || series.timeMs[i + 1] - series.timeMs[i] > gapMs {
                let times = Array(series.timeMs[first...i])
                first = i + 1
                guard times.count >= 3 else { continue }
                let count = Int(((times[times.count - 1] - times[0] + stepMs) / stepMs).rounded(.up))
                guard var x = options.interpolation.sample(x: times, y: Array(series.nnMs[(i + 1 - times.count)...i]),
                                                           from: times[0], step: stepMs, count: count) else { continue }
                detrender.apply(&x)
                welch.add(x[...], to: &average)
            }
            return welch.end(average)
        }
    }
}

/// Wall time per index family (ns), for `resonance hrv --timing` and the benchmark.
public struct HRVTimings: Sendable {
    public var windows = 0
    public var timeNs: UInt64 = 0
    public var frequencyNs: UInt64 = 0
    public var nonlinearNs: UInt64 = 0

    public init() {}

    public mutating func add(windows: Int, time: UInt64, frequency: UInt64, nonlinear: UInt64) {
        self.windows += windows; timeNs += time; frequencyNs += frequency; nonlinearNs += nonlinear
    }

    public mutating func add(_ other: HRVTimings) {
        add(windows: other.windows, time: other.timeNs, frequency: other.frequencyNs, nonlinear: other.nonlinearNs)
    }
}
