/// One row of `daily.csv` (docs/tables.md, daily.csv): a person-day's inputs and the daily engines'
/// outputs. Written by the persona generator, read back by the persona report.
public struct DailyRow: Equatable, Sendable {
    public var snapshot: DailySnapshot
    public var stress: Double?
    /// `relaxed`, `balanced`, `elevated`, or empty without a score.
    public var stressLevel: String
    public var readiness: Double?
    /// `primed`, `ready`, `moderate`, `recovering`, or empty without a score.
    public var readinessLevel: String
    public var anomaly: Double?
    public var flags: [String]
    /// BioAge in years and its category (`BioAgeCategory`), empty without one.
    public var bioAge: Double?
    public var bioAgeCategory: String
    /// `rising`, `falling`, `steady`, or empty without enough scored days.
    public var stressTrend: String

    public init(snapshot: DailySnapshot, stress: Double?, stressLevel: String, readiness: Double?,
                readinessLevel: String, anomaly: Double?, flags: [String], bioAge: Double? = nil, bioAgeCategory: String = "",
                stressTrend: String = "") {
        self.snapshot = snapshot; self.stress = stress; self.stressLevel = stressLevel
        self.readiness = readiness; self.readinessLevel = readinessLevel; self.anomaly = anomaly; self.flags = flags
        self.bioAge = bioAge; self.bioAgeCategory = bioAgeCategory; self.stressTrend = stressTrend
    }
}

extension DailyRow: CanonicalRow {
    public static let fileName = "daily.csv"
    public static let header = [
        "subject", "date", "resting_hr", "hrv_sdnn", "recovery_1m", "recovery_2m", "vo2max", "zone_minutes",
        "steps", "walk_minutes", "workout_minutes", "sleep_hours", "body_mass", "stress", "stress_level",
        "readiness", "readiness_level", "anomaly", "flags", "bio_age", "bio_age_category", "stress_trend", "wear_hours",
        "hrv_rmssd", "hrv_basis", "local_time",
    ]

    static let metrics: [(column: String, key: WritableKeyPath<DailySnapshot, Double?>)] = [
        ("resting_hr", \.restingHRBpm), ("hrv_sdnn", \.hrvSDNNMs), ("recovery_1m", \.recovery1mBpm),
        ("recovery_2m", \.recovery2mBpm), ("vo2max", \.vo2Max), ("zone_minutes", \.zoneMinutes),
        ("steps", \.steps), ("walk_minutes", \.walkMinutes), ("workout_minutes", \.workoutMinutes),
        ("sleep_hours", \.sleepHours), ("body_mass", \.bodyMassKg),
    ]

    public func write(to w: CSVWriter) {
        w.field(snapshot.subject); w.field(snapshot.date)
        for m in Self.metrics { w.field(snapshot[keyPath: m.key]) }
        w.field(stress); w.field(stressLevel); w.field(readiness); w.field(readinessLevel)
        w.field(anomaly); w.field(flags.joined(separator: ";"))
        w.field(bioAge); w.field(bioAgeCategory)
        w.field(stressTrend); w.field(snapshot.wearHours); w.field(snapshot.hrvRMSSDMs); w.field(snapshot.hrvBasis)
        w.field(snapshot.localTime)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let date = try r.string("date")
        guard let day = Timestamp.dayNumber(isoDate: date) else {
            throw r.fail("date", "'date' is not a YYYY-MM-DD date: '\(date)'")
        }
        var snapshot = DailySnapshot(subject: try r.string("subject"), day: day)
        for m in Self.metrics { snapshot[keyPath: m.key] = try r.optionalDouble(m.column) }
        snapshot.wearHours = try r.optionalDouble("wear_hours")
        snapshot.hrvRMSSDMs = try r.optionalDouble("hrv_rmssd")
        snapshot.hrvBasis = try r.string("hrv_basis")
        snapshot.localTime = try r.string("local_time")
        let flags = try r.string("flags")
        self.init(snapshot: snapshot, stress: try r.optionalDouble("stress"), stressLevel: try r.string("stress_level"),
                  readiness: try r.optionalDouble("readiness"), readinessLevel: try r.string("readiness_level"),
                  anomaly: try r.optionalDouble("anomaly"),
                  flags: flags.isEmpty ? [] : flags.split(separator: ";").map(String.init),
                  bioAge: try r.optionalDouble("bio_age"), bioAgeCategory: try r.string("bio_age_category"),
                  stressTrend: try r.string("stress_trend"))
    }
}
