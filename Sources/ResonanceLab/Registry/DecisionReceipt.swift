/// One row of `receipts.csv` (docs/tables.md, receipts.csv): one driver of one engine
/// decision, naming the engine, the table and the row the decision explains — the
/// decision receipt of the product specification (inputs, decision, confidence,
/// reasons), one row per decision and driver. A decision without drivers has one row
/// with the driver fields empty. Every engine that decides writes its receipts here,
/// keyed by the explained row (`key`: the date of a `daily.csv` row).
public struct ReceiptRow: Equatable, Sendable {
    /// The engine that decided (`stress`, `readiness`).
    public var engine: String
    /// The table the decision is a row of, and that row's key within it (with `subject`).
    public var table: String
    public var subject: String
    public var key: String
    /// What was decided (a level, an action), and the score behind it.
    public var decision: String
    public var value: Double?
    /// 0–1, from the inputs present and the history behind them.
    public var confidence: Double?
    /// 1 for the driver that moved the score most; nil on a row without a driver.
    public var rank: Int?
    public var factor: String
    /// The driver's share of the weighted score (weight × component / weighted score).
    public var share: Double?
    /// Signed effect in score points: weight × (component − the scale's neutral point).
    public var points: Double?
    /// `raises`, `lowers` or `neutral`: the driver's effect on the score.
    public var direction: String
    /// The input's own value in `unit`, and what it was compared with.
    public var rawValue: Double?
    public var unit: String
    public var comparedWith: String
    public var detail: String

    public init(engine: String, table: String, subject: String, key: String, decision: String, value: Double?,
                confidence: Double?, rank: Int? = nil, factor: String = "", share: Double? = nil, points: Double? = nil,
                direction: String = "", rawValue: Double? = nil, unit: String = "", comparedWith: String = "",
                detail: String = "") {
        self.engine = engine; self.table = table; self.subject = subject; self.key = key; self.decision = decision
        self.value = value; self.confidence = confidence; self.rank = rank; self.factor = factor; self.share = share
        self.points = points; self.direction = direction; self.rawValue = rawValue; self.unit = unit
        self.comparedWith = comparedWith; self.detail = detail
    }

    /// The receipt rows of one decision: its top `top` drivers (largest effect first),
    /// or one row without a driver.
    static func decision(engine: String, table: String, subject: String, key: String, decision: String, value: Double,
                         weightedScore: Double, confidence: Double, drivers: [Driver], top: Int) -> [ReceiptRow] {
        let head = ReceiptRow(engine: engine, table: table, subject: subject, key: key, decision: decision, value: value,
                              confidence: confidence)
        guard !drivers.isEmpty else { return [head] }
        return drivers.prefix(top).enumerated().map { i, d in
            var row = head
            row.rank = i + 1; row.factor = d.name; row.share = d.share(of: weightedScore); row.points = d.points
            row.direction = d.direction; row.rawValue = d.raw; row.unit = d.unit; row.comparedWith = d.comparedWith
            row.detail = d.detail
            return row
        }
    }

    /// Drivers per decision in `receipts.csv`, as the product's receipts give them.
    public static let driversPerDecision = 3

    /// The receipts of the daily engines: per assessed day, the stress and then the
    /// readiness decision with their top three drivers, in the order of `assessments`.
    public static func daily(_ assessments: [DailyAssessment]) -> [ReceiptRow] {
        var rows: [ReceiptRow] = []
        for a in assessments {
            let subject = a.snapshot.subject, date = a.snapshot.date
            if let s = a.stress {
                rows += decision(engine: "stress", table: DailyRow.fileName, subject: subject, key: date,
                                 decision: s.level.rawValue, value: s.score, weightedScore: s.raw, confidence: s.confidence,
                                 drivers: s.drivers, top: driversPerDecision)
            }
            if let r = a.readiness {
                rows += decision(engine: "readiness", table: DailyRow.fileName, subject: subject, key: date,
                                 decision: r.level.rawValue + (r.capped ? " (capped)" : ""), value: r.score,
                                 weightedScore: r.uncappedScore, confidence: r.confidence, drivers: r.drivers,
                                 top: driversPerDecision)
            }
        }
        return rows
    }
}

extension ReceiptRow: CanonicalRow {
    public static let fileName = "receipts.csv"
    public static let header = [
        "engine", "table", "subject", "key", "decision", "value", "confidence", "rank", "factor", "share", "points",
        "direction", "raw_value", "unit", "compared_with", "detail",
    ]

    public func write(to w: CSVWriter) {
        w.field(engine); w.field(table); w.field(subject); w.field(key); w.field(decision); w.field(value)
        w.field(confidence); w.field(rank); w.field(factor); w.field(share); w.field(points); w.field(direction)
        w.field(rawValue); w.field(unit); w.field(comparedWith); w.field(detail)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let rank = try r.optionalDouble("rank", in: 1...Double(Int32.max))
        if let rank, rank != rank.rounded() { throw r.fail("rank", "'rank' is not a whole number: '\(try r.string("rank"))'") }
        self.init(engine: try r.string("engine"), table: try r.string("table"), subject: try r.string("subject"),
                  key: try r.string("key"), decision: try r.string("decision"), value: try r.optionalDouble("value"),
                  confidence: try r.optionalDouble("confidence", in: 0...1), rank: rank.map { Int($0) },
                  factor: try r.string("factor"), share: try r.optionalDouble("share"), points: try r.optionalDouble("points"),
                  direction: try r.string("direction"), rawValue: try r.optionalDouble("raw_value"), unit: try r.string("unit"),
                  comparedWith: try r.string("compared_with"), detail: try r.string("detail"))
    }
}
