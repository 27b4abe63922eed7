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
        var tieSum = 0.0
        let sorted = all.sorted()
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[i] { j += 1 }
            let t = Double(j - i + 1)
            tieSum += t * t * t - t
            i = j + 1
        }
        let correction = 1 - tieSum / (n * n * n - n)
        guard correction > 0 else { return (.nan, .nan) }
        h /= correction
        return (h, chiSquareSurvival(h, degrees: Double(groups.count - 1)))
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
    /// P(X₊ > X₋) + ½·P(X₊ = X₋), the Mann–Whitney U over n₊·n₋.
    public static func auc(positive: [Double], negative: [Double]) -> Double {
        guard !positive.isEmpty, !negative.isEmpty else { return .nan }
        var u = 0.0
        for p in positive {
            for q in negative { u += p > q ? 1 : (p == q ? 0.5 : 0) }
        }
        return u / Double(positive.count * negative.count)
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
        var rng = SeededRandom(seed: seed)
        var means = [Double](repeating: 0, count: resamples)
        for b in 0..<resamples {
            var s = 0.0
            for _ in 0..<x.count { s += x[Int(rng.next() % UInt64(x.count))] }
            means[b] = s / Double(x.count)
        }
        return (Stats.quantile(means, 0.025), Stats.quantile(means, 0.975))
    }
}
