import Foundation

/// HRV of one subject's NN series over sliding windows and over the whole recording.
/// Each window's beats are resampled, detrended and transformed on their own, as Kubios
/// and NeuroKit2 do: a window's spectrum then depends on its beats only, and on a
/// sample grid that starts at its first beat.
public struct HRVWindows {
    public let subject: String
    /// The beats held: the whole series, or a stretch of it while rows are computed from
    /// beats read in time order (`forEachRow(subject:options:beats:_:)`).
    public private(set) var series: NNSeries
    public let options: HRVOptions
    private var welch: Welch
    private var detrender: Detrender
    /// Sample entropy's template order, carried from each window to the next.
    private var ascending = AscendingOrder()
    /// Time spent on each index family over the windowed rows so far.
    public private(set) var timings = HRVTimings()
    /// PSD of the whole recording (ms²/Hz), set by `forEachRow` when it writes the whole row.
    public private(set) var wholeSpectrum: Spectrum?

    public init(subject: String, series: NNSeries, options: HRVOptions) {
        self.subject = subject
        self.series = series
        self.options = options
        welch = Welch(options: options.welch)
        detrender = Detrender(options.detrending, lambda: options.lambda)
    }

    public mutating func rows() throws -> [HRVRow] {
        var out: [HRVRow] = []
        try forEachRow { out.append($0) }
        return out
    }

    /// Calls `body` with each row of the series as it is computed: the sliding windows in
    /// order, then the whole recording (the series handed over as one piece).
    public mutating func forEachRow(_ body: (HRVRow) throws -> Void) throws {
        var given: NNSeries? = series
        let done = try Self.forEachRow(subject: subject, options: options, beats: { defer { given = nil }; return given }, body)
        timings = done.timings
        wholeSpectrum = done.wholeSpectrum
    }

    /// Calls `body` with each row of the recording whose beats `next` hands over in time
    /// order, a piece at a time (nil at the end): the sliding windows in order, then the
    /// whole recording. The windows hold a stretch of beats: from the earliest window
    /// still to come to the end of the piece read last. The whole-recording row takes its
    /// spectrum runs and 5-minute segments as the beats pass, and reads each beat's NN
    /// interval and run flag again in passes from where they wait (`SpilledBeats`: on disk
    /// past 64 K beats; Lomb–Scargle holds every beat's time and interval). The rows are
    /// those of the series held whole, to the bit, however it is cut into pieces. Returns
    /// the windows' timings and the whole recording's spectrum.
    static func forEachRow(subject: String, options: HRVOptions, beats next: () throws -> NNSeries?,
                           _ body: (HRVRow) throws -> Void) throws -> (timings: HRVTimings, wholeSpectrum: Spectrum?) {
        var held = HRVWindows(subject: subject, series: .empty, options: options)
        var whole = options.whole ? Whole(options: options, welch: held.welch) : nil
        let window = Int64(options.windowSeconds * 1000)
        var walk = WindowPlacement.Walk(windowMs: window, stepMs: Int64(options.stepSeconds * 1000))
        // Beats let go before the stretch held (the walk numbers beats from the first),
        // and the starts placed whose window has not yet been read to its end.
        var dropped = 0, waiting: [Int64] = []
        var ended = false
        while !ended {
            if let piece = try next() {
                guard piece.count > 0 else { continue }
                try whole?.take(piece, with: &held)
                guard options.windows else { continue }
                held.series.append(piece)
            } else {
                ended = true
                guard options.windows, held.series.count > 0 else { break }
            }
            let lastMs = held.series.timeMs[held.series.count - 1]
            walk.advance(count: dropped + held.series.count, ended: ended,
                         time: { held.series.timeMs[$0 - dropped] }, emit: { waiting.append($0) })
            while let start = waiting.first, ended || Double(start + window) <= lastMs {
                waiting.removeFirst()
                try body(held.row(fromMs: start, toMs: start + window))
            }
            // Kept: the beats of windows still waiting, and from the walk's next candidate
            // (or the latest beat, which it reads again).
            let keep = min(walk.next - dropped, held.series.count - 1)
            var floorMs = held.series.timeMs[max(0, keep)]
            if let start = waiting.first { floorMs = min(floorMs, Double(start)) }
            let before = held.series.count
            held.series.removeBeats(before: floorMs)
            held.ascending.shift(by: held.series.count - before)
            dropped += before - held.series.count
        }
        if var whole, whole.beats.count > 0 {
            held.ascending.shift(by: dropped)
            let row = held.wholeRow(&whole)
            try whole.beats.checkRead()
            try body(row)
        }
        return (held.timings, held.wholeSpectrum)
    }

    /// What the whole-recording row needs of the beats, taken as they pass.
    struct Whole {
        let beats = SpilledBeats()
        /// Beat times, held for Lomb–Scargle only.
        var timeMs: [Double] = []
        var flagged = 0, covered = 0.0
        var firstMs = 0.0, firstNN = 0.0, lastMs = 0.0
        /// The run being read: beats since the last gap longer than a Welch segment.
        var runTimeMs: [Double] = [], runNN: [Double] = []
        var average: Welch.Average
        var longTerm = HRVLongTerm.Segments()

        init(options: HRVOptions, welch: Welch) {
            average = welch.begin(fs: options.resampleHz)
        }

        /// Takes `piece`, the beats that follow those taken so far; a run of the spectrum
        /// that a gap ends is resampled and averaged by `windows`' Welch estimator.
        mutating func take(_ piece: NNSeries, with windows: inout HRVWindows) throws {
            if beats.count == 0 { (firstMs, firstNN) = (piece.timeMs[0], piece.nnMs[0]) }
            lastMs = piece.timeMs[piece.count - 1]
            for k in 0..<piece.count {
                try beats.append(nnMs: piece.nnMs[k], runStart: piece.runStart[k])
                if piece.artifact[k] != .none { flagged += 1 }
                covered += piece.nnMs[k]
                longTerm.add(timeMs: piece.timeMs[k], nnMs: piece.nnMs[k])
            }
            switch windows.options.psdMethod {
            case .lomb:
                timeMs += piece.timeMs
            case .welch:
                let gapMs = windows.welchGapMs
                for k in 0..<piece.count {
                    if let last = runTimeMs.last, piece.timeMs[k] - last > gapMs {
                        windows.addRun(timeMs: runTimeMs, nnMs: runNN, to: &average)
                        runTimeMs.removeAll(keepingCapacity: true)
                        runNN.removeAll(keepingCapacity: true)
                    }
                    runTimeMs.append(piece.timeMs[k])
                    runNN.append(piece.nnMs[k])
                }
            }
        }
    }

    /// The whole-recording row (empty window bounds, with the long-term indices) of the
    /// beats taken into `whole`.
    private mutating func wholeRow(_ whole: inout Whole) -> HRVRow {
        let n = whole.beats.count
        let psd: Spectrum
        switch options.psdMethod {
        case .lomb:
            psd = n >= 3 ? LombScargle.psd(timesS: whole.timeMs.map { $0 / 1000 }, values: Array(whole.beats.intervals))
                : Spectrum(df: 0, psd: [])
        case .welch:
            addRun(timeMs: whole.runTimeMs, nnMs: whole.runNN, to: &whole.average)
            psd = n >= 3 ? welch.end(whole.average) : Spectrum(df: 0, psd: [])
        }
        wholeSpectrum = psd
        let w = whole.beats
        let order = HRVNonlinear.sampleEntropyTemplates(0..<n).map { ascending.update(to: $0, values: Array(w.intervals)) }
        var row = Self.row(subject: subject, options: options, beats: n, flagged: whole.flagged, coveredMs: whole.covered,
                           spanMs: whole.lastMs - whole.firstMs + whole.firstNN, startMs: nil, endMs: nil,
                           time: HRVTime(w), frequency: HRVFrequency(psd), nonlinear: HRVNonlinear(w, ascending: order))
        row.longTerm = whole.longTerm.finish()
        return row
    }

    /// The row of the window [startMs, endMs): the beats it holds, its artifact share
    /// and reliability, and every index; windows placed by the caller (e.g. inside
    /// labelled intervals) get the same treatment as the sliding windows.
    public mutating func row(fromMs startMs: Int64, toMs endMs: Int64) -> HRVRow {
        let r = series.range(fromMs: Double(startMs), toMs: Double(endMs))
        let w = NNWindow(series, r)
        let flagged = series.artifact[r].reduce(0) { $0 + ($1 == .none ? 0 : 1) }
        let covered = series.nnMs[r].reduce(0, +)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let time = HRVTime(w)
        let t1 = DispatchTime.now().uptimeNanoseconds
        let frequency = HRVFrequency(spectrum(r))
        let t2 = DispatchTime.now().uptimeNanoseconds
        let order = HRVNonlinear.sampleEntropyTemplates(r).map { ascending.update(to: $0, values: series.nnMs) }
        let nonlinear = HRVNonlinear(w, ascending: order)
        let t3 = DispatchTime.now().uptimeNanoseconds
        timings.add(windows: 1, time: t1 - t0, frequency: t2 - t1, nonlinear: t3 - t2)
        return Self.row(subject: subject, options: options, beats: r.count, flagged: flagged, coveredMs: covered,
                        spanMs: Double(endMs - startMs), startMs: startMs, endMs: endMs,
                        time: time, frequency: frequency, nonlinear: nonlinear)
    }

    /// A row of `beats` beats, `flagged` of them corrected, whose intervals cover
    /// `coveredMs` of a span of `spanMs`. Beats lost in gaps (or before the recording
    /// starts or after it ends) are estimated from the time the intervals leave
    /// uncovered, at their mean length, and count as artifacts.
    private static func row(subject: String, options: HRVOptions, beats: Int, flagged: Int, coveredMs: Double,
                            spanMs: Double, startMs: Int64?, endMs: Int64?,
                            time: HRVTime, frequency: HRVFrequency, nonlinear: HRVNonlinear) -> HRVRow {
        let meanNN = beats == 0 ? 1000 : coveredMs / Double(beats)
        let missing = max(0, ((spanMs - coveredMs) / meanNN).rounded(.down))
        let expected = Double(beats) + missing
        let artifactPct = expected > 0 ? 100 * (Double(flagged) + missing) / expected : 100
        return HRVRow(
            subject: subject, windowStartMs: startMs, windowEndMs: endMs, nBeats: beats,
            artifactPct: artifactPct, reliable: beats >= 2 && artifactPct <= options.reliableArtifactPct,
            time: time, frequency: frequency, nonlinear: nonlinear, longTerm: HRVLongTerm())
    }

    /// Beats further apart than one Welch segment are resampled and detrended as separate
    /// runs, ms.
    private var welchGapMs: Double {
        (options.welch.segmentSeconds > 0 ? options.welch.segmentSeconds : options.windowSeconds) * 1000
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
            let gapMs = welchGapMs
            var average = welch.begin(fs: options.resampleHz)
            var first = r.lowerBound
            for i in r where i == r.upperBound - 1 || series.timeMs[i + 1] - series.timeMs[i] > gapMs {
                addRun(timeMs: Array(series.timeMs[first...i]), nnMs: Array(series.nnMs[first...i]), to: &average)
                first = i + 1
            }
            return welch.end(average)
        }
    }

    /// Adds one run of beats (no gap longer than a segment) to a Welch average: resampled
    /// on the grid t0, t0 + step, … < t_last + step, as NumPy's `arange` in NeuroKit2, then
    /// detrended, each sample as the detrending reaches it. A run of fewer than 3 beats
    /// adds nothing.
    private mutating func addRun(timeMs: [Double], nnMs: [Double], to average: inout Welch.Average) {
        guard timeMs.count >= 3 else { return }
        let stepMs = 1000 / options.resampleHz
        let count = Int(((timeMs[timeMs.count - 1] - timeMs[0] + stepMs) / stepMs).rounded(.up))
        guard let x = options.interpolation.withGrid(x: timeMs, y: nnMs, from: timeMs[0], step: stepMs, { next in
            detrender.detrended(count: count, next)
        }) else { return }
        welch.add(x[...], to: &average)
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
