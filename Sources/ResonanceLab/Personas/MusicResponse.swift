import Foundation

/// The planted response of a listener to one play, and how much of it the standard
/// per-play measurement sees.
///
/// Model. A play of song s by persona p, started at t₀ and ended at t₁ (d = t₁ − t₀
/// seconds played), adds to the listener's heart rate (bpm) and to the RMSSD the R-R
/// intervals express (ms) the response
///
///     r(t) = A·(1 − e^{−(t − t₀)/τon})          t₀ ≤ t ≤ t₁   (onset)
///     r(t) = r(t₁)·e^{−(t − t₁)/τoff}           t > t₁        (release)
///
/// with τon = 45 s (cardiac responses to music develop over tens of seconds;
/// Bernardi et al. 2006, Heart 92:445) and τoff = 6 s (vagal reactivation acts within seconds),
/// which keeps a play's release out of most of the next play's first 30 s.
/// Responses of consecutive plays add.
///
/// Calibration. The measurement the effects stage uses is, per play,
/// ΔHR = median HR of the last 30 s − median HR of the first 30 s and
/// ΔRMSSD = RMSSD of the last 60 s − RMSSD of the first 60 s. Each hr.csv sample at t
/// is the mean of the beats in (t − 5 s, t], i.e. the response near t − 2.5 s, and for
/// a monotone onset the median over a window is the value at its middle, so a play of
/// length d expresses
///
///     κHR(d)    = e^{−12.5/τon} − e^{−(d−17.5)/τon}                 (d ≥ 30 s, else 0)
///     κRMSSD(d) = (τon/60)(1 − e^{−60/τon})(1 − e^{−(d−60)/τon})    (d ≥ 60 s, else 0)
///
/// of the plateau A (κRMSSD is the mean onset over the last minute minus the first).
/// The plateau of a play is A = effect(s)·sensitivity(p)/κ(D), D the song's full
/// duration, so a full-length play's expected measured delta is song effect ×
/// sensitivity (the truth.csv values). A play cut at d < D expresses the fraction
/// κ(d)/κ(D): for D = 225 s (κHR = 0.748, κRMSSD = 0.538), HR 0.29 at d = 45 s, 0.49
/// at 60 s, 0.88 at 120 s; RMSSD 0 below 60 s, 0.76 at 120 s (skips below 30 s carry
/// no signal). The previous play's release subtracts about 0.17 × its own effect
/// from a back-to-back play's measured ΔHR (e^{−12.5/6}/κHR(D)) and about 0.19 × from
/// ΔRMSSD ((6/60)/κRMSSD(D)): noise, zero on average over songs.
public struct MusicResponse: Sendable, Equatable {
    public static let onsetSeconds = 45.0
    public static let releaseSeconds = 6.0

    public var startS: Double
    public var endS: Double
    public var plateauHRBpm: Double
    public var plateauRMSSDMs: Double
    /// The time course (the standard law's unless an alternative `ResponseLaw` is simulated).
    public var shape: ResponseShape

    /// The response to a play from `startS` to `endS` (seconds on any common clock) of
    /// a song with full duration `durationS` whose effect on this listener is
    /// `deltaHRBpm` / `deltaRMSSDMs` (song effect × sensitivity), following `shape`;
    /// the plateau is calibrated with the shape's own expression factors.
    public init(startS: Double, endS: Double, durationS: Double, deltaHRBpm: Double, deltaRMSSDMs: Double,
                shape: ResponseShape = .standard) {
        self.startS = startS; self.endS = endS; self.shape = shape
        plateauHRBpm = deltaHRBpm / shape.expressionHR(seconds: durationS)
        plateauRMSSDMs = deltaRMSSDMs / shape.expressionRMSSD(seconds: durationS)
    }

    /// Fraction of the plateau seen by the HR delta of a play `seconds` long.
    public static func expressionHR(seconds d: Double) -> Double {
        ResponseShape.standard.expressionHR(seconds: d)
    }

    /// Fraction of the plateau seen by the RMSSD delta of a play `seconds` long.
    public static func expressionRMSSD(seconds d: Double) -> Double {
        ResponseShape.standard.expressionRMSSD(seconds: d)
    }

    /// The response's shape at time `t` (0 before the play; ≤ 1 in magnitude unless
    /// the shape overshoots).
    @inline(__always)
    func shape(at t: Double) -> Double {
        guard t > startS else { return 0 }
        if t <= endS { return shape.onset(t - startS) }
        let atEnd = shape.onset(endS - startS)
        return atEnd * exp(-(t - endS) / shape.releaseS)
    }

    /// (ΔHR bpm, ΔRMSSD ms) added at time `t`.
    @inline(__always)
    public func value(at t: Double) -> (hrBpm: Double, rmssdMs: Double) {
        let s = shape(at: t)
        return (plateauHRBpm * s, plateauRMSSDMs * s)
    }

    /// True once the release has decayed below 10⁻⁶ of the plateau.
    func isOver(at t: Double) -> Bool {
        t > endS + 14 * shape.releaseS
    }
}
