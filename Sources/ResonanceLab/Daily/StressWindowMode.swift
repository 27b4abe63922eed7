/// Heart rate and HRV of one short window of a recording: the mean HR (bpm) of its
/// samples and its SDNN (ms) when its R-R intervals are reliable, else nil.
public struct WindowSignals: Equatable, Sendable {
    public var hrBpm: Double?
    public var sdnnMs: Double?

    public init(hrBpm: Double?, sdnnMs: Double?) {
        self.hrBpm = hrBpm; self.sdnnMs = sdnnMs
    }
}

/// Window mode of the daily stress engine: scores one window of a recording against a
/// reference period of the same person, with the daily engine's own formula.
///
/// The adapter maps windows onto the daily engine's inputs and nothing else:
/// - each reference window becomes one baseline "day" (its mean HR as the resting HR,
///   its SDNN as the day's SDNN), the reference windows in time order on consecutive
///   days ending the day before the scored window;
/// - the scored window becomes "today".
/// So the resting-HR signal is the window's % above the reference mean HR, the HRV
/// signal the z-score of its ln(SDNN) against the reference windows, and the stability
/// signal the SDNN coefficient of variation over the last `cv_days − 1` reference
/// windows and the window. A window without reliable R-R has no SDNN: the engine then
/// re-weights over the signals it has, as it does for a day without HRV.
public enum StressWindowMode {
    /// The engine's inputs for `window` scored against `reference` (time order).
    public static func snapshots(window: WindowSignals, reference: [WindowSignals],
                                 subject: String) -> (today: DailySnapshot, history: [DailySnapshot]) {
        let history = reference.enumerated().map { i, r in
            DailySnapshot(subject: subject, day: i, restingHRBpm: r.hrBpm, hrvSDNNMs: r.sdnnMs)
        }
        let today = DailySnapshot(subject: subject, day: reference.count, restingHRBpm: window.hrBpm,
                                  hrvSDNNMs: window.sdnnMs)
        return (today, history)
    }

    /// The engine's signals for `window`: all a tuner needs, since the signals depend
    /// only on the engine's window-count constants and the score on the rest.
    public static func signals(_ engine: StressEngine, window: WindowSignals, reference: [WindowSignals]) -> StressSignals {
        let (today, history) = snapshots(window: window, reference: reference, subject: "")
        return engine.signals(today, history: history[...])
    }

    /// The engine's result for `window`; nil when no signal has enough reference.
    public static func assess(_ engine: StressEngine, window: WindowSignals, reference: [WindowSignals],
                              subject: String = "") -> StressResult? {
        let (today, history) = snapshots(window: window, reference: reference, subject: subject)
        return engine.assess(today, history: history[...])
    }
}
