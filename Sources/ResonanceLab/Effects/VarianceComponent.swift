/// Maximum-likelihood mean and variance of group effects from per-group estimates
/// with known sampling variances: ŷ_g ~ N(μ, τ² + V_g), the one-way random-effects
/// marginal likelihood. Solved by Fisher scoring on τ² (Jennrich & Sampson 1976),
/// cheap because it runs over groups, not plays; used inside each pass of the
/// mixed model in place of a single EM step, whose convergence is slow when τ² is
/// small relative to V (Dempster, Laird & Rubin 1977, §4.4).
enum VarianceComponent {
    /// - Parameters:
    ///   - estimates: per-group estimates ŷ_g (only groups with information).
    ///   - variances: their sampling variances V_g > 0.
    ///   - fixedMean: μ when known (e.g. mean sensitivity 1), else estimated.
    ///   - tau2: starting value.
    static func fit(estimates: [Double], variances: [Double], fixedMean: Double?, tau2 start: Double)
        -> (mean: Double, tau2: Double)
    {
        guard !estimates.isEmpty else { return (fixedMean ?? 0, start) }
        let floor = 1e-10 * max(1e-300, variances.reduce(0, +) / Double(variances.count))
        var tau2 = max(start, floor), mean = fixedMean ?? 0
        for _ in 0..<100 {
            if fixedMean == nil {
                var sw = 0.0, swy = 0.0
                for g in estimates.indices { let w = 1 / (tau2 + variances[g]); sw += w; swy += w * estimates[g] }
                mean = swy / sw
            }
            // Score and expected information of τ²: ½Σ w²((y−μ)² − 1/w), ½Σ w².
            var num = 0.0, den = 0.0
            for g in estimates.indices {
                let w = 1 / (tau2 + variances[g]), r = estimates[g] - mean
                num += w * w * (r * r - 1 / w); den += w * w
            }
            let next = max(floor, tau2 + num / den)
            let done = abs(next - tau2) <= 1e-10 * (tau2 + floor)
            tau2 = next
            if done { break }
        }
        return (mean, tau2)
    }
}
