/// How often the morning recovery and the coach's readiness agree on the same mornings
/// (docs/engines/health-platform.md, Morning recovery), per subject from `morning_recovery.csv`: the
/// mornings both rest or both train, those only one rests, and the morning component
/// behind each disagreement.
public struct MorningAgreement: Equatable, Sendable {
    /// Mornings with a score and a readiness level.
    public var compared = 0
    public var bothRest = 0, bothTrain = 0, morningRest = 0, readinessRest = 0
    /// The component behind each disagreement (`morning_rest:hrv`, …) and its count.
    public var drivers: [String: Int] = [:]

    public init() {}

    /// The tally of `rows`.
    public init(_ rows: [MorningRecoveryRow]) {
        for r in rows where !r.agreement.isEmpty {
            compared += 1
            switch r.agreement {
            case "both_rest": bothRest += 1
            case "both_train": bothTrain += 1
            case "morning_rest": morningRest += 1
            default: readinessRest += 1
            }
            if !r.driver.isEmpty { drivers[r.agreement + ":" + r.driver, default: 0] += 1 }
        }
    }

    /// Share of the compared mornings where both agree; nil without any.
    public var agreement: Double? { compared > 0 ? Double(bothRest + bothTrain) / Double(compared) : nil }

    func cells(_ name: String) -> [String] {
        func top(_ kind: String) -> String {
            let d = drivers.filter { $0.key.hasPrefix(kind + ":") }
                .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            return d.isEmpty ? "–" : d.map { "\($0.key.dropFirst(kind.count + 1)) \($0.value)" }.joined(separator: ", ")
        }
        return [name, "\(compared)", "\(bothRest)", "\(bothTrain)", "\(morningRest)", top("morning_rest"), "\(readinessRest)",
                top("readiness_rest"), agreement.map { decimals($0, 2) } ?? "–"]
    }

    func json() -> JSONValue {
        .object(["compared": .int(compared), "both_rest": .int(bothRest), "both_train": .int(bothTrain),
                 "morning_rest": .int(morningRest), "readiness_rest": .int(readinessRest), "agreement": .num(agreement),
                 "drivers": .object(drivers.mapValues(JSONValue.int))])
    }

    static let header = ["subject", "mornings", "both rest", "both train", "only morning rests", "its driver",
                         "only readiness rests", "morning's strongest", "agreement"]

    /// The `resonance validate` section, when the workspace has `morning_recovery.csv`.
    public static let analysis: ValidationAnalysis = { ws in
        guard ws.exists(MorningRecoveryRow.fileName) else { return nil }
        return section(try ws.read(MorningRecoveryRow.self))
    }

    static func section(_ rows: [MorningRecoveryRow]) -> ReportSection {
        var bySubject: [String: [MorningRecoveryRow]] = [:]
        for r in rows { bySubject[r.subject, default: []].append(r) }
        let subjects = bySubject.keys.sorted(by: SubjectOrder.precedes)
        let tallies = subjects.map { MorningAgreement(bySubject[$0] ?? []) }
        let total = MorningAgreement(rows)
        let md = "The morning recovery's decision without a plan (`rest` or a session) against the coach's readiness of the "
            + "same day (`recovering` = rest), from morning_recovery.csv. A disagreement's driver is the morning component "
            + "with the largest weighted shortfall when only the morning rests, its largest weighted score when only "
            + "readiness does.\n\n"
            + markdownTable(header, zip(subjects, tallies).map { $1.cells($0) } + [total.cells("all")])
        return ReportSection(title: "Morning recovery against readiness", markdown: md, json: .object([
            "all": total.json(),
            "subjects": .object(Dictionary(uniqueKeysWithValues: zip(subjects, tallies.map { $0.json() }))),
        ]), key: "morning_agreement")
    }
}
