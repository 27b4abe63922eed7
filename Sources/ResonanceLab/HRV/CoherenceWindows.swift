/// Settings of `resonance coherence` (docs/methods.md, Coherence), defaults from the registry.
public struct CoherenceOptions: Sendable {
    public var constants: CoherenceConstants
    public var windowSeconds: Double
    public var stepSeconds: Double
    /// Paced breathing rate, breaths per minute (6/min = 0.1 Hz, the usual resonance).
    public var breathingRate: Double
    /// Heart rate is analysed at this rate, Hz.
    public var sampleHz: Double
    /// Below this many samples a window scores 0 (coach) / empty (HeartMath).
    public var minimumSamples: Int
    /// Zero padding of each window's FFT (then rounded up to a power of two), so the
    /// 0.030 Hz HeartMath peak window spans several bins of a 64 s window.
    public var padFactor = 4
    public var artifactMethod: ArtifactMethod = .lipponen
    /// `windowed` (the toolkit's tapered 64 s windows) or `product` (the product's own score).
    public var method: CoherenceMethod = .windowed
    /// `product` only: every 0.25 s score as a row, not per-minute means.
    public var everyStep = false
    /// `product` only: how beats become the 4 Hz series.
    public var sampling: HRSampling = .spline

    public init(constants: CoherenceConstants = .defaults) {
        self.constants = constants
        let c = constants
        windowSeconds = c.windowSeconds
        stepSeconds = c.stepSeconds
        breathingRate = c.breathingRatePerMin
        sampleHz = c.sampleHz
        minimumSamples = Int(c.minSamples)
    }

    public var breathingHz: Double { breathingRate / 60 }
}

/// One row of `coherence.csv`.
public struct CoherenceRow: Sendable, Equatable {
    public var subject: String
    public var windowStartMs: Int64?
    public var windowEndMs: Int64?
    /// `coach`, `heartmath`, or `resonance` (whole-recording resonance-frequency estimate).
    public var method: String
    public var breathingHz: Double?
    /// Hz; NaN when the window has no peak.
    public var peakHz: Double
    /// NaN when the window is too short to score.
    public var coherence: Double
    public var nSamples: Int
    /// `rr` (instantaneous HR from NN intervals) or `hr` (hr.csv samples).
    public var source: String

    public init(subject: String, windowStartMs: Int64?, windowEndMs: Int64?, method: String, breathingHz: Double?,
                peakHz: Double, coherence: Double, nSamples: Int, source: String) {
        self.subject = subject; self.windowStartMs = windowStartMs; self.windowEndMs = windowEndMs
        self.method = method; self.breathingHz = breathingHz; self.peakHz = peakHz; self.coherence = coherence
        self.nSamples = nSamples; self.source = source
    }
}

extension CoherenceRow: CanonicalRow {
    public static let fileName = "coherence.csv"
    public static let header = ["subject", "window_start", "window_end", "method", "breathing_hz", "peak_hz",
                                "coherence", "n_samples", "source"]

    public func write(to w: CSVWriter) {
        w.field(subject)
        w.field(timestampMs: windowStartMs)
        w.field(timestampMs: windowEndMs)
        w.field(method)
        w.field(breathingHz)
        w.field(peakHz)
        w.field(coherence)
        w.field(nSamples)
        w.field(source)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), windowStartMs: try r.optionalTimestamp("window_start"),
                  windowEndMs: try r.optionalTimestamp("window_end"), method: try r.string("method"),
                  breathingHz: try r.optionalDouble("breathing_hz"), peakHz: try r.doubleOrNaN("peak_hz"),
                  coherence: try r.doubleOrNaN("coherence"), nSamples: try r.count("n_samples"),
                  source: try r.string("source"))
    }
}

/// Coherence of one subject's heart rate over sliding windows. Heart rate comes from
/// the NN intervals (60000/NN at each beat) or from HR samples, resampled once at
/// `sampleHz` by cubic spline — each run between gaps longer than a window on its own
/// grid, so no window interpolates across such a gap and a gap costs no memory; each window is linearly detrended and tapered by a
/// Kaiser window (β = π, close to the NW = 1 Slepian taper), which keeps ≈ 95 % of a
/// sinusoid's power within ±1 bin of its frequency (a Hann window keeps 86 %), the
/// neighbourhood both coherence scores measure.
///
/// The samples are read forward in time (`SampleRuns`): the windows hold the run they
/// fall in and the next one read, not the recording.
public struct CoherenceWindows {
    public let subject: String
    public let source: String
    public let options: CoherenceOptions
    private var runs: SampleRuns
    private var periodogram: Welch

    /// The heart rate `next` hands over in time order, a stretch at a time (nil at the end).
    init(subject: String, source: String, options: CoherenceOptions, next: @escaping () throws -> (timeMs: [Double], bpm: [Double])?) {
        self.subject = subject
        self.source = source
        self.options = options
        runs = SampleRuns(gapMs: options.windowSeconds * 1000, next: next)
        periodogram = Welch(options: WelchOptions(segmentSeconds: options.windowSeconds, overlap: 0,
                                                  padFactor: options.padFactor, powerOfTwo: true,
                                                  taper: .kaiser(beta: .pi), maxHz: options.constants.highestHz))
    }

    public init(subject: String, source: String, timeMs: [Double], bpm: [Double], options: CoherenceOptions) {
        var given: (timeMs: [Double], bpm: [Double])? = (timeMs, bpm)
        self.init(subject: subject, source: source, options: options, next: {
            defer { given = nil }
            return given
        })
    }

    /// Heart rate at each beat of a cleaned NN series.
    public init(subject: String, series: NNSeries, options: CoherenceOptions) {
        self.init(subject: subject, source: "rr", timeMs: series.timeMs, bpm: series.nnMs.map { 60000 / $0 },
                  options: options)
    }

    /// Coach and HeartMath rows per window, then one `resonance` row: the median over
    /// windows of the LF (0.04–0.15 Hz) spectral peak (a local maximum, so a spectrum
    /// merely falling across the band gives none), the resonance-frequency estimate, with
    /// the median coach score taken at each window's own peak.
    public mutating func rows() throws -> [CoherenceRow] {
        var out: [CoherenceRow] = []
        try forEachRow { out.append($0) }
        return out
    }

    /// `rows()` one at a time, in order, without holding them (a year of windows is a
    /// million rows). The samples are read once: a second call gives no rows.
    public mutating func forEachRow(_ body: (CoherenceRow) throws -> Void) throws {
        let window = Int64(options.windowSeconds * 1000), step = Int64(options.stepSeconds * 1000)
        // Peaks are bin frequencies: counted, not listed; their scores wait on disk past 64 K.
        var peaks: [Double: Int] = [:], peakScores = SpilledValues()
        var walk = WindowPlacement.Walk(windowMs: window, stepMs: step)
        // Sample times read, from sample number `dropped` on (the walk's numbering).
        var times: [Double] = [], dropped = 0
        // Runs read and not yet resampled; every run is resampled once, in order, whether
        // or not a window falls in it (the resonance row counts all their samples).
        var ahead: [(timeMs: [Double], bpm: [Double])] = []
        var resampled = 0
        var hr = ResampledSeries(timeMs: [], values: [], hz: options.sampleHz)
        func advance() {
            let run = ahead.removeFirst()
            hr = ResampledSeries(timeMs: run.timeMs, values: run.bpm, hz: options.sampleHz)
            resampled += hr.values.count
        }
        var ended = false, started = false
        while !ended {
            if let run = try runs.next() {
                ahead.append(run)
                times += run.timeMs
                if !started {
                    advance()
                    started = true
                }
            } else {
                ended = true
            }
            try walk.advance(count: dropped + times.count, ended: ended, time: { times[$0 - dropped] }) { start in
                let end = start + window
                // Runs are further apart than a window, so one run holds all of a window's
                // samples; a run starting before the window's end has been read (the window
                // ends by the latest sample read).
                while let next = ahead.first, next.timeMs[0] < Double(end) { advance() }
                let x = hr.slice(knots: hr.knots(fromMs: Double(start), toMs: Double(end)))
                var coach = CoherenceRow(subject: subject, windowStartMs: start, windowEndMs: end, method: "coach",
                                         breathingHz: options.breathingHz, peakHz: .nan, coherence: 0,
                                         nSamples: x.count, source: source)
                var heartMath = coach
                heartMath.method = "heartmath"
                heartMath.breathingHz = nil
                heartMath.coherence = .nan
                if x.count >= options.minimumSamples {
                    var detrended = Array(x)
                    Detrender.removeLinearTrend(&detrended)
                    let s = periodogram.psd(detrended[...], fs: options.sampleHz)
                    let c = options.constants
                    // ±N bins of the window's native resolution (docs/engines/breathing.md, Coherence: ±1 bin).
                    let binHz = c.breathingBandBins * options.sampleHz / Double(x.count)
                    coach.peakHz = s.localPeak(c.coachBand.0, c.coachBand.1)
                    coach.coherence = Coherence.coachScore(s, breathingHz: options.breathingHz, binHz: binHz, constants: c)
                    (heartMath.peakHz, heartMath.coherence) = Coherence.heartMath(s, constants: c)
                    if coach.peakHz.isFinite {
                        peaks[coach.peakHz, default: 0] += 1
                        try peakScores.append(Coherence.coachScore(s, breathingHz: coach.peakHz, binHz: binHz, constants: c))
                    }
                }
                try body(coach)
                try body(heartMath)
            }
            // The walk reads no earlier sample again but the latest.
            let passed = min(walk.next, dropped + times.count - 1) - dropped
            if passed > times.count / 2 {
                times.removeFirst(passed)
                dropped += passed
            }
        }
        while !ahead.isEmpty { advance() }
        if !peaks.isEmpty {
            let f = Stats.quantile(counts: peaks, 0.5)
            try body(CoherenceRow(subject: subject, windowStartMs: nil, windowEndMs: nil, method: "resonance",
                                  breathingHz: f, peakHz: f, coherence: try peakScores.quantile(0.5),
                                  nSamples: resampled, source: source))
        }
    }
}

/// Samples handed over in time order, a stretch at a time, split into runs separated by
/// gaps longer than `gapMs` (the runs a whole series splits into, whatever the stretches).
struct SampleRuns {
    private let gapMs: Double
    private let read: () throws -> (timeMs: [Double], bpm: [Double])?
    /// Samples read, those from `start` on not yet handed over in a run; the search for a
    /// gap resumes at `scanned`.
    private var timeMs: [Double] = [], bpm: [Double] = []
    private var start = 0, scanned = 1
    private var ended = false

    init(gapMs: Double, next: @escaping () throws -> (timeMs: [Double], bpm: [Double])?) {
        self.gapMs = gapMs
        read = next
    }

    /// The next run; nil after the last.
    mutating func next() throws -> (timeMs: [Double], bpm: [Double])? {
        while true {
            var i = scanned
            while i < timeMs.count, timeMs[i] - timeMs[i - 1] <= gapMs { i += 1 }
            if i < timeMs.count || (ended && start < timeMs.count) {
                let run = (timeMs: Array(timeMs[start..<i]), bpm: Array(bpm[start..<i]))
                start = i
                scanned = i + 1
                return run
            }
            scanned = max(start + 1, i)
            if ended { return nil }
            // The samples handed over are let go of before more are read.
            timeMs.removeFirst(start)
            bpm.removeFirst(start)
            scanned -= start
            start = 0
            if let more = try read() {
                timeMs += more.timeMs
                bpm += more.bpm
            } else {
                ended = true
            }
        }
    }
}
