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
    /// Share of the song's full-play effect already present in the start value
    /// (the onset during the first window, `Exposure.startShare`).
    public var startShare: [Double] = []
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

    /// The plays ordered by song, then by `key` (`keys` values, e.g. `listener`), then
    /// in play order: two stable counting sorts, 4 bytes a play.
    func playsBySong(then key: [Int32], _ keys: Int) -> [Int32] {
        func sorted(_ plays: [Int32], by key: [Int32], _ keys: Int) -> [Int32] {
            var start = [Int](repeating: 0, count: keys + 1)
            for p in plays { start[Int(key[Int(p)]) + 1] += 1 }
            for k in 0..<keys { start[k + 1] += start[k] }
            var out = [Int32](repeating: 0, count: plays.count)
            for p in plays {
                out[start[Int(key[Int(p)])]] = p
                start[Int(key[Int(p)])] += 1
            }
            return out
        }
        return sorted(sorted((0..<count).map { Int32($0) }, by: key, keys), by: song, songs)
    }

    public mutating func append(song: Int, listener: Int, context: Int, slot: Int, y: Double, exposure: Double,
                                previousSong: Int? = nil, carry: Double = 0, group: Int = 0, startShare: Double = 0,
                                start: Double?) {
        self.startShare.append(startShare)
        self.group.append(group == 0 ? 0 : 1)
        self.song.append(Int32(song)); self.listener.append(Int32(listener))
        self.previousSong.append(Int32(carry > 0 ? previousSong ?? -1 : -1)); self.carry.append(carry > 0 && previousSong != nil ? carry : 0)
        self.context.append(Int32(context)); self.slot.append(Int32(slot))
        self.y.append(y); self.exposure.append(exposure)
        if let start { self.start.append(start) }
    }
}

/// Exposure of a play's measured change to its song's effect. A song's effect is
/// defined as the expected measured change of a full-length play (what a listener
/// of the whole song sees, and the scale of the personas' truth). The response
/// approaches its plateau as 1 − exp(−t/τ_on) from the play start; the measured
/// change compares the median of the first window (≈ its midpoint) with that of the
/// last, so it captures f(d) = F(d − w/2) − F(w/2) of the plateau for d seconds
/// played, and a play cut short expresses f(d)/f(D) of the effect, D the song's
/// full duration.
public enum Exposure {
    /// f(d): share of the plateau the change of a play `playedS` long captures.
    public static func fraction(playedS: Double, windowS: Double, onsetS: Double) -> Double {
        guard playedS > 0 else { return 0 }
        let half = min(windowS, playedS) / 2
        let f = { (t: Double) in 1 - exp(-t / onsetS) }
        return max(0, f(playedS - half) - f(half))
    }

    /// Share of the song's full-play effect already in the start window's value:
    /// F(w/2)/f(D) — the song itself moves the start value, which must not be
    /// mistaken for regression to the mean.
    public static func startShare(playedS: Double, durationS: Double, windowS: Double, onsetS: Double) -> Double {
        let full = fraction(playedS: max(durationS, playedS), windowS: windowS, onsetS: onsetS)
        return full > 0 ? (1 - exp(-min(windowS, playedS) / 2 / onsetS)) / full : 0
    }

    /// f(d)/f(D): share of the song's full-play effect expressed by a play cut at d.
    public static func relative(playedS: Double, durationS: Double, windowS: Double, onsetS: Double) -> Double {
        let full = fraction(playedS: max(durationS, playedS), windowS: windowS, onsetS: onsetS)
        return full > 0 ? fraction(playedS: playedS, windowS: windowS, onsetS: onsetS) / full : 0
    }

    /// Carry-over, in units of the previous song's full-play effect: the previous
    /// play reached F(d_q) of its plateau (1/f(D_q) effects) and releases it as
    /// exp(−t/τ_off) after its end, so between this play's window midpoints t₁ and t₂
    /// (after that end) F(d_q)·(exp(−t₁/τ_off) − exp(−t₂/τ_off))/f(D_q) disappears
    /// from the measured change.
    public static func carryOver(previousPlayedS: Double, previousDurationS: Double, gapS: Double, playedS: Double,
                                 windowS: Double, onsetS: Double, releaseS: Double) -> Double {
        guard previousPlayedS > 0, playedS > 0 else { return 0 }
        let full = fraction(playedS: max(previousDurationS, previousPlayedS), windowS: windowS, onsetS: onsetS)
        guard full > 0 else { return 0 }
        let reached = 1 - exp(-previousPlayedS / onsetS)
        let half = min(windowS, playedS) / 2
        let t1 = max(0, gapS) + half, t2 = max(0, gapS) + playedS - half
        return max(0, reached * (exp(-t1 / releaseS) - exp(-t2 / releaseS)) / full)
    }
}
