import Foundation

/// The per-day measurements an export states itself (resting heart rate, VO2 max, step
/// count, …), as opposed to samples: `daily_inputs.csv`, one row per subject, local
/// date, metric and source (docs/tables.md, daily_inputs.csv). They are never mixed
/// into the sample tables.
public struct DailyInputRow: Equatable, Sendable {
    public var subject: String
    /// The subject's local calendar date, `YYYY-MM-DD` (the offset each record carries).
    public var date: String
    public var metric: String
    public var value: Double
    public var unit: String
    /// The export's source of the value (Apple Health's `sourceName`, or the format).
    public var source: String

    public init(subject: String, date: String, metric: String, value: Double, unit: String, source: String) {
        self.subject = subject; self.date = date; self.metric = metric; self.value = value; self.unit = unit; self.source = source
    }
}

extension DailyInputRow: CanonicalRow {
    public static let fileName = "daily_inputs.csv"
    public static let header = ["subject", "date", "metric", "value", "unit", "source"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(metric); w.field(value); w.field(unit); w.field(source)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let date = try r.string("date")
        guard Timestamp.dayNumber(isoDate: date) != nil else { throw r.fail("date", "'date' is not a YYYY-MM-DD date: '\(date)'") }
        self.init(subject: try r.string("subject"), date: date, metric: try r.string("metric"), value: try r.double("value"),
                  unit: try r.string("unit"), source: try r.string("source"))
    }
}

/// The daily metrics an import reads, with their unit and how a day's records combine
/// (docs/import.md, Daily inputs).
public enum DailyMetric: String, CaseIterable, Sendable {
    case restingHR = "resting_hr"
    case hrRecovery1m = "hr_recovery_1m"
    case vo2Max = "vo2_max"
    case steps
    case exerciseMinutes = "exercise_minutes"
    case activeEnergy = "active_energy"
    case walkingHR = "walking_hr"
    case bodyMass = "body_mass"
    case height

    public var unit: String {
        switch self {
        case .restingHR, .hrRecovery1m, .walkingHR: return "bpm"
        case .vo2Max: return "mL/kg/min"
        case .steps: return "count"
        case .exerciseMinutes: return "min"
        case .activeEnergy: return "kcal"
        case .bodyMass: return "kg"
        case .height: return "cm"
        }
    }

    /// Counts over the day (steps, exercise minutes, active energy) are summed; levels
    /// (heart rates, VO2 max, body mass, height) are averaged.
    public var isCumulative: Bool { self == .steps || self == .exerciseMinutes || self == .activeEnergy }

    /// The Apple Health record types read as daily inputs, with their metric.
    static let appleHealthTypes: [(type: String, metric: DailyMetric)] = [
        ("HKQuantityTypeIdentifierRestingHeartRate", .restingHR),
        ("HKQuantityTypeIdentifierHeartRateRecoveryOneMinute", .hrRecovery1m),
        ("HKQuantityTypeIdentifierVO2Max", .vo2Max), ("HKQuantityTypeIdentifierStepCount", .steps),
        ("HKQuantityTypeIdentifierAppleExerciseTime", .exerciseMinutes),
        ("HKQuantityTypeIdentifierActiveEnergyBurned", .activeEnergy),
        ("HKQuantityTypeIdentifierWalkingHeartRateAverage", .walkingHR), ("HKQuantityTypeIdentifierBodyMass", .bodyMass),
        ("HKQuantityTypeIdentifierHeight", .height),
    ]

    /// Whether the export's unit of the metric varies (so each record's unit is read).
    var unitVaries: Bool { self == .exerciseMinutes || self == .activeEnergy || self == .bodyMass || self == .height }

    /// The factor that brings an Apple Health record's `unit` to `unit` (exercise time
    /// in min or hr; energy in kcal, Cal or kJ; body mass in kg, g or lb; height in cm,
    /// m, in or ft).
    func factor(appleHealthUnit unit: String) -> Double {
        factor(fromUnit: unit) ?? 1
    }

    /// The factor that brings a value stated in `unit` to `unit`, or nil for a unit the
    /// metric is never stated in: heart rates in bpm or count/min; VO2 max in
    /// mL/kg/min (any spelling of ml, kg and min); steps as count; exercise time in min,
    /// hr or s; energy in kcal, Cal or kJ; body mass in kg, g or lb; height in cm, m, in
    /// or ft.
    func factor(fromUnit unit: String) -> Double? {
        switch (self, unit) {
        case (.restingHR, "bpm"), (.restingHR, "count/min"), (.hrRecovery1m, "bpm"), (.hrRecovery1m, "count/min"),
             (.walkingHR, "bpm"), (.walkingHR, "count/min"), (.steps, "count"), (.steps, "steps"),
             (.exerciseMinutes, "min"), (.activeEnergy, "kcal"), (.activeEnergy, "Cal"), (.bodyMass, "kg"), (.height, "cm"):
            return 1
        case (.vo2Max, _): return ColumnName.words(unit).sorted() == ["kg", "min", "ml"] ? 1 : nil
        case (.exerciseMinutes, "hr"), (.exerciseMinutes, "h"): return 60
        case (.exerciseMinutes, "s"): return 1 / 60
        case (.activeEnergy, "kJ"): return 1 / 4.184
        case (.bodyMass, "lb"): return 0.45359237
        case (.bodyMass, "g"): return 0.001
        case (.height, "m"): return 100
        case (.height, "in"): return 2.54
        case (.height, "ft"): return 30.48
        default: return nil
        }
    }
}

/// Gathers the daily records of an import and combines each subject's day: per
/// source, a cumulative metric's records are summed and a level's averaged; when two
/// sources give the same metric on the same day (an iPhone and a watch both counting
/// steps), the source with most records is kept, ties to the larger value, then the
/// source name — summing both would count the same steps twice.
struct DailyInputAccumulator {
    private struct Key: Hashable {
        let subject: Int
        let day: Int64
        let metric: DailyMetric
        let source: String
    }
    private var cells: [Key: (sum: Double, count: Int)] = [:]

    mutating func add(subject: Int, day: Int64, metric: DailyMetric, value: Double, source: String) {
        let key = Key(subject: subject, day: day, metric: metric, source: source)
        let old = cells[key] ?? (0, 0)
        cells[key] = (old.sum + value, old.count + 1)
    }

    var isEmpty: Bool { cells.isEmpty }

    /// One row per subject, day and metric, in the order of `subjectOrder` (subject
    /// indices), then date, then metric name.
    func rows(subjectOrder: [Int], name: (Int) -> String) -> [DailyInputRow] {
        var best: [Key: (source: String, value: Double, count: Int)] = [:]
        for (key, cell) in cells {
            let value = key.metric.isCumulative ? cell.sum : cell.sum / Double(cell.count)
            let day = Key(subject: key.subject, day: key.day, metric: key.metric, source: "")
            if let b = best[day], (b.count, b.value, b.source) >= (cell.count, value, key.source) { continue }
            best[day] = (key.source, value, cell.count)
        }
        let rank = Dictionary(uniqueKeysWithValues: subjectOrder.enumerated().map { ($1, $0) })
        return best.keys.filter { rank[$0.subject] != nil }.sorted { a, b in
            if a.subject != b.subject { return rank[a.subject] ?? 0 < rank[b.subject] ?? 0 }
            return a.day != b.day ? a.day < b.day : a.metric.rawValue < b.metric.rawValue
        }.compactMap { key in
            best[key].map {
                DailyInputRow(subject: name(key.subject), date: Timestamp.isoDate(key.day * 86_400_000), metric: key.metric.rawValue,
                              value: $0.value, unit: key.metric.unit, source: $0.source)
            }
        }
    }
}

/// One row of `subjects.csv` (docs/tables.md, subjects.csv): what is known of a person
/// beyond their measurements — birth year, biological sex (`female`, `male`, `other`,
/// empty when unknown), height (cm) and weight (kg), their time zone (an IANA
/// name, empty when unknown), and the other ids under which exports name the same
/// person (`aliases`, `;`-separated; an import merges their rows into this subject).
public struct SubjectRow: Equatable, Sendable {
    public var subject: String
    public var birthYear: Int?
    public var sex: String
    public var heightCm: Double?
    public var weightKg: Double?
    public var timeZone: String
    public var source: String
    /// Other ids of the same person, in byte order.
    public var aliases: [String]

    public init(subject: String, birthYear: Int? = nil, sex: String = "", heightCm: Double? = nil, weightKg: Double? = nil,
                timeZone: String = "", source: String, aliases: [String] = []) {
        self.subject = subject; self.birthYear = birthYear; self.sex = sex; self.heightCm = heightCm; self.weightKg = weightKg
        self.timeZone = timeZone; self.source = source; self.aliases = aliases
    }

    /// Age in whole years reached in the year of `day` (days since 1970-01-01).
    public func age(onDay day: Int) -> Double? {
        birthYear.map { Double(Timestamp.civil(fromDays: Int64(day)).year - $0) }
    }

    /// Apple Health's `HKBiologicalSex…` values.
    static func sex(appleHealth text: String) -> String {
        switch text {
        case "HKBiologicalSexFemale": return "female"
        case "HKBiologicalSexMale": return "male"
        case "HKBiologicalSexOther": return "other"
        default: return ""
        }
    }
}

extension SubjectRow: CanonicalRow {
    public static let fileName = "subjects.csv"
    public static let header = ["subject", "birth_year", "sex", "height_cm", "weight_kg", "time_zone", "source", "aliases"]
    /// The header before subjects named their aliases; still imported.
    static let headerWithoutAliases = Array(header.dropLast())

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(birthYear); w.field(sex); w.field(heightCm); w.field(weightKg); w.field(timeZone); w.field(source)
        w.field(aliases.joined(separator: ";"))
    }

    public init(_ r: CanonicalFieldReader) throws {
        let year = try r.optionalDouble("birth_year", in: 1850...2100)
        if let year, year != year.rounded() { throw r.fail("birth_year", "'birth_year' is not a whole year") }
        let sex = try r.string("sex")
        guard ["", "female", "male", "other"].contains(sex) else {
            throw r.fail("sex", "'sex' is '\(sex)'; expected female, male, other or empty")
        }
        let zone = try r.string("time_zone")
        guard zone.isEmpty || TimeZone(identifier: zone) != nil else {
            throw r.fail("time_zone", "'time_zone' is not an IANA time zone: '\(zone)'")
        }
        let aliases = r.columns["aliases"] == nil ? "" : try r.string("aliases")
        self.init(subject: try r.string("subject"), birthYear: year.map { Int($0) }, sex: sex,
                  heightCm: try r.optionalDouble("height_cm", in: 30...272), weightKg: try r.optionalDouble("weight_kg", in: 1...650),
                  timeZone: zone, source: try r.string("source"), aliases: Self.aliases(aliases))
    }

    /// The ids of an `aliases` field: `;`-separated, blanks trimmed, empty ones dropped, in byte order.
    static func aliases(_ text: String) -> [String] {
        Set(text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}

extension DailyMetric {
    /// The metric as people say it (`steps`, `resting heart rate`).
    var words: String {
        switch self {
        case .restingHR: "resting heart rate"
        case .hrRecovery1m: "heart-rate recovery"
        case .vo2Max: "VO2 max"
        case .steps: "steps"
        case .exerciseMinutes: "exercise minutes"
        case .activeEnergy: "active energy"
        case .walkingHR: "walking heart rate"
        case .bodyMass: "body mass"
        case .height: "height"
        }
    }
}
