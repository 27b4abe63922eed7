/// One day of a person's health metrics, the input of the daily engines. Every metric
/// is optional: engines re-normalise over what is present (docs/engines/heart-coach.md).
public struct DailySnapshot: Equatable, Sendable {
    public var subject: String
    /// The subject's local calendar day (`SubjectClock`), as days since 1970-01-01.
    public var day: Int
    public var restingHRBpm: Double?
    public var hrvSDNNMs: Double?
    /// Heart-rate drop 1 and 2 minutes after exercise, in bpm.
    public var recovery1mBpm: Double?
    public var recovery2mBpm: Double?
    /// mL·kg⁻¹·min⁻¹.
    public var vo2Max: Double?
    public var zoneMinutes: Double?
    public var steps: Double?
    public var walkMinutes: Double?
    public var workoutMinutes: Double?
    public var sleepHours: Double?
    public var bodyMassKg: Double?
    /// The day's mean RMSSD of `hrv_samples.csv`, ms.
    public var hrvRMSSDMs: Double?
    /// Where `hrvSDNNMs` came from: `sdnn` (measured), `rmssd_converted` (a day with
    /// RMSSD only, `daily_inputs.rmssd_to_sdnn_ratio`), empty without one.
    public var hrvBasis = ""
    /// Local clock hours (0–24) with at least one `hr.csv` sample; nil when the subject
    /// has no heart-rate samples at all.
    public var wearHours: Double?
    /// How the day was made local (`SubjectClock.basis`), e.g. `zone:Europe/London`.
    public var localTime = ""

    public init(subject: String, day: Int, restingHRBpm: Double? = nil, hrvSDNNMs: Double? = nil,
                recovery1mBpm: Double? = nil, recovery2mBpm: Double? = nil, vo2Max: Double? = nil,
                zoneMinutes: Double? = nil, steps: Double? = nil, walkMinutes: Double? = nil,
                workoutMinutes: Double? = nil, sleepHours: Double? = nil, bodyMassKg: Double? = nil) {
        self.subject = subject; self.day = day; self.restingHRBpm = restingHRBpm; self.hrvSDNNMs = hrvSDNNMs
        self.recovery1mBpm = recovery1mBpm; self.recovery2mBpm = recovery2mBpm; self.vo2Max = vo2Max
        self.zoneMinutes = zoneMinutes; self.steps = steps; self.walkMinutes = walkMinutes
        self.workoutMinutes = workoutMinutes; self.sleepHours = sleepHours; self.bodyMassKg = bodyMassKg
    }

    /// `YYYY-MM-DD` of `day`.
    public var date: String { Timestamp.isoDate(Int64(day) * 86_400_000) }
}
