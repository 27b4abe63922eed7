/// Detected beats against reference beats, as ANSI/AAMI EC57 scores a beat detector:
/// a detection within the match window of a reference beat is a true positive, each
/// beat matched at most once; a reference left unmatched is a false negative, a
/// detection left unmatched a false positive (EC57:2012, §4.2; the window is 150 ms).
public struct BeatMatch: Equatable, Sendable {
    public var truePositives: Int
    public var falseNegatives: Int
    public var falsePositives: Int
    /// Detected − reference time of each match, in the times' unit.
    public var offsets: [Double]

    /// TP / (TP + FN); nil without reference beats.
    public var sensitivity: Double? {
        truePositives + falseNegatives > 0 ? Double(truePositives) / Double(truePositives + falseNegatives) : nil
    }

    /// TP / (TP + FP); nil without detections.
    public var positivePredictivity: Double? {
        truePositives + falsePositives > 0 ? Double(truePositives) / Double(truePositives + falsePositives) : nil
    }

    /// Matches two ascending lists of times (same unit as `window`). Pairs are taken in
    /// order of increasing distance, so a detection between two references goes to the
    /// nearer one whatever the order the lists are walked in.
    public static func match(detected: [Double], reference: [Double], window: Double) -> BeatMatch {
        var pairs: [(distance: Double, d: Int, r: Int)] = []
        var start = 0
        for (i, r) in reference.enumerated() {
            while start < detected.count, detected[start] < r - window { start += 1 }
            var j = start
            while j < detected.count, detected[j] <= r + window {
                pairs.append((abs(detected[j] - r), j, i))
                j += 1
            }
        }
        pairs.sort { ($0.distance, $0.r, $0.d) < ($1.distance, $1.r, $1.d) }
        var usedD = [Bool](repeating: false, count: detected.count)
        var usedR = [Bool](repeating: false, count: reference.count)
        var offsets: [(r: Int, offset: Double)] = []
        for p in pairs where !usedD[p.d] && !usedR[p.r] {
            usedD[p.d] = true
            usedR[p.r] = true
            offsets.append((p.r, detected[p.d] - reference[p.r]))
        }
        let tp = offsets.count
        return BeatMatch(truePositives: tp, falseNegatives: reference.count - tp, falsePositives: detected.count - tp,
                         offsets: offsets.sorted { $0.r < $1.r }.map(\.offset))
    }
}
