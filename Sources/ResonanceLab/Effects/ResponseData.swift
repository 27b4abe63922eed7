import Foundation

/// Per-play observations of one response (ΔHR, ΔRMSSD or skip), with songs,
/// listeners, contexts and time slots as dense 0-based indices. Columns are flat
/// arrays so the model's passes are O(plays) with no per-play allocation.
public struct ResponseData: Sendable {
    public var song: [Int32] = []
    public var listener: [Int32] = []
    public var context: [Int32] = []
    public var slot: [Int32] = []
    /// The response of each play.
    public var y: [Double] = []
    /// Fraction of the song's full effect the response can express (0…1).
    public var exposure: [Double] = []
    /// Song of the play before (same listener) whose effect is still wearing off,
    /// or −1; and the fraction of that song's full effect released during this
    /// play's measured change (see `Exposure.carryOver`).
    public var previousSong: [Int32] = []
    public var carry: [Double] = []
    /// Residual-variance group of each play (0 or 1): plays too short for separate
    /// start and end windows share samples between them, so their change is far
    /// less noisy than a full play's and must not pool into one σ².
    public var group: [UInt8] = []
    /// Value at the start of the play (bpm or ms); empty when the model has no
    /// start-value covariate.
    public var start: [Double] = []
    public var songs: Int
    public var listeners: Int
    public var contexts: Int
    public var slots: Int

    public init(songs: Int, listeners: Int, contexts: Int, slots: Int) {
        self.songs = songs; self.listeners = listeners; self.contexts = contexts; self.slots = slots
    }

    public var count: Int { y.count }

    public mutating func append(song: Int, listener: Int, context: Int, slot: Int, y: Double, exposure: Double,
                                previousSong: Int? = nil, carry: Double = 0, group: Int = 0, start: Double?) {
        self.group.append(group == 0 ? 0 : 1)
        self.song.append(Int32(song)); self.listener.append(Int32(listener))
        self.previousSong.append(Int32(carry > 0 ? previousSong ?? -1 : -1)); self.carry.append(carry > 0 && previousSong != nil ? carry : 0)
        self.context.append(Int32(context)); self.slot.append(Int32(slot))
        self.y.append(y); self.exposure.append(exposure)
        if let start { self.start.append(start) }
    }
}

/// Exposure of a play's measured change to the song's effect. The response is taken
/// to approach the song's full effect as 1 − exp(−t/τ) from the play start; the
/// measured change compares the median of the first window (≈ its midpoint) with
/// that of the last window, so it captures f(t_end) − f(t_start) of the full effect.
/// A short or skipped play thus contributes in proportion to what it could show.
public enum Exposure {
    public static func fraction(playedS: Double, windowS: Double, onsetS: Double) -> Double {
        guard playedS > 0 else { return 0 }
        let half = min(windowS, playedS) / 2
        let f = { (t: Double) in 1 - exp(-t / onsetS) }
        return max(0, f(playedS - half) - f(half))
    }

    /// Carry-over: the previous play reached 1 − exp(−played/τ) of its song's effect
    /// and releases it as exp(−t/τ) after its end, so between this play's start and
    /// end windows a fraction F·(exp(−t₁/τ) − exp(−t₂/τ)) of it disappears from the
    /// measured change (t₁, t₂ the window midpoints after the previous end).
    public static func carryOver(previousPlayedS: Double, gapS: Double, playedS: Double, windowS: Double,
                                 onsetS: Double) -> Double {
        guard previousPlayedS > 0, playedS > 0 else { return 0 }
        let reached = 1 - exp(-previousPlayedS / onsetS)
        let half = min(windowS, playedS) / 2
        let t1 = max(0, gapS) + half, t2 = max(0, gapS) + playedS - half
        return max(0, reached * (exp(-t1 / onsetS) - exp(-t2 / onsetS)))
    }
}
