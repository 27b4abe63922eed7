/// One row of `hr_recovery.csv` (docs/tables.md): heart-rate recovery after one workout,
/// from `hr.csv` — the peak near the workout's end, the heart rate 60 and 120 s after
/// it, the drops (bpm), and whether the samples allowed it (`quality`).
public struct HeartRateRecoveryRow: Equatable, Sendable {
    public var subject: String
    public var workoutStartMs: Int64
    public var workoutEndMs: Int64
    public var activity: String
    public var peakBpm: Double?
    public var hr60sBpm: Double?
    public var hr120sBpm: Double?
    public var drop1mBpm: Double?
    public var drop2mBpm: Double?
    /// `ok`, `no_peak` (no sample in the workout's last minute) or `no_60s` (no sample
    /// near +60 s); `ok` rows may still lack the 2-minute drop.
    public var quality: String
}

extension HeartRateRecoveryRow: CanonicalRow {
    public static let fileName = "hr_recovery.csv"
    public static let header = ["subject", "workout_start", "workout_end", "activity", "peak_bpm", "hr_60s_bpm", "hr_120s_bpm",
                                "drop_1m_bpm", "drop_2m_bpm", "quality"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: workoutStartMs); w.field(timestampMs: workoutEndMs); w.field(activity)
        w.field(peakBpm); w.field(hr60sBpm); w.field(hr120sBpm); w.field(drop1mBpm); w.field(drop2mBpm); w.field(quality)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), workoutStartMs: try r.timestamp("workout_start"),
                  workoutEndMs: try r.timestamp("workout_end"), activity: try r.string("activity"),
                  peakBpm: try r.optionalDouble("peak_bpm"), hr60sBpm: try r.optionalDouble("hr_60s_bpm"),
                  hr120sBpm: try r.optionalDouble("hr_120s_bpm"), drop1mBpm: try r.optionalDouble("drop_1m_bpm"),
                  drop2mBpm: try r.optionalDouble("drop_2m_bpm"), quality: try r.string("quality"))
    }
}

/// Heart-rate recovery after exercise, the drop from the peak to one (and two) minutes
/// after the exercise stops (Cole et al. 1999, N Engl J Med 341:1351; a 1-minute drop
/// of 12 bpm or less is their abnormal value). From samples, not a stress test: the
/// peak is the highest sample in the workout's last `recovery_peak_window_s`; the heart
/// rate at +60 s (+120 s) is the sample nearest to that instant within
/// `recovery_sample_tolerance_s`, nearest first, the earlier on a tie.
public enum HeartRateRecovery {
    /// The recovery after the workout `[startMs, endMs]` from one subject's samples
    /// (`times` ascending, ms; `bpm` alike).
    public static func after(workout w: Workout, times: [Int64], bpm: [Double], constants c: DailyInputConstants)
        -> HeartRateRecoveryRow {
        let window = Int64(c.recoveryPeakWindowSeconds * 1000), tolerance = Int64(c.recoverySampleToleranceSeconds * 1000)
        let from = lowerBound(times, w.endMs - window), to = lowerBound(times, w.endMs + 1)
        let peak = from < to ? bpm[from..<to].max() : nil
        func near(_ t: Int64) -> Double? {
            let i = lowerBound(times, t - tolerance), j = lowerBound(times, t + tolerance + 1)
            guard i < j else { return nil }
            let best = (i..<j).min { abs(times[$0] - t) != abs(times[$1] - t) ? abs(times[$0] - t) < abs(times[$1] - t) : $0 < $1 }
            return best.map { bpm[$0] }
        }
        let at60 = near(w.endMs + 60_000), at120 = near(w.endMs + 120_000)
        let quality = peak == nil ? "no_peak" : at60 == nil ? "no_60s" : "ok"
        return HeartRateRecoveryRow(
            subject: w.subject, workoutStartMs: w.startMs, workoutEndMs: w.endMs, activity: w.activity, peakBpm: peak,
            hr60sBpm: at60, hr120sBpm: at120, drop1mBpm: peak.flatMap { p in at60.map { p - $0 } },
            drop2mBpm: peak.flatMap { p in at120.map { p - $0 } }, quality: quality)
    }

    /// First index whose time is ≥ `t`.
    static func lowerBound(_ times: [Int64], _ t: Int64) -> Int {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether a sample at `t` can matter to the recovery of a workout ending at `endMs`.
    static func matters(_ t: Int64, workoutEndMs endMs: Int64, constants c: DailyInputConstants) -> Bool {
        t >= endMs - Int64(c.recoveryPeakWindowSeconds * 1000) && t <= endMs + 120_000 + Int64(c.recoverySampleToleranceSeconds * 1000)
    }
}
