/// One play as the product's learner sees it: the four scores (`Impact.of`), the
/// measured ΔHR (bpm), the ΔRMSSD (ms, from R-R only), the skip and whether the product
/// counts the play as measured (`Impact.hasBiometrics`: a ΔHR or ΔHRV of any source that
/// is a signal, a change of exactly 0 being none).
public struct LearnedPlay: Sendable, Equatable {
    public var scores: PlayScores
    public var hrDeltaBpm: Double?
    public var rmssdDeltaMs: Double?
    public var skipped: Bool
    public var biometrics: Bool

    /// `hrvDeltaMs`: the play's ΔHRV of any source; `hrvFromRR`: whether it is an RMSSD
    /// from R-R (only then is it learned as ΔRMSSD).
    public init(hrDeltaBpm: Double?, hrvDeltaMs: Double?, hrvFromRR: Bool, listenFraction: Double, skipped: Bool,
                impact k: ImpactConstants) {
        scores = Impact.of(hrDeltaBpm: hrDeltaBpm, hrvDeltaMs: hrvDeltaMs, listenFraction: listenFraction, skipped: skipped, constants: k)
        self.hrDeltaBpm = hrDeltaBpm
        rmssdDeltaMs = hrvFromRR ? hrvDeltaMs : nil
        self.skipped = skipped
        biometrics = Impact.hasBiometrics(hrDeltaBpm: hrDeltaBpm, hrvDeltaMs: hrvDeltaMs, constants: k)
    }

    /// A logged play of the sessions stage.
    public init(_ row: SessionPlayRow, impact k: ImpactConstants) {
        self.init(PlayMeasures(row), impact: k)
    }

    /// A play of a `PlayIndex`.
    public init(_ play: PlayMeasures, impact k: ImpactConstants) {
        self.init(hrDeltaBpm: play.hrDelta, hrvDeltaMs: play.hrvDelta, hrvFromRR: play.hrvFromRR,
                  listenFraction: play.listenFraction, skipped: play.skipped, impact: k)
    }
}

/// What one listener's phone has learned about their songs (docs/engines/toolkit.md,
/// Song effect): an `EMAState` per (song, session context), advanced only by plays of
/// kept sessions under their session's context, and per song the any-context state,
/// the confidence-weighted aggregate of its contexts (`EMAAggregate`). The `ema` model
/// (through `EMAReplay`), `dj replay` and `dj simulate` all learn through this type.
/// Songs and contexts are dense indices chosen by the caller.
public struct SongLearner: Sendable {
    public let constants: SongEffectConstants
    /// Number of contexts the caller's context indices run over.
    public let contexts: Int
    /// Per song × context (song-major), and per song; grown as songs appear.
    private var states: [EMAState?] = []
    private var anyContext: [EMAState?] = []

    public init(constants: SongEffectConstants, contexts: Int) {
        self.constants = constants; self.contexts = max(1, contexts)
    }

    /// The learning step of one play on the state of its (song, context).
    public static func learn(_ state: inout EMAState, _ play: LearnedPlay, constants s: SongEffectConstants) {
        EMALearner.update(&state, scores: play.scores, hrDeltaBpm: play.hrDeltaBpm, rmssdDeltaMs: play.rmssdDeltaMs,
                          skipped: play.skipped, biometrics: play.biometrics, constants: s)
    }

    /// Learns `play` of `song` under its session's context `context`.
    public mutating func learn(_ play: LearnedPlay, song: Int, context: Int) {
        if song >= anyContext.count {
            anyContext += [EMAState?](repeating: nil, count: song + 1 - anyContext.count)
            states += [EMAState?](repeating: nil, count: (song + 1) * contexts - states.count)
        }
        let key = song * contexts + context
        var state = states[key] ?? EMAState(constants: constants)
        Self.learn(&state, play, constants: constants)
        states[key] = state
        var aggregate = EMAAggregate()
        for c in 0..<contexts { if let s = states[song * contexts + c] { aggregate.add(s) } }
        anyContext[song] = aggregate.state(constants)
    }

    /// The state of (song, context); nil when no kept play of the song fell in it.
    public func state(song: Int, context: Int) -> EMAState? {
        song < anyContext.count ? states[song * contexts + context] : nil
    }

    /// The song's any-context state; nil when no kept play of it was learned.
    public func anyContext(song: Int) -> EMAState? { song < anyContext.count ? anyContext[song] : nil }
}
