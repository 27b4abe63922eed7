/// Per-subject coverage of a time series table (`hr.csv`, `rr.csv`) read in one
/// streaming pass: rows, first and last time, and the gaps between consecutive
/// rows longer than a threshold. Tables are sorted by subject then time, so memory
/// is one summary per subject whatever the table size.
public struct SeriesSummary: Equatable, Sendable {
    public var rows = 0
    public var firstMs: Int64 = 0
    public var lastMs: Int64 = 0
    public var gaps = 0
    public var gapTotalMs: Int64 = 0
    public var longestGapMs: Int64 = 0
    /// Time of the row that ends the longest gap.
    public var longestGapEndMs: Int64 = 0
}

public enum SeriesScan {
    /// Summaries by subject of a measurement table of `ws` (streamed column-wise);
    /// gaps are counted when consecutive rows are more than `gapMs` apart.
    public static func summarize<Row: MeasurementRow>(_ ws: Workspace, _ type: Row.Type, gapMs: Int64) throws -> [String: SeriesSummary] {
        var summaries: [SeriesSummary] = []
        let subjects = try ws.scanMeasurements(Row.self) { s, t, _ in
            if s == summaries.count { summaries.append(SeriesSummary(rows: 0, firstMs: t, lastMs: t)) }
            if summaries[s].rows > 0 {
                let gap = t - summaries[s].lastMs
                if gap > gapMs {
                    summaries[s].gaps += 1
                    summaries[s].gapTotalMs += gap
                    if gap > summaries[s].longestGapMs { summaries[s].longestGapMs = gap; summaries[s].longestGapEndMs = t }
                }
            }
            summaries[s].rows += 1
            summaries[s].firstMs = min(summaries[s].firstMs, t)
            summaries[s].lastMs = max(summaries[s].lastMs, t)
        }
        return Dictionary(uniqueKeysWithValues: zip(subjects, summaries))
    }
}
