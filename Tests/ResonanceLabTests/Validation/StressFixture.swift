import Foundation
@testable import ResonanceLab

/// A synthetic labelled workspace: per subject a 10-min baseline (the reference period),
/// then `blocks` alternating 10-min stress and baseline intervals. Heart rate is sampled
/// at 1 Hz and constant within each minute, that minute's value drawn from
/// N(70 + Δ·stress, σ²): with 60-s windows on the minute grid, a window's mean HR is one
/// draw, and the AUC of HR for stress vs baseline windows is Φ(Δ / (σ√2)).
enum StressFixture {
    static let t0: Int64 = 1_644_220_800_000  // 2022-02-07T08:00:00Z

    static func write(to dir: String, subjects: Int, deltaBpm: Double, sdBpm: Double, blocks: Int = 6,
                      seed: UInt64 = 7) throws {
        var rng = SeededRandom(seed: seed)
        var hr = "subject,timestamp,bpm,source\n", labels = "subject,start,end,label\n"
        for s in 0..<subjects {
            let subject = String(format: "P%02d", s + 1)
            let start = t0 + Int64(s) * 86_400_000
            var intervals: [(Int64, Int64, String)] = [(start, start + 600_000, "baseline")]
            for b in 0..<blocks {
                let a = start + 600_000 * Int64(b + 1)
                intervals.append((a, a + 600_000, b % 2 == 0 ? "stress" : "baseline"))
            }
            for (a, e, label) in intervals {
                labels += "\(subject),\(Timestamp.iso(a)),\(Timestamp.iso(e)),\(label)\n"
                var minute = a
                while minute < e {
                    let bpm = rng.normal(mean: 70 + (label == "stress" ? deltaBpm : 0), sd: sdBpm)
                    for k in 0..<60 { hr += "\(subject),\(Timestamp.iso(minute + Int64(k) * 1000)),\(bpm),synthetic\n" }
                    minute += 60_000
                }
            }
        }
        try writeFixture(hr, to: dir + "/hr.csv")
        try writeFixture(labels, to: dir + "/labels.csv")
    }

    /// Standard normal CDF.
    static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.squareRoot()) }
}
