import Foundation

/// Settings of stress scoring on labelled recordings.
public struct StressScoringOptions: Sendable, Equatable {
    /// Window length and step, seconds.
    public var windowSeconds = 60.0
    public var stepSeconds = 30.0
    /// Reference period when a subject has no baseline label: the first minutes of the
    /// heart-rate recording.
    public var fallbackReferenceMinutes = 10.0
    /// A window's SDNN is used when at most this % of its beats are corrected or missing
    /// (the HRV stage's reliability rule: the registry's `hrv` constants in force).
    public var maxArtifactPct = HRVConstants.defaults.maxArtifactPct
    /// Fewest heart-rate samples for a window's mean HR.
    public var minHRSamples = 3
    /// The plausible R-R intervals (the registry's `rr` constants in force).
    public var rr = RRConstants.defaults

    public init() {}

    var windowMs: Int64 { Int64((windowSeconds * 1000).rounded()) }
    var stepMs: Int64 { Int64((stepSeconds * 1000).rounded()) }
}

/// One scored window of a labelled recording: its label, the task it belongs to, and
/// the signals measured in it.
public struct StressWindow: Equatable, Sendable {
    public var subject: String
    public var startMs: Int64
    public var endMs: Int64
    /// True inside a `stress` interval, false inside a `baseline` one.
    public var stress: Bool
    /// Name of the stress task (empty for baseline windows).
    public var task: String
    /// The HR and SDNN window mode scores: from the source the engine's `window_input` names.
    public var signals: WindowSignals
    /// The same from the reliable detected beats (`window_input` 1), whatever the engine's input.
    public var beatSignals = WindowSignals(hrBpm: nil, sdnnMs: nil)
    /// RMSSD (ms) when the window's R-R intervals are reliable.
    public var rmssdMs: Double?
    /// What a watch measures in the window, and its rolling reference (the past windows of
    /// the recording; `StressReference`), for the stress engine's rolling methods.
    public var measures = StressWindowMeasures(hrBpm: nil)
    public var rolling = StressReference(windows: [], onsetHRBpm: nil)
}

/// One subject's reference period and scored windows.
public struct StressSubject: Equatable, Sendable {
    public var subject: String
    /// The reference period [start, end) in epoch ms, and the rule that chose it.
    public var referenceStartMs: Int64
    public var referenceEndMs: Int64
    public var referenceRule: String
    /// The reference period tiled into consecutive windows, in time order.
    public var reference: [WindowSignals]
    public var windows: [StressWindow]
    /// The labelled `stress` and `baseline` intervals, named, in time order.
    public var intervals: [StressInterval] = []
    /// The session [start, end] in epoch ms: the first and last heart-rate samples (the
    /// labelled intervals' span without heart rate); the origin of the time-only controls.
    public var sessionStartMs: Int64 = 0
    public var sessionEndMs: Int64 = 0
    /// The primary design's windows (`StressDesign.primary`), measured as `windows` are.
    public var design: [StressWindow] = []
    /// The product formula's reference for the design: the reference period's tiles that
    /// end by the design's first window (its windows before the Stroop's start lie in the
    /// first baseline interval).
    public var designReference: [WindowSignals] = []
    /// The same tiles measured from the reliable detected beats (`beatSignals`).
    public var designBeatReference: [WindowSignals] = []
}

/// Labelled recordings cut into windows for stress scoring. A subject is scored when
/// `labels.csv` gives it both `stress` and `baseline` intervals. Windows lie wholly
/// inside one labelled interval and never overlap the subject's reference period:
/// the first `baseline` interval, else the first `fallbackReferenceMinutes` of the
/// heart-rate recording.
public enum StressWindows {
    public static let stressLabel = "stress", baselineLabel = "baseline"

    /// Subjects with stress and baseline labels, sorted by name; empty when none.
    public static func load(_ ws: Workspace, options: StressScoringOptions = .init(), stress: StressConstants = .defaults,
                            jobs: Int = 1) throws -> [StressSubject] {
        let labels = try ws.read(LabelInterval.self)
        var bySubject: [String: [LabelInterval]] = [:]
        for l in labels { bySubject[l.subject, default: []].append(l) }
        let scored = bySubject.keys.sorted().filter { s in
            let names = Set(bySubject[s, default: []].map(\.label))
            return names.contains(stressLabel) && names.contains(baselineLabel)
        }
        guard !scored.isEmpty else { return [] }
        let wanted = Set(scored)
        let hr = Dictionary(uniqueKeysWithValues: SubjectSeries.hr(try ws.readSeries(HRSample.self))
            .filter { wanted.contains($0.subject) }.map { ($0.subject, $0) })
        let rrIndex = try ws.analysisRRIndex()
        let rr = Dictionary(uniqueKeysWithValues: try scored.filter(rrIndex.contains).map {
            ($0, SubjectSeries.rr(try rrIndex.series(RRInterval.self, of: $0), plausible: options.rr))
        })
        let protocolTasks = try taskNames(ws)
        let channels = try self.channels(ws, subjects: wanted, stress: stress)
        return try Parallel.map(scored, jobs: jobs) { subject in
            cut(subject: subject, labels: bySubject[subject] ?? [], hr: hr[subject], rr: rr[subject],
                protocolTasks: protocolTasks, options: options, stress: stress, channels: channels[subject] ?? .init())
        }
    }

    /// The wristband channels of `subjects` (`StressChannelSeries`): the reliable pulse-wave
    /// beats of `beats.csv`, and the `acc_*`, `eda` and `temp` waveforms, each segment
    /// filtered causally from its first sample; empty without them.
    static func channels(_ ws: Workspace, subjects: Set<String>, stress c: StressConstants) throws -> [String: StressChannelSeries] {
        var out: [String: StressChannelSeries] = [:]
        for b in try ws.readIfPresent(DetectedBeat.self) ?? [] where b.reliable && subjects.contains(b.subject) {
            guard let rr = b.intervalMs else { continue }
            out[b.subject, default: .init()].pulseBeats.append(StressBeat(tMs: b.timestampMs, rrMs: rr))
        }
        for k in out.keys { out[k]?.pulseBeats.sort { $0.tMs < $1.tMs } }
        let store = try WaveformStore(ws)
        var bySubject: [String: [WaveformSegment]] = [:]
        for s in store.segments where subjects.contains(s.subject) { bySubject[s.subject, default: []].append(s) }
        for (subject, segments) in bySubject {
            var series = out[subject] ?? .init()
            var motion: [(timeMs: Int64, value: Double)] = [], scl = motion, peaks = motion, temp = motion
            func time(_ s: WaveformSegment, _ j: Int) -> Int64 { s.startMs + Int64((s.secondsFromStart(j) * 1000).rounded()) }
            for s in segments where s.channel == "eda" {
                let eda = try store.physical(s), level = StressChannelSeries.lowPass(eda, rateHz: s.rateHz, cutoffHz: c.sclCutoffHz)
                scl += level.indices.map { (timeMs: time(s, $0), value: level[$0]) }
                peaks += StressChannelSeries.responses(zip(eda, level).map { $0 - $1 }, minAmplitude: c.scrMinAmplitudeMicroS)
                    .map { (timeMs: time(s, $0.index), value: $0.amplitude) }
            }
            for s in segments where s.channel == "temp" {
                let t = StressChannelSeries.lowPass(try store.physical(s), rateHz: s.rateHz, cutoffHz: c.tempCutoffHz)
                temp += t.indices.map { (timeMs: time(s, $0), value: t[$0]) }
            }
            for x in segments where x.channel == "acc_x" {
                let axes = ["acc_y", "acc_z"].compactMap { a in
                    segments.first { $0.channel == a && $0.file == x.file && $0.firstSample == x.firstSample } }
                guard axes.count == 2 else { continue }
                let g = x.unit == "1/64 g" ? 1.0 / 64 : x.unit == "mg" ? 0.001 : 1
                motion += StressChannelSeries.motion(x: try store.physical(x), y: try store.physical(axes[0]), z: try store.physical(axes[1]),
                                                     rateHz: x.rateHz, startMs: time(x, 0), gPerUnit: g)
            }
            series.motionG = TimeSeries(motion); series.scl = TimeSeries(scl)
            series.responses = TimeSeries(peaks); series.temperature = TimeSeries(temp)
            out[subject] = series
        }
        return out
    }

    /// Task names in protocol order for the dataset's label format, or empty.
    static func taskNames(_ ws: Workspace) throws -> [String] {
        guard ws.exists(Manifest.fileName) else { return [] }
        let formats = Set(try Manifest.read(from: ws).sources.map(\.format))
        return formats.contains(SourceFormat.stressPredictLabels.rawValue) ? StressPredictLabels.tasks : []
    }

    static func cut(subject: String, labels: [LabelInterval], hr: MeasurementSeries?, rr: MeasurementSeries?,
                    protocolTasks: [String], options o: StressScoringOptions, stress: StressConstants = .defaults,
                    channels: StressChannelSeries = .init()) -> StressSubject {
        let intervals = labels.filter { $0.label == stressLabel || $0.label == baselineLabel }
            .sorted { ($0.startMs, $0.endMs) < ($1.startMs, $1.endMs) }
        let recording = StressRecording(subject: subject, hr: hr, rr: rr, options: o, stress: stress, channels: channels)
        let hrTimes = recording.hr.timesMs
        let reference: (start: Int64, end: Int64, rule: String)
        if let first = intervals.first(where: { $0.label == baselineLabel }) {
            reference = (first.startMs, first.endMs, "first baseline interval")
        } else {
            let start = hrTimes.first ?? intervals.first?.startMs ?? 0
            reference = (start, start + Int64(o.fallbackReferenceMinutes * 60_000),
                         "first \(decimals(o.fallbackReferenceMinutes, 0)) min of the heart-rate recording")
        }
        let named = self.named(intervals, protocolTasks: protocolTasks)
        let windows = StressDesign.intervalSlots(named, reference: (reference.start, reference.end), windowMs: o.windowMs,
                                                 stepMs: o.stepMs).map(recording.scored)
        let design = StressDesign.slots(named, StressDesign.primary, windowMs: o.windowMs, stepMs: o.stepMs)
        let designEnd = min(reference.end, design.map(\.startMs).min() ?? reference.end)
        return StressSubject(subject: subject, referenceStartMs: reference.start, referenceEndMs: reference.end,
                             referenceRule: reference.rule, reference: recording.tiles(from: reference.start, until: reference.end),
                             windows: windows, intervals: named,
                             sessionStartMs: hrTimes.first ?? named.first?.startMs ?? 0,
                             sessionEndMs: hrTimes.last ?? named.last?.endMs ?? 0,
                             design: design.map(recording.scored),
                             designReference: recording.tiles(from: reference.start, until: designEnd),
                             designBeatReference: recording.tiles(from: reference.start, until: designEnd, beats: true))
    }

    /// The `stress` and `baseline` intervals (sorted) named: stress intervals by the
    /// protocol's task order when there is one per task, else numbered.
    static func named(_ sorted: [LabelInterval], protocolTasks: [String]) -> [StressInterval] {
        let named = sorted.filter { $0.label == stressLabel }.count == protocolTasks.count
        var stressIndex = 0
        return sorted.map { interval in
            let isStress = interval.label == stressLabel
            let task = isStress ? (named ? protocolTasks[stressIndex] : "task \(stressIndex + 1)") : ""
            if isStress { stressIndex += 1 }
            return StressInterval(startMs: interval.startMs, endMs: interval.endMs, stress: isStress, task: task)
        }
    }
}
