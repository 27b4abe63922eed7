import Foundation

/// One labelled interval of a subject's session, named: `stress` intervals by the protocol's
/// task order (or numbered), `baseline` ones with an empty task.
public struct StressInterval: Equatable, Sendable {
    public var startMs: Int64
    public var endMs: Int64
    public var stress: Bool
    public var task: String
}

/// Where one window of a design lies, before anything is measured in it: its span, label,
/// task and, in a transition design, the transition it contrasts (e.g. `stroop start`).
public struct StressSlot: Equatable, Sendable {
    public var startMs: Int64
    public var endMs: Int64
    public var stress: Bool
    public var task: String
    public var transition: String
}

/// The primary design of the stress scoring protocol (docs/methods/validation.md, Stress
/// design against the clock). Every Stress-Predict session puts its tasks at the same
/// minutes, between a long first baseline and a long last rest (Iqbal et al. 2022, §2.2), so
/// any score that drifts over the session earns AUC for timing alone. The design contrasts
/// the minutes just before against just after each start and each end of the first two
/// stress tasks (Stroop, interview), a buffer left out at each transition: a start puts
/// its stress windows after the transition, an end before it, and with as many windows on
/// each side of a task's start as of its end, any score monotone in time has per-subject
/// AUC exactly ½. Its constants were chosen with time-only controls (`Controls`), before
/// any physiological score was computed on it.
enum StressDesign {
    /// A transition design: the buffer left out on each side of a transition, and per
    /// stress task in protocol order the span (s) of windows on each side of its start and
    /// of its end. Tasks beyond the spans listed are not in the design.
    struct Parameters: Equatable, Sendable {
        var bufferSeconds: Double
        var spanSeconds: [Double]
    }

    /// The primary design: 30 s buffer, 210 s of windows on each side of the Stroop's start
    /// and end, 90 s on each side of the interview's. Chosen among `candidates` as the one
    /// with the most windows over the subjects whose label-blind controls both have
    /// per-subject median AUC ≤ `maxControlAUC` on Stress-Predict (ties: the longer buffer). The
    /// session's middle lies inside the interview, so interview contrasts favour closeness
    /// to the middle; the Stroop's, far from it, offset that only while the interview
    /// carries under about half the Stroop's windows. The span plus buffer fits in the
    /// shortest Stroop (4.3 min) and rests (4.4 min) of the 25 labelled subjects. Sources: the
    /// session's layout, Iqbal et al. 2022, §2.2; every candidate's controls,
    /// evidence/measured/stress_design.md (`make evidence-stress-protocol`).
    static let primary = Parameters(bufferSeconds: 30, spanSeconds: [210, 90])
    /// The designs considered with the time-only controls: buffer × Stroop span × interview span.
    static let candidates: [Parameters] = [30.0, 60].flatMap { b in
        [120.0, 180, 210].flatMap { s in [90.0, 120, 180, 210].map { i in Parameters(bufferSeconds: b, spanSeconds: [s, i]) } }
    }
    /// The largest per-subject median AUC a label-blind control may reach on the primary
    /// design: a clock within 0.05 of chance.
    static let maxControlAUC = 0.55
    /// Width (s) of the elapsed-time bins of the clock fitted on the other subjects' labels:
    /// the windows' step (`StressScoringOptions.stepSeconds`), the finest grid the windows have.
    static let clockBinSeconds = 30.0

    /// The windows (length `windowMs`, every `stepMs`) of the transition design on one
    /// subject's named intervals in time order. Per task with a span, per start and end:
    /// windows starting at T + buffer + k·step after the transition and ending at
    /// T − buffer − span + k·step + window before it, k = 0, 1, … while the window fits in
    /// the span; each kept only when it lies wholly inside the labelled interval on its
    /// side (the task; the baseline interval before its start or after its end).
    static func slots(_ intervals: [StressInterval], _ p: Parameters, windowMs: Int64, stepMs: Int64) -> [StressSlot] {
        let tasks = intervals.filter(\.stress)
        var out: [StressSlot] = []
        for (task, span) in zip(tasks, p.spanSeconds) {
            guard let i = intervals.firstIndex(of: task) else { continue }
            let spanMs = Int64((span * 1000).rounded()), bufferMs = Int64((p.bufferSeconds * 1000).rounded())
            let count = spanMs >= windowMs ? Int((spanMs - windowMs) / max(1, stepMs)) + 1 : 0
            let sides: [(t: Int64, name: String, after: StressInterval?, before: StressInterval?)] = [
                (task.startMs, "start", task, i > 0 ? intervals[i - 1] : nil),
                (task.endMs, "end", i + 1 < intervals.count ? intervals[i + 1] : nil, task),
            ]
            for side in sides {
                for k in 0..<count {
                    let after = side.t + bufferMs + Int64(k) * stepMs, before = side.t - bufferMs - spanMs + Int64(k) * stepMs
                    for (start, interval) in [(after, side.after), (before, side.before)] {
                        guard let interval, interval.stress == (interval == task), start >= interval.startMs,
                              start + windowMs <= interval.endMs else { continue }
                        out.append(StressSlot(startMs: start, endMs: start + windowMs, stress: interval.stress,
                                              task: task.task, transition: "\(task.task) \(side.name)"))
                    }
                }
            }
        }
        return out
    }

    /// Every window (length `windowMs`, every `stepMs` from each interval's start) lying
    /// wholly inside one labelled interval and outside the reference period [start, end).
    static func intervalSlots(_ intervals: [StressInterval], reference: (start: Int64, end: Int64),
                              windowMs: Int64, stepMs: Int64) -> [StressSlot] {
        var out: [StressSlot] = []
        for interval in intervals {
            var start = interval.startMs
            while start + windowMs <= interval.endMs {
                if start + windowMs <= reference.start || start >= reference.end {
                    out.append(StressSlot(startMs: start, endMs: start + windowMs, stress: interval.stress,
                                          task: interval.task, transition: ""))
                }
                start += max(1, stepMs)
            }
        }
        return out
    }

    /// A label-blind control of one window: the seconds from the session's start to the
    /// window's middle (`elapsed`), and minus the seconds between the window's middle and
    /// the session's middle (`middleCloseness`, larger nearer the middle).
    static func elapsedSeconds(_ startMs: Int64, _ endMs: Int64, session: (start: Int64, end: Int64)) -> Double {
        Double(startMs + endMs - 2 * session.start) / 2000
    }

    static func middleCloseness(_ startMs: Int64, _ endMs: Int64, session: (start: Int64, end: Int64)) -> Double {
        -abs(Double(startMs + endMs) - Double(session.start + session.end)) / 2000
    }

    /// The clock fitted on the other subjects' labels, leave-one-subject-out: per subject,
    /// each window (elapsed seconds, label) scored by the stress share of the other
    /// subjects' windows whose elapsed time falls in the same `clockBinSeconds` bin, or by
    /// their overall stress share when none does. What timing alone, learned from others,
    /// explains.
    static func fittedClock(_ subjects: [[(elapsed: Double, stress: Bool)]]) -> [[Double]] {
        func bin(_ e: Double) -> Int { Int((e / clockBinSeconds).rounded(.down)) }
        var bins: [[Int: (stress: Int, all: Int)]] = subjects.map { _ in [:] }
        for (i, ws) in subjects.enumerated() {
            for w in ws {
                let c = bins[i][bin(w.elapsed)] ?? (0, 0)
                bins[i][bin(w.elapsed)] = (c.stress + (w.stress ? 1 : 0), c.all + 1)
            }
        }
        return subjects.indices.map { i in
            var pooled: [Int: (stress: Int, all: Int)] = [:]
            for j in subjects.indices where j != i {
                for (b, c) in bins[j] {
                    let p = pooled[b] ?? (0, 0)
                    pooled[b] = (p.stress + c.stress, p.all + c.all)
                }
            }
            let total = pooled.values.reduce((stress: 0, all: 0)) { ($0.stress + $1.stress, $0.all + $1.all) }
            let overall = total.all > 0 ? Double(total.stress) / Double(total.all) : 0.5
            return subjects[i].map { w in pooled[bin(w.elapsed)].map { Double($0.stress) / Double($0.all) } ?? overall }
        }
    }

    /// Scores less their least-squares line on elapsed time (one subject's windows; labels
    /// unused): a label-blind per-subject detrend. Centred only when the times do not vary.
    static func detrended(_ scores: [Double], elapsed: [Double]) -> [Double] {
        guard !scores.isEmpty else { return [] }
        let mx = Stats.mean(elapsed), my = Stats.mean(scores)
        let sxx = elapsed.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        let slope = sxx > 0 ? zip(elapsed, scores).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / sxx : 0
        return zip(elapsed, scores).map { $0.1 - my - slope * ($0.0 - mx) }
    }

    /// Per-subject AUCs of the time-only controls on each subject's windows: elapsed time,
    /// closeness to the session's middle, and the clock fitted on the other subjects.
    struct Controls {
        var elapsed: [Double], middle: [Double], clock: [Double]

        init(_ subjects: [(slots: [StressSlot], session: (start: Int64, end: Int64))]) {
            let timed = subjects.map { s in
                s.slots.map { (elapsed: StressDesign.elapsedSeconds($0.startMs, $0.endMs, session: s.session), stress: $0.stress) }
            }
            func auc(_ x: [Double], _ y: [Bool]) -> Double { GroupComparison.auc(scores: x, isPositive: y) }
            elapsed = timed.map { t in auc(t.map(\.elapsed), t.map(\.stress)) }
            middle = subjects.map { s in
                auc(s.slots.map { StressDesign.middleCloseness($0.startMs, $0.endMs, session: s.session) }, s.slots.map(\.stress))
            }
            clock = zip(StressDesign.fittedClock(timed), timed).map { auc($0.0, $0.1.map(\.stress)) }
        }

        /// Median over subjects of each control's finite per-subject AUCs.
        var medians: (elapsed: Double, middle: Double, clock: Double) {
            func m(_ x: [Double]) -> Double { let f = x.filter(\.isFinite); return f.isEmpty ? .nan : Stats.median(f) }
            return (m(elapsed), m(middle), m(clock))
        }
    }

    /// The design section's Markdown and JSON: the time-only controls of every candidate
    /// transition design and of every window of the primary tasks (the reference period
    /// excluded), the primary design marked. No physiological score is computed here.
    static func report(_ subjects: [StressSubject], options o: StressScoringOptions,
                       breathingTasks: Set<String>) -> (String, JSONValue) {
        let session = subjects.map { (start: $0.sessionStartMs, end: $0.sessionEndMs) }
        let names = subjects.first?.intervals.filter(\.stress).map(\.task) ?? []
        func row(_ name: String, _ slots: [[StressSlot]], primary: Bool) -> ([String], JSONValue) {
            let c = Controls(Array(zip(slots, session))), m = c.medians
            let usable = slots.filter { s in s.contains(where: \.stress) && s.contains { !$0.stress } }
            let perSubject = usable.isEmpty ? Double.nan : Stats.median(usable.map { Double($0.count) })
            let total = usable.reduce(0) { $0 + $1.count }
            let pass = m.elapsed <= maxControlAUC && m.middle <= maxControlAUC
            return ([primary ? "**\(name)** (primary)" : name, String(usable.count), String(total), StressAnalysis.f(perSubject, 0),
                     StressAnalysis.f(m.elapsed), StressAnalysis.f(m.middle), StressAnalysis.f(m.clock), pass ? "yes" : "no"],
                    .object(["design": .string(name), "primary": .bool(primary), "subjects": .int(usable.count),
                             "windows": .int(total), "windows_per_subject": .num(perSubject),
                             "elapsed_auc": .num(m.elapsed), "middle_auc": .num(m.middle), "fitted_clock_auc": .num(m.clock),
                             "controls_pass": .bool(pass)]))
        }
        let every = subjects.map { s in
            intervalSlots(s.intervals, reference: (s.referenceStartMs, s.referenceEndMs), windowMs: o.windowMs, stepMs: o.stepMs)
                .filter { !breathingTasks.contains($0.task) }
        }
        var rows = [row("every window of the non-breathing tasks and baselines", every, primary: false)]
        for p in candidates {
            let spans = zip(names, p.spanSeconds).map { "\($0.0) \(decimals($0.1, 0)) s" }.joined(separator: ", ")
            rows.append(row("transitions: buffer \(decimals(p.bufferSeconds, 0)) s; \(spans)",
                            subjects.map { slots($0.intervals, p, windowMs: o.windowMs, stepMs: o.stepMs) }, primary: p == primary))
        }
        var md = "\n### The design against the clock (time-only controls)\n\n"
        md += "Candidate designs scored by label-blind clocks only, no physiological signal: per subject the AUC of elapsed "
            + "time and of closeness to the session's middle (the heart-rate recording's first to last sample), and of the "
            + "clock fitted on the other subjects' labels (stress share per \(decimals(clockBinSeconds, 0))-s bin of elapsed "
            + "time, leave-one-subject-out); medians over subjects. The primary design is the candidate with the most windows "
            + "whose two label-blind controls are at most \(decimals(maxControlAUC, 2)) (ties: the longer buffer).\n\n"
        md += markdownTable(["design", "subjects", "windows", "windows per subject (median)", "elapsed", "closeness to the middle",
                             "fitted clock", "label-blind ≤ \(decimals(maxControlAUC, 2))"], rows.map(\.0))
        return (md, .object(["buffer_s": .num(primary.bufferSeconds), "span_s": .array(primary.spanSeconds.map { .num($0) }),
                             "tasks": .array(names.prefix(primary.spanSeconds.count).map(JSONValue.string)),
                             "max_control_auc": .num(maxControlAUC), "clock_bin_s": .num(clockBinSeconds),
                             "candidates": .array(rows.map(\.1))]))
    }
}
