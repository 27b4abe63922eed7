import Foundation

/// Two-or-more-group comparisons for validation reports: rank tests and seeded bootstrap.
public enum GroupComparison {
    /// Kruskal–Wallis H with the correction for ties (Kruskal & Wallis 1952) and its
    /// χ²(k − 1) upper-tail p-value.
    public static func kruskalWallis(_ groups: [[Double]]) -> (h: Double, p: Double) {
        let all = groups.flatMap { $0 }
        let n = Double(all.count)
        guard groups.count >= 2, groups.allSatisfy({ !$0.isEmpty }), all.count > 2 else { return (.nan, .nan) }
        let ranks = Stats.ranks(all)
        var offset = 0, sum = 0.0
        for g in groups {
            let r = ranks[offset..<(offset + g.count)].reduce(0, +)
            sum += r * r / Double(g.count)
            offset += g.count
        }
        var h = 12 / (n * (n + 1)) * sum - 3 * (n + 1)
        let correction = 1 - tieSum(all) / (n * n * n - n)
        guard correction > 0 else { return (.nan, .nan) }
        h /= correction
        return (h, chiSquareSurvival(h, degrees: Double(groups.count - 1)))
    }

    /// Σ (t³ − t) over the groups of t tied values: the tie term of rank tests'
    /// variances (Kruskal–Wallis, Mann–Whitney).
    static func tieSum(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        var sum = 0.0, i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[i] { j += 1 }
            let t = Double(j - i + 1)
            sum += t * t * t - t
            i = j + 1
        }
        return sum
    }

    /// P(χ²_k > x) = Q(k/2, x/2), the regularised upper incomplete gamma function, by its
    /// series or continued fraction (Press et al., Numerical Recipes, §6.2).
    public static func chiSquareSurvival(_ x: Double, degrees k: Double) -> Double {
        guard x > 0 else { return 1 }
        let a = k / 2, z = x / 2
        let logPrefix = a * log(z) - z - lgamma(a)
        if z < a + 1 {
            var term = 1 / a, sum = term, ap = a
            for _ in 0..<10_000 {
                ap += 1; term *= z / ap; sum += term
                if abs(term) < abs(sum) * 1e-16 { break }
            }
            return max(0, 1 - sum * exp(logPrefix))
        }
        // Lentz's continued fraction for Q.
        var b = z + 1 - a, c = 1 / 1e-300, d = 1 / b, f = d
        for i in 1..<10_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b; if abs(d) < 1e-300 { d = 1e-300 }
            c = b + an / c; if abs(c) < 1e-300 { c = 1e-300 }
            d = 1 / d
            let delta = d * c
            f *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return exp(logPrefix) * f
    }

    /// Area under the ROC curve for telling `positive` from `negative` by larger values:
    /// P(X₊ > X₋) + ½·P(X₊ = X₋), the Mann–Whitney U over n₊·n₋ (Hanley & McNeil 1982),
    /// from mid-ranks in O(n log n). NaN when either side is empty.
    public static func auc(positive: [Double], negative: [Double]) -> Double {
        guard let u = mannWhitneyU(positive, negative) else { return .nan }
        return u / (Double(positive.count) * Double(negative.count))
    }

    /// ROC AUC of `scores` for the labels `isPositive` (same length), as `auc(positive:negative:)`.
    public static func auc(scores: [Double], isPositive: [Bool]) -> Double {
        precondition(scores.count == isPositive.count, "auc: lengths differ")
        var p: [Double] = [], n: [Double] = []
        for (s, y) in zip(scores, isPositive) { if y { p.append(s) } else { n.append(s) } }
        return auc(positive: p, negative: n)
    }

    /// Mann–Whitney U of `a` against `b`: the number of pairs with a > b, ties counting ½,
    /// from the rank sum of `a` in the pooled sample (mid-ranks for ties). Nil when
    /// either side is empty.
    public static func mannWhitneyU(_ a: [Double], _ b: [Double]) -> Double? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        let ranks = Stats.ranks(a + b)
        let rankSum = ranks[0..<a.count].reduce(0, +)
        let n = Double(a.count)
        return rankSum - n * (n + 1) / 2
    }

    /// Two-sided p-value of the Mann–Whitney U test by the normal approximation with the
    /// tie correction and a continuity correction of ½ (as SciPy's `mannwhitneyu` with
    /// `method="asymptotic"`); NaN when either side is empty or every value is tied.
    public static func mannWhitneyP(_ a: [Double], _ b: [Double]) -> Double {
        guard let u = mannWhitneyU(a, b) else { return .nan }
        let n1 = Double(a.count), n2 = Double(b.count), n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieSum(a + b) / (n * (n - 1)))
        guard variance > 0 else { return .nan }
        let z = max(0, abs(u - n1 * n2 / 2) - 0.5) / variance.squareRoot()
        return min(1, erfc(z / 2.squareRoot()))
    }

    /// Cohen's d of `a` against `b`: (mean a − mean b) / pooled SD, the pooled variance
    /// weighting each group's sample variance by its n − 1 (Cohen 1988, eq. 2.5.2).
    /// NaN below two values in either group or when both groups are constant.
    public static func cohensD(_ a: [Double], _ b: [Double]) -> Double {
        guard a.count > 1, b.count > 1 else { return .nan }
        let n1 = Double(a.count), n2 = Double(b.count)
        let pooled = ((n1 - 1) * Stats.variance(a) + (n2 - 1) * Stats.variance(b)) / (n1 + n2 - 2)
        guard pooled > 0 else { return .nan }
        return (Stats.mean(a) - Stats.mean(b)) / pooled.squareRoot()
    }

    /// ROC curve for telling `positive` from `negative` by larger values: (false-positive
    /// rate, true-positive rate) from (0, 0) to (1, 1), one point per distinct value taken as
    /// the threshold "value ≥ t" (Fawcett 2006, "An introduction to ROC analysis", Pattern
    /// Recognition Letters 27:861, algorithm 2). Its trapezoidal area equals `auc`.
    public static func rocCurve(positive: [Double], negative: [Double]) -> [(fpr: Double, tpr: Double)] {
        guard !positive.isEmpty, !negative.isEmpty else { return [] }
        let scored = (positive.map { ($0, true) } + negative.map { ($0, false) }).sorted { $0.0 > $1.0 }
        var points = [(fpr: 0.0, tpr: 0.0)]
        var tp = 0, fp = 0, i = 0
        while i < scored.count {
            let t = scored[i].0
            while i < scored.count && scored[i].0 == t {
                if scored[i].1 { tp += 1 } else { fp += 1 }
                i += 1
            }
            points.append((Double(fp) / Double(negative.count), Double(tp) / Double(positive.count)))
        }
        return points
    }

    /// Percentile bootstrap 95 % CI of the mean (Efron & Tibshirani 1993, §13.3), with a
    /// seeded generator so reports are reproducible.
    public static func bootstrapMeanCI(_ x: [Double], resamples: Int = 2000, seed: UInt64 = 2024) -> (Double, Double) {
        guard x.count > 1 else { return (.nan, .nan) }
        return bootstrapCI(clusters: x.count, resamples: resamples, seed: seed) { picks in
            picks.reduce(0) { $0 + x[$1] } / Double(picks.count)
        }
    }

    /// Percentile bootstrap 95 % CI of a statistic of `clusters` units (subjects)
    /// resampled with replacement: `statistic` gets the drawn unit indices (with repeats)
    /// and returns the statistic of that resample; non-finite results are left out
    /// (Efron & Tibshirani 1993, §13.3; resampling whole subjects keeps each subject's
    /// windows together, as Field & Welsh 2007 advise for clustered data). Seeded.
    public static func bootstrapCI(clusters: Int, resamples: Int = 2000, seed: UInt64 = 2024,
                                   _ statistic: ([Int]) -> Double) -> (Double, Double) {
        guard clusters > 1 else { return (.nan, .nan) }
        var rng = SeededRandom(seed: seed)
        var values: [Double] = []
        values.reserveCapacity(resamples)
        var picks = [Int](repeating: 0, count: clusters)
        for _ in 0..<resamples {
            for k in 0..<clusters { picks[k] = Int(rng.next() % UInt64(clusters)) }
            let v = statistic(picks)
            if v.isFinite { values.append(v) }
        }
        guard !values.isEmpty else { return (.nan, .nan) }
        return (Stats.quantile(values, 0.025), Stats.quantile(values, 0.975))
    }
}
