import Foundation

/// One stretch of beat-level recording: a listening session (the watch records R-R
/// and reports HR every 5 s during an active session) or a night's 5-minute window
/// (HR reported once a minute).
struct RRSpan {
    struct Beat {
        var timeMs: Int64
        var rrMs: Double
    }

    var day: Int
    var startMs: Int64
    var endMs: Int64
    var hrStepMs: Int64
    /// The span's beats, let go once handed over (`BeatSpans.init`'s `handOver`).
    var beats: [Beat]
    /// Mean and SD (ms) of a night window's R-R intervals (`Stats.mean`, `Stats.sd`), the
    /// daily measurement's resting HR and SDNN, taken when the span is made; nil for a session.
    let night: (meanRRMs: Double, sdRRMs: Double)?
    /// The HR (bpm) the watch reports at each `hrStepMs` after the start (`hrSamples`),
    /// taken from the beats when the span is made; NaN where no beat closed in the 5 s
    /// before. A rounded bpm is a whole number, exact as a Float: 4 bytes a sample.
    private var stepBpm: [Float]

    init(day: Int, startMs: Int64, endMs: Int64, hrStepMs: Int64, beats: [Beat]) {
        self.day = day
        self.startMs = startMs
        self.endMs = endMs
        self.hrStepMs = hrStepMs
        self.beats = beats
        if hrStepMs == Self.nightStepMs {
            let rr = beats.map(\.rrMs)
            night = (Stats.mean(rr), Stats.sd(rr))
        } else {
            night = nil
        }
        stepBpm = []
        stepBpm = reportedBpm()
    }

    /// The HR step of a night's window (ms): the watch reports once a minute.
    static let nightStepMs: Int64 = 60_000

    /// HR samples (ms, bpm) every `hrStepMs` after the start: 60000 / mean of the R-R
    /// intervals closing in the preceding 5 s, rounded to 1 bpm as watches report it;
    /// none where no interval closed.
    var hrSamples: [(Int64, Double)] {
        stepBpm.indices.compactMap { k in
            stepBpm[k].isNaN ? nil : (startMs + Int64(k + 1) * hrStepMs, Double(stepBpm[k]))
        }
    }

    /// The reported HR at each step (`stepBpm`).
    private func reportedBpm() -> [Float] {
        var out: [Float] = []
        var lo = 0, hi = 0
        var t = startMs + hrStepMs
        while t <= endMs {
            while hi < beats.count, beats[hi].timeMs <= t { hi += 1 }
            while lo < hi, beats[lo].timeMs <= t - 5000 { lo += 1 }
            if hi > lo {
                let mean = beats[lo..<hi].reduce(0) { $0 + $1.rrMs } / Double(hi - lo)
                out.append(Float((60_000 / mean).rounded()))
            } else {
                out.append(.nan)
            }
            t += hrStepMs
        }
        return out
    }

    /// The `rr.csv` rows of the span's beats, in time order.
    func rows(subject: String) -> some Sequence<RRInterval> {
        beats.lazy.map { RRInterval(subject: subject, timestampMs: $0.timeMs, rrMs: $0.rrMs, source: PersonaSimulator.source) }
    }
}

/// All beat-level spans of a persona, in time order.
struct BeatSpans {
    var spans: [RRSpan] = []

    /// `rr.csv` rows of the beats kept, in time order, made one at a time as they are read.
    func rows(subject: String) -> some Sequence<RRInterval> {
        spans.lazy.flatMap { $0.rows(subject: subject) }
    }

    /// `disturbances[k]` (none by default) are added to session k's HR and RMSSD
    /// (`ResponseLaw` noise and motion artifacts). With `handOver`, each span goes to it
    /// as soon as it is made, in time order, and its beats are then let go: a
    /// persona-year's 2.5 M beats are never all held.
    init(_ p: PersonaProfile, timeline: PersonaTimeline, days: [PersonaDay], sessions: [ListeningSession],
         meanHR: [Double], disturbances: [[Disturbance]] = [], random: SeededRandom,
         handOver: ((RRSpan) throws -> Void)? = nil) throws {
        var generator = BeatGenerator(random: random)
        func add(_ span: RRSpan) throws {
            var span = span
            if let handOver {
                try handOver(span)
                span.beats = []
            }
            spans.append(span)
        }
        enum Source { case night(PersonaTimeline.Sleep), session(ListeningSession, [Disturbance]) }
        var sources: [(Int64, Source)] = timeline.sleeps.map { (timeline.timeMs(minute: $0.rrWindow), .night($0)) }
        sources += sessions.indices.map { k in
            (sessions[k].startMs, .session(sessions[k], k < disturbances.count ? disturbances[k] : []))
        }
        sources.sort { $0.0 < $1.0 }
        for (startMs, source) in sources {
            var beats: [RRSpan.Beat] = []
            let emit = { (t: Double, rr: Double) in beats.append(RRSpan.Beat(timeMs: Int64((t * 1000).rounded()), rrMs: rr)) }
            switch source {
            case let .night(sleep):
                let today = days[sleep.day]
                let c = RRComponents(sdnnMs: today.sdnnMs, rmssdMs: today.rmssdMs,
                                     meanRRMs: 60_000 / today.restingHRBpm, breathingHz: p.breathingHz)
                let endMs = startMs + Int64(PersonaTimeline.rrWindowMinutes) * 60_000
                generator.run(from: Double(startMs) / 1000, to: Double(endMs) / 1000, components: c,
                              state: { _ in (today.restingHRBpm, today.rmssdMs) }, emit: emit)
                try add(RRSpan(day: sleep.day, startMs: startMs, endMs: endMs, hrStepMs: RRSpan.nightStepMs, beats: beats))
            case let .session(session, noise):
                let firstMinute = Int((startMs - timeline.spanStartMs) / 60_000)
                let d = PersonaSimulator.physiologyDay(firstMinute, timeline: timeline, days: days.count)
                let today = days[d]
                let c = RRComponents(sdnnMs: today.sdnnMs, rmssdMs: today.rmssdMs,
                                     meanRRMs: 60_000 / meanHR[firstMinute], breathingHz: p.breathingHz)
                var first = 0
                let responses = session.responses
                let origin = Double(timeline.spanStartMs) / 1000
                let state = { (t: Double) -> (hrBpm: Double, rmssdMs: Double) in
                    // Mean HR interpolated between minute values, plus the music.
                    let x = (t - origin) / 60
                    let m = min(max(0, Int(x)), meanHR.count - 2)
                    let f = min(1, max(0, x - Double(m)))
                    var hr = meanHR[m] + f * (meanHR[m + 1] - meanHR[m])
                    var rmssd = today.rmssdMs
                    while first < responses.count, responses[first].isOver(at: t) { first += 1 }
                    var i = first
                    while i < responses.count, responses[i].startS < t {
                        let v = responses[i].value(at: t)
                        hr += v.hrBpm
                        rmssd += v.rmssdMs
                        i += 1
                    }
                    for n in noise {
                        let v = n.value(at: t)
                        hr += v.hrBpm
                        rmssd += v.rmssdMs
                    }
                    return (hr, rmssd)
                }
                generator.run(from: Double(startMs) / 1000, to: Double(session.endMs) / 1000, components: c,
                              state: state, emit: emit)
                try add(RRSpan(day: d, startMs: startMs, endMs: session.endMs, hrStepMs: 5000, beats: beats))
            }
        }
    }
}
