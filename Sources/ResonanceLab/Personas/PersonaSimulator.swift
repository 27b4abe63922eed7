import Foundation

/// Everything simulated for one persona, in the canonical record types, except the
/// signals: a persona-year has millions of R-R intervals and of HR samples, so the
/// record keeps the minute heart rate and each span's HR samples, from which the rows
/// of `hr.csv` (`HeartRateTrace.samples`) are made one at a time as they are written,
/// and the beats (16 bytes each) unless they were handed over as they were made
/// (`PersonaSimulator.simulate`'s `handOver`).
public struct PersonaRecord: Sendable {
    public var profile: PersonaProfile
    var heartRate: HeartRateTrace
    /// The listening sessions, whose plays are `plays.csv`'s rows.
    var sessions: [ListeningSession]
    /// The songs the sessions play.
    var catalogue: SongCatalogue
    public var sleep: [SleepEpisode]
    public var workouts: [Workout]
    /// One snapshot per simulated date, measured from the simulated signals.
    public var days: [DailySnapshot]

    /// Every `hr.csv` row, in time order.
    public var hr: [HRSample] { Array(heartRate.samples(subject: profile.name)) }

    /// Every `plays.csv` row, in time order.
    public var plays: [Play] { Array(playRows) }

    /// The `plays.csv` rows, made one at a time as they are read.
    var playRows: some Sequence<Play> {
        sessions.lazy.flatMap { [profile, catalogue] in $0.plays(subject: profile.name, catalogue: catalogue) }
    }

    /// Every `rr.csv` row, in time order, of a persona simulated without `handOver`.
    public var rr: [RRInterval] { Array(heartRate.beats.rows(subject: profile.name)) }
}

/// The heart rate of one persona as `hr.csv` has it: a sample a minute from the first
/// date on (the watch's minute HR, rounded), except inside R-R spans and the 5 s after
/// them, where the samples are the ones computed from the beats themselves (`RRSpan.hrSamples`).
struct HeartRateTrace: Sendable {
    /// Minute HR (bpm) as the watch records it, from the timeline's first minute.
    var minuteBpm: [Double]
    /// Time of the timeline's first minute (ms).
    var startMs: Int64
    var beats: BeatSpans

    /// The first minute with a sample: midnight of the first date (the timeline starts at noon before it).
    static let firstMinute = 720

    /// `hr.csv` rows in time order, made one at a time as they are read; on equal times
    /// a minute sample comes before a span's.
    func samples(subject: String) -> some Sequence<HRSample> {
        Samples(trace: self).lazy.map { HRSample(subject: subject, timestampMs: $0.0, bpm: $0.1, source: PersonaSimulator.source) }
    }

    /// The minute samples and the spans' samples, merged by time.
    private struct Samples: Sequence, IteratorProtocol {
        let trace: HeartRateTrace
        private var minute = HeartRateTrace.firstMinute, spanAtMinute = 0
        private var nextMinute: (Int64, Double)?
        private var span = 0, spanSamples: [(Int64, Double)] = [], inSpan = 0

        init(trace: HeartRateTrace) {
            self.trace = trace
            nextMinute = advanceMinute()
        }

        /// The next minute sample outside the spans (and the 5 s after each).
        private mutating func advanceMinute() -> (Int64, Double)? {
            let spans = trace.beats.spans
            while minute < trace.minuteBpm.count {
                let m = minute, t = trace.startMs + Int64(m) * 60_000
                minute += 1
                while spanAtMinute < spans.count, spans[spanAtMinute].endMs + 5000 < t { spanAtMinute += 1 }
                if spanAtMinute < spans.count, spans[spanAtMinute].startMs <= t { continue }
                return (t, trace.minuteBpm[m].rounded())
            }
            return nil
        }

        /// The next span sample, without taking it.
        private mutating func peekSpan() -> (Int64, Double)? {
            while inSpan == spanSamples.count {
                guard span < trace.beats.spans.count else { return nil }
                spanSamples = trace.beats.spans[span].hrSamples
                span += 1; inSpan = 0
            }
            return spanSamples[inSpan]
        }

        mutating func next() -> (Int64, Double)? {
            let fromSpan = peekSpan()
            if let m = nextMinute, fromSpan.map({ m.0 <= $0.0 }) ?? true {
                nextMinute = advanceMinute()
                return m
            }
            if fromSpan != nil { inSpan += 1 }
            return fromSpan
        }
    }
}

/// Simulates one persona: day-level physiology → minute-level timeline (sleep,
/// workouts, walking, listening) → minute HR → beat-level R-R during listening
/// sessions and each night's 5-minute window → HR samples from those beats → the
/// daily snapshot measured from it all.
enum PersonaSimulator {
    static let source = "resonance-personas"
    /// Sleeping offsets from resting HR (bpm): REM and wake raise HR, deep sleep
    /// lowers it; light (core) sleep, where the nightly window sits, is at rest.
    static let stageOffsetBpm: [PersonaTimeline.State: Double] = [.core: 0, .deep: -2, .rem: 3, .nightWake: 8]
    /// Awake sitting HR above sleeping resting HR (bpm), and the circadian amplitude
    /// (bpm, peak at 16:00).
    static let awakeOffsetBpm = 10.0
    static let circadianBpm = 2.5
    /// HR rise time constant at exercise onset (minutes).
    static let riseMinutes = 1.5

    /// The random stream `name` of the persona whose seed is `seed`.
    static func stream(_ name: String, seed: UInt64) -> SeededRandom { SeededRandom(seed: seed ^ SeededRandom.djb2(name)) }

    /// `events` (`HealthEvent`) change the day-level physiology before anything is
    /// built on it, and an overreaching's load block lengthens and hardens its workouts.
    /// `law` plants the music responses (`ResponseLaw`, with each catalogue song's
    /// drift); any law but the standard one draws from the persona's own
    /// `response-law` stream, so the standard law's outputs do not change. With
    /// `handOver`, each R-R span goes to it as it is made and the record keeps no
    /// session's beats (`BeatSpans.init`); the draws, and so every value, are the same.
    static func simulate(_ p: PersonaProfile, catalogue: SongCatalogue, firstDay: Int, days: Int,
                         seed: UInt64, zones: HeartRateZoneEngine, events: [HealthEvent] = [],
                         law: ResponseLaw = ResponseLaw(.standard), drift: [Double] = [],
                         handOver: ((RRSpan) throws -> Void)? = nil) throws -> PersonaRecord {
        func stream(_ name: String) -> SeededRandom { Self.stream(name, seed: seed) }
        var dayRandom = stream("days"), scheduleRandom = stream("schedule"), listenRandom = stream("listening")
        var noiseRandom = stream("noise")
        var personaDays = PersonaDay.series(p, days: days, random: &dayRandom)
        HealthEvent.apply(events, to: &personaDays)
        var timeline = PersonaTimeline(firstDay: firstDay, days: days)
        timeline.placeSleeps(p, days: personaDays, random: &scheduleRandom)
        timeline.placeWorkouts(p, days: days, random: &scheduleRandom) { d in events.reduce(1) { $0 * $1.load(day: d) } }
        let library = PersonaLibrary(p, catalogue: catalogue, random: &listenRandom)
        var lawRandom = stream("response-law")
        let listenerLaw = Self.listenerLaw(law, songs: catalogue.songs.count, drift: drift, firstDay: firstDay, days: days,
                                           random: &lawRandom)
        let sessions = ListeningSimulator.sessions(p, library: library, catalogue: catalogue, timeline: &timeline,
                                                   days: days, law: listenerLaw, random: &listenRandom)
        let disturbances = sessions.map { listenerLaw.disturbances($0, random: &lawRandom) }
        timeline.placeWalking(days: personaDays, random: &scheduleRandom)

        // Past each date's steps and walking, only a minute's mean HR needs the minute's
        // cadence, so the cadence becomes the mean HR in place; the beats follow the mean
        // HR, and the watch's minute HR is the mean plus its own stream's wander, added in
        // place once the beats are made: one array a minute for all three.
        let activity = DailyMeasurement.activity(timeline, days: days)
        var noisyHR = timeline.cadence
        timeline.cadence = []
        minuteHR(p, timeline: timeline, days: personaDays, cadenceToHR: &noisyHR)
        let beats = try BeatSpans(p, timeline: timeline, days: personaDays, sessions: sessions, meanHR: noisyHR,
                                  disturbances: disturbances, random: stream("beats"), handOver: handOver)
        addWander(&noisyHR, timeline: timeline, random: &noiseRandom)
        var scaleRandom = stream("scale")
        let snapshots = DailyMeasurement.snapshots(p, timeline: timeline, days: personaDays, activity: activity, noisyHR: noisyHR,
                                                   beats: beats, zones: zones, scale: &scaleRandom)
        return PersonaRecord(
            profile: p, heartRate: HeartRateTrace(minuteBpm: noisyHR, startMs: timeline.spanStartMs, beats: beats), sessions: sessions, catalogue: catalogue,
            sleep: sleepEpisodes(p, timeline: timeline),
            workouts: timeline.workouts.map {
                Workout(subject: p.name, startMs: timeline.timeMs(minute: $0.start),
                        endMs: timeline.timeMs(minute: $0.end), activity: $0.activity)
            },
            days: snapshots)
    }

    /// The response law as the persona realises it, first from its `response-law`
    /// stream (the standard law draws nothing); the study runs from `firstDay` for `days`.
    static func listenerLaw(_ law: ResponseLaw, songs: Int, drift: [Double], firstDay: Int, days: Int,
                            random: inout SeededRandom) -> ListenerLaw {
        guard !law.isStandard else { return .standard }
        return law.listener(songs: songs, drift: drift, studyStartS: Double(firstDay) * 86_400,
                            studyLengthS: Double(days) * 86_400, random: &random)
    }

    /// Date index whose physiology applies at minute `m` (the sleep's date in sleep).
    static func physiologyDay(_ m: Int, timeline: PersonaTimeline, days: Int) -> Int {
        min(days - 1, max(0, timeline.day(ofMinute: m)))
    }

    /// Deterministic mean HR (bpm) of every minute: sleeping rest + stage offset, or
    /// awake sitting HR with a circadian swing, plus exercise. Exercise raises HR
    /// toward rest + intensity × reserve (Karvonen) with a 1.5-minute time constant
    /// and lets it fall with the time constant that makes the first minute's drop
    /// equal the day's 1-minute recovery: τ = −1/ln(1 − recovery/(HR − target)).
    /// `hr` holds each minute's cadence (steps/min) on entry and its mean HR on return.
    static func minuteHR(_ p: PersonaProfile, timeline: PersonaTimeline, days: [PersonaDay], cadenceToHR hr: inout [Double]) {
        var sleepDay = [Int32](repeating: -1, count: timeline.minutes)
        for s in timeline.sleeps { for m in s.start..<s.end { sleepDay[m] = Int32(s.day) } }
        var exercise = 0.0
        var fallTau = 1.0
        for m in 0..<timeline.minutes {
            let d = sleepDay[m] >= 0 ? Int(sleepDay[m]) : physiologyDay(m, timeline: timeline, days: days.count)
            let today = days[d]
            let reserve = p.maxHRBpm - today.restingHRBpm
            let state = timeline.state[m]
            let target: Double
            switch state {
            case .workout:
                target = (timeline.workouts.first { $0.start <= m && m < $0.end }?.intensity ?? 0.5) * reserve
            case .shift:
                target = 0.1 * reserve
            default:
                target = hr[m] / 110 * 0.25 * reserve
            }
            if target >= exercise {
                exercise = target + (exercise - target) * exp(-1 / riseMinutes)
                fallTau = 0
            } else {
                if fallTau == 0 {
                    let fraction = min(0.95, today.recovery1mBpm / (exercise - target))
                    fallTau = -1 / log(1 - fraction)
                }
                exercise = target + (exercise - target) * exp(-1 / fallTau)
            }
            let level: Double
            if let offset = stageOffsetBpm[state] {
                level = today.restingHRBpm + offset
            } else {
                let hourOfDay = Double((m + 720) % 1440) / 60
                level = today.restingHRBpm + awakeOffsetBpm + circadianBpm * cos(2 * .pi * (hourOfDay - 16) / 24)
            }
            hr[m] = level + exercise
        }
    }

    /// Turns the mean HR of every minute into the minute HR a watch records: the mean
    /// plus an Ornstein–Uhlenbeck wander (τ = 5 min; SD 2 bpm awake, 1 bpm asleep).
    static func addWander(_ hr: inout [Double], timeline: PersonaTimeline, random: inout SeededRandom) {
        let rho = exp(-1.0 / 5)
        var x = 0.0
        for m in hr.indices {
            x = rho * x + (1 - rho * rho).squareRoot() * random.normal()
            let asleep = stageOffsetBpm[timeline.state[m]] != nil
            hr[m] += (asleep ? 1 : 2) * x
        }
    }

    /// sleep.csv rows: runs of one stage within each main sleep.
    static func sleepEpisodes(_ p: PersonaProfile, timeline: PersonaTimeline) -> [SleepEpisode] {
        func stage(_ s: PersonaTimeline.State) -> SleepStage {
            switch s {
            case .deep: return .deep
            case .rem: return .rem
            case .nightWake: return .awake
            default: return .core
            }
        }
        var episodes: [SleepEpisode] = []
        for s in timeline.sleeps {
            var runStart = s.start
            for m in (s.start + 1)...s.end where m == s.end || stage(timeline.state[m]) != stage(timeline.state[runStart]) {
                episodes.append(SleepEpisode(subject: p.name, startMs: timeline.timeMs(minute: runStart),
                                             endMs: timeline.timeMs(minute: m), stage: stage(timeline.state[runStart]),
                                             source: source))
                runStart = m
            }
        }
        return episodes
    }
}
