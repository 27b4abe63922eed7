import Foundation

/// One row of a BioAge norms table (docs/tables.md, bio_age_norms.csv): the population
/// mean of `metric` for people of `sex` aged `age_years`, and where it comes from.
public struct BioAgeNormRow: Equatable, Sendable {
    /// `vo2max` (mL/kg/min), `resting_hr` (bpm) or `hrv_sdnn` (ms).
    public var metric: String
    /// `female` or `male`.
    public var sex: String
    /// The age the value stands for, years (the middle of its age band).
    public var ageYears: Double
    public var value: Double
    public var source: String

    public init(_ metric: String, _ sex: String, _ ageYears: Double, _ value: Double, source: String) {
        self.metric = metric; self.sex = sex; self.ageYears = ageYears; self.value = value; self.source = source
    }
}

extension BioAgeNormRow: CanonicalRow {
    public static let fileName = "bio_age_norms.csv"
    public static let header = ["metric", "sex", "age_years", "value", "source"]

    public func write(to w: CSVWriter) {
        w.field(metric); w.field(sex); w.field(ageYears); w.field(value); w.field(source)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let metric = try r.string("metric"), sex = try r.string("sex")
        guard BioAgeNorms.metrics.contains(metric) else {
            throw r.fail("metric", "'metric' is '\(metric)'; expected \(BioAgeNorms.metrics.joined(separator: ", "))")
        }
        guard ["female", "male"].contains(sex) else { throw r.fail("sex", "'sex' is '\(sex)'; expected female or male") }
        guard let age = try r.optionalDouble("age_years", in: 0...130) else { throw r.fail("age_years", "'age_years' is empty") }
        guard let value = try r.optionalDouble("value", in: 0.001...1000) else { throw r.fail("value", "'value' is empty") }
        self.init(metric, sex, age, value, source: try r.string("source"))
    }
}

/// The age- and sex-specific norms BioAge compares VO2 max, resting HR and SDNN with
/// (docs/engines/heart-coach.md, BioAge). Between the ages listed for a metric and sex the norm is
/// interpolated linearly; below the first and above the last it is that row's value.
/// Without a sex (or `other`), the mean of the female and male norms. A metric a table
/// leaves out is not scored.
public struct BioAgeNorms: Sendable, Equatable {
    public static let metrics = ["vo2max", "resting_hr", "hrv_sdnn"]
    public let rows: [BioAgeNormRow]

    /// Rows in any order; two rows for one metric, sex and age are an error naming the
    /// second one's line of `path` (the header is line 1).
    public init(rows: [BioAgeNormRow], path: String = "built-in norms") throws {
        var seen = Set<String>()
        for (i, row) in rows.enumerated() where !seen.insert("\(row.metric) \(row.sex) \(row.ageYears)").inserted {
            throw TableError(path: path, line: i + 2, column: 3,
                             message: "a second \(row.metric) norm for \(row.sex) aged \(String(format: "%g", row.ageYears))")
        }
        self.rows = rows
    }

    /// Reads a replacement table (`resonance daily --norms FILE`).
    public static func read(path: String) throws -> BioAgeNorms {
        try BioAgeNorms(rows: try Workspace.readTable(BioAgeNormRow.self, path: path), path: path)
    }

    /// The norm of `metric` at `age` for `sex` (`female`, `male`, else the mean of both);
    /// nil when the table has no row for it.
    public func expected(_ metric: String, age: Double, sex: String) -> Double? {
        guard sex == "female" || sex == "male" else {
            guard let f = expected(metric, age: age, sex: "female"), let m = expected(metric, age: age, sex: "male") else { return nil }
            return (f + m) / 2
        }
        let points = rows.filter { $0.metric == metric && $0.sex == sex }.sorted { $0.ageYears < $1.ageYears }
        guard let first = points.first, let last = points.last else { return nil }
        if age <= first.ageYears { return first.value }
        if age >= last.ageYears { return last.value }
        for (a, b) in zip(points, points.dropFirst()) where age <= b.ageYears {
            return ramp(age, from: a.ageYears, a.value, to: b.ageYears, b.value)
        }
        return last.value
    }

    /// The built-in table (docs/engines/heart-coach.md, BioAge, lists it with each source's caveat).
    public static let builtIn: BioAgeNorms = {
        let vo2 = "Loe et al. 2013 PLoS One 8:e64319 (HUNT3 / NTNU CERG): mean treadmill VO2peak of healthy adults by decade, 20s–70s+"
        let rhr = "Ostchega et al. 2011 NHSR 41 (NHANES 1999–2008): mean seated resting pulse of adults aged 20 and over, by sex; flat with age"
        let sdnn = "Nunan et al. 2010 PACE 33:1407: mean 5-min resting SDNN of healthy adults (50 ms), not by age or sex"
        var rows: [BioAgeNormRow] = []
        let ages: [Double] = [25, 35, 45, 55, 65, 75]
        for (age, (f, m)) in zip(ages, [(43.0, 54.0), (40, 49), (38, 47), (34, 42), (31, 39), (27, 34)]) {
            rows += [BioAgeNormRow("vo2max", "female", age, f, source: vo2), BioAgeNormRow("vo2max", "male", age, m, source: vo2)]
        }
        rows += [BioAgeNormRow("resting_hr", "female", 20, 74, source: rhr), BioAgeNormRow("resting_hr", "male", 20, 71, source: rhr)]
        rows += [BioAgeNormRow("hrv_sdnn", "female", 20, 50, source: sdnn), BioAgeNormRow("hrv_sdnn", "male", 20, 50, source: sdnn)]
        do {
            return try BioAgeNorms(rows: rows)
        } catch {
            preconditionFailure("built-in BioAge norms: \(error)")
        }
    }()
}

/// What the daily engines know of each subject besides its days: `subjects.csv` (age
/// from the birth year, sex, height, weight), the age of subjects without a birth year
/// (`resonance daily --age`), and the BioAge norms.
public struct DailySubjects: Sendable {
    public var rows: [String: SubjectRow]
    public var defaultAgeYears: Double?
    public var norms: BioAgeNorms

    public init(_ rows: [SubjectRow] = [], defaultAgeYears: Double? = nil, norms: BioAgeNorms = .builtIn) {
        var bySubject: [String: SubjectRow] = [:]
        for row in rows { bySubject[row.subject] = row }
        self.rows = bySubject; self.defaultAgeYears = defaultAgeYears; self.norms = norms
    }

    /// Age in years on `day`: from the birth year in `subjects.csv`, else the default.
    public func age(_ subject: String, day: Int) -> Double? {
        rows[subject]?.age(onDay: day) ?? defaultAgeYears
    }

    /// `female`, `male`, `other` or empty.
    public func sex(_ subject: String) -> String { rows[subject]?.sex ?? "" }
}
