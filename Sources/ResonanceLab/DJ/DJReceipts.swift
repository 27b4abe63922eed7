/// One row of `dj_receipts.csv` (docs/tables.md): a receipt of one replayed DJ decision,
/// in the columns of `receipts.csv` (`ReceiptRow`). It is a table of its own because
/// `daily` writes `receipts.csv` whole; the two read alike.
public struct DJReceiptRow: Equatable, Sendable {
    public var receipt: ReceiptRow

    public init(_ receipt: ReceiptRow) {
        self.receipt = receipt
    }
}

extension DJReceiptRow: CanonicalRow {
    public static let fileName = "dj_receipts.csv"
    public static let header = ReceiptRow.header

    public func write(to w: CSVWriter) {
        receipt.write(to: w)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(try ReceiptRow(r))
    }
}

extension RankingEngine {
    /// The drivers of one song's score (docs/engines/dj.md, Ranking): each weighted term with
    /// its points, weight × (term − the neutral score), the recency penalty as
    /// −weight × penalty; largest effect first, ties by name.
    public func drivers(_ s: SongScore, sound: SongSound) -> [Driver] {
        let c = constants, neutral = c.neutralScore
        var all = [
            Driver(name: "bpm_match", score: s.bpmMatch, weight: c.bpmWeight, points: c.bpmWeight * (s.bpmMatch - neutral),
                   detail: sound.bpm.map { "\(decimals($0, 0)) bpm vs target \(decimals(s.targetBPM, 0))" } ?? "no BPM: neutral",
                   raw: sound.bpm, unit: "bpm", comparedWith: "target \(decimals(s.targetBPM, 1)) bpm"),
            Driver(name: "energy_match", score: s.energyMatch, weight: c.energyWeight,
                   points: c.energyWeight * (s.energyMatch - neutral),
                   detail: sound.energy.map { "energy \(decimals($0, 2))" } ?? "no energy: neutral", raw: sound.energy, unit: "0-1"),
            Driver(name: "familiarity", score: s.familiarity, weight: c.familiarityWeight,
                   points: c.familiarityWeight * (s.familiarity - neutral), detail: "familiarity \(decimals(s.familiarity, 2))"),
            Driver(name: "historical_effect", score: s.historicalEffect, weight: c.historicalWeight,
                   points: c.historicalWeight * (s.historicalEffect - neutral),
                   detail: "learned effect for the need \(decimals(s.historicalEffect, 2))"),
            Driver(name: "context_alignment", score: s.contextAlignment, weight: c.contextWeight,
                   points: c.contextWeight * (s.contextAlignment - neutral),
                   detail: "share of plays in this context \(decimals(s.contextAlignment, 2))"),
        ]
        if s.recencyPenalty > 0 {
            all.append(Driver(name: "recency_penalty", score: s.recencyPenalty, weight: c.recencyWeight,
                              points: -c.recencyWeight * s.recencyPenalty, detail: "played within the last \(decimals(c.recencyMinutes, 0)) min"))
        }
        all.sort { abs($0.points) != abs($1.points) ? abs($0.points) > abs($1.points) : $0.name < $1.name }
        return all
    }
}

extension DJReplay {
    /// The receipt of one replayed decision: the DJ's pick (its song id), its
    /// transition-adjusted score and the state's confidence, with the pick's top three
    /// score drivers; keyed by the play the decision was made for.
    static func receipt(_ row: DJDecisionRow, pick: SongScore, sound: SongSound, ranker: RankingEngine) -> [DJReceiptRow] {
        let weighted = pick.bpmMatch * ranker.constants.bpmWeight + pick.energyMatch * ranker.constants.energyWeight
            + pick.familiarity * ranker.constants.familiarityWeight + pick.historicalEffect * ranker.constants.historicalWeight
            + pick.contextAlignment * ranker.constants.contextWeight
        return ReceiptRow.decision(engine: RankingConstants.spec.name, table: DJDecisionRow.fileName, subject: row.subject,
                                   key: row.playId, decision: row.topSongId, value: row.topScore, weightedScore: weighted,
                                   confidence: row.confidence, drivers: ranker.drivers(pick, sound: sound),
                                   top: ReceiptRow.driversPerDecision).map(DJReceiptRow.init)
    }
}
