/// The product's session score (docs/engines/toolkit.md, Session score):
/// 0.25·(1 − skipRate) + 0.30·clamp(0.5 + ΔHRV/20) + 0.25·avgListen + 0.20·sleepScore.
public enum SessionScore {
    /// - Parameters:
    ///   - hrvDeltaMs: session HRV change (ms); unknown counts as no change (term 0.5).
    ///   - sleepScore: next-night sleep score; unknown → `unknown_sleep_score` (0.5).
    public static func score(skipRate: Double, hrvDeltaMs: Double?, avgListen: Double,
                             sleepScore: Double?, constants c: SessionConstants) -> Double {
        let v = c
        let hrvTerm = min(1, max(0, 0.5 + (hrvDeltaMs ?? 0) / v.scoreHRVScaleMs))
        return v.scoreWeightSkip * (1 - skipRate) + v.scoreWeightHRV * hrvTerm
            + v.scoreWeightListen * avgListen + v.scoreWeightSleep * (sleepScore ?? v.unknownSleepScore)
    }
}
