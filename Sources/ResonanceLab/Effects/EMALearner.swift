/// What the product has learned about one song in one context for one listener:
/// the four scores, the toolkit's EMA of the raw changes (same rule, for comparison
/// with the statistical model), play count and confidence.
public struct EMAState: Equatable, Sendable {
    public var scores: PlayScores
    /// EMA of ΔHR (bpm), ΔRMSSD (ms) and skipped (0/1), started at the neutral values
    /// 0, 0 and 0.5, advanced only by plays that measured them.
    public var hrDelta: Double
    public var rmssdDelta: Double
    public var skip: Double
    public var plays: Int
    public var hrPlays: Int
    public var rmssdPlays: Int
    public var confidence: Double

    public init(constants s: SongEffectConstants) {
        let start = s.emaStart
        scores = PlayScores(calm: start, energy: start, focus: start, moodLift: start)
        hrDelta = 0; rmssdDelta = 0; skip = 0.5
        plays = 0; hrPlays = 0; rmssdPlays = 0; confidence = 0
    }
}

/// The product's per-(song, context) learning rule (docs/engines/toolkit.md, Song effect): an EMA
/// from 0.5 with α = 0.4 for the first 5 plays, then 0.2; confidence = min(1, n/20),
/// capped at 0.7 when the play had no biometrics.
public enum EMALearner {
    /// Smoothing weight for the play after `n` earlier ones.
    public static func alpha(after n: Int, constants s: SongEffectConstants) -> Double {
        Double(n) < s.earlyPlays ? s.alphaEarly : s.alphaLate
    }

    /// Advances `state` by one play. `biometrics`: whether the product counts the play as
    /// measured (`Impact.hasBiometrics`); nil reads it from the two changes given.
    public static func update(_ state: inout EMAState, scores: PlayScores, hrDeltaBpm: Double?, rmssdDeltaMs: Double?,
                              skipped: Bool, biometrics: Bool? = nil, constants s: SongEffectConstants) {
        let a = alpha(after: state.plays, constants: s)
        func step(_ old: Double, _ new: Double, _ w: Double) -> Double { old + w * (new - old) }
        state.scores = PlayScores(calm: step(state.scores.calm, scores.calm, a), energy: step(state.scores.energy, scores.energy, a),
                                  focus: step(state.scores.focus, scores.focus, a), moodLift: step(state.scores.moodLift, scores.moodLift, a))
        state.skip = step(state.skip, skipped ? 1 : 0, a)
        if let hr = hrDeltaBpm {
            state.hrDelta = step(state.hrDelta, hr, alpha(after: state.hrPlays, constants: s))
            state.hrPlays += 1
        }
        if let rmssd = rmssdDeltaMs {
            state.rmssdDelta = step(state.rmssdDelta, rmssd, alpha(after: state.rmssdPlays, constants: s))
            state.rmssdPlays += 1
        }
        state.plays += 1
        state.confidence = min(1, Double(state.plays) / s.confidenceFullPlays)
        if !(biometrics ?? (hrDeltaBpm != nil || rmssdDeltaMs != nil)) {
            state.confidence = min(state.confidence, s.noBiometricsConfidenceCap)
        }
    }
}
