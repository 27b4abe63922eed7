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
    /// Summaries by subject of the table at `path` (columns `subject,timestamp,...`);
    /// gaps are counted when consecutive rows are more than `gapMs` apart.
    public static func summarize(path: String, gapMs: Int64) throws -> [String: SeriesSummary] {
        var out: [String: SeriesSummary] = [:]
        var subject = ""
        var subjectBytes: [UInt8] = []
        var current = SeriesSummary()
        var header = true
        try CSVReader(path: path).forEachRecord { record in
            if header { header = false; return }
            guard record.count >= 2, let t = Timestamp.parseISO(bytes: record.bytes(1))?.ms else {
                throw TableError(path: path, line: record.line, column: 2, message: "not an ISO 8601 time")
            }
            if current.rows == 0 || !record.bytes(0).elementsEqual(subjectBytes) {
                if current.rows > 0 { out[subject] = current }
                subjectBytes = Array(record.bytes(0))
                subject = record.string(0)
                current = out[subject] ?? SeriesSummary(rows: 0, firstMs: t, lastMs: t)
            } else {
                let gap = t - current.lastMs
                if gap > gapMs {
                    current.gaps += 1
                    current.gapTotalMs += gap
                    if gap > current.longestGapMs { current.longestGapMs = gap; current.longestGapEndMs = t }
                }
            }
            current.rows += 1
            current.firstMs = min(current.firstMs, t)
            current.lastMs = max(current.lastMs, t)
        }
        if current.rows > 0 { out[subject] = current }
        return out
    }
}
