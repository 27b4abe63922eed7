/// Removal of slow trends before spectral analysis.
public enum Detrending: String, Sendable, CaseIterable {
    /// Smoothness priors (Tarvainen, Ranta-aho & Karjalainen 2002, IEEE TBME 49(2)),
    /// the Kubios default: a time-varying high-pass whose cut-off is set by λ.
    case smoothnessPriors = "smoothness"
    /// Least-squares straight line.
    case linear
    /// Mean removal only.
    case none

    /// `x` minus its trend (in place).
    public func apply(_ x: inout [Double], lambda: Double) {
        switch self {
        case .smoothnessPriors: Detrending.removeSmoothnessPriorsTrend(&x, lambda: lambda)
        case .linear: Detrending.removeLinearTrend(&x)
        case .none: Detrending.removeMean(&x)
        }
    }

    static func removeMean(_ x: inout [Double]) {
        guard !x.isEmpty else { return }
        let m = x.reduce(0, +) / Double(x.count)
        for i in x.indices { x[i] -= m }
    }

    static func removeLinearTrend(_ x: inout [Double]) {
        let n = Double(x.count)
        guard x.count > 1 else { return removeMean(&x) }
        let tm = (n - 1) / 2
        var ym = 0.0
        for v in x { ym += v }
        ym /= n
        var sxy = 0.0, sxx = 0.0
        for (i, v) in x.enumerated() {
            let dt = Double(i) - tm
            sxy += dt * (v - ym); sxx += dt * dt
        }
        let slope = sxy / sxx
        for i in x.indices { x[i] -= ym + slope * (Double(i) - tm) }
    }

    /// Trend z_trend = (I + λ² D₂ᵀD₂)⁻¹ z, with D₂ the second-difference matrix
    /// (Tarvainen 2002, eq. 12). The matrix is symmetric positive definite and
    /// pentadiagonal, so an LDLᵀ factorisation with bandwidth 2 solves it in O(n)
    /// instead of the O(n³) dense inverse of the paper.
    static func removeSmoothnessPriorsTrend(_ z: inout [Double], lambda: Double) {
        let n = z.count
        guard n >= 3 else { return removeMean(&z) }
        let l2 = lambda * lambda
        // Bands of A = I + λ² D₂ᵀD₂: a0 diagonal, a1[i] = A[i+1][i], a2[i] = A[i+2][i],
        // accumulated row by row of D₂ (coefficients 1, −2, 1).
        var a0 = [Double](repeating: 1, count: n)
        var a1 = [Double](repeating: 0, count: n)
        var a2 = [Double](repeating: 0, count: n)
        for k in 0..<(n - 2) {
            a0[k] += l2; a0[k + 1] += 4 * l2; a0[k + 2] += l2
            a1[k] -= 2 * l2; a1[k + 1] -= 2 * l2
            a2[k] += l2
        }
        // LDLᵀ: L unit lower with sub-diagonals e1 (i, i−1) and e2 (i, i−2).
        var d = [Double](repeating: 0, count: n)
        var e1 = [Double](repeating: 0, count: n)
        var e2 = [Double](repeating: 0, count: n)
        for i in 0..<n {
            if i >= 2 { e2[i] = a2[i - 2] / d[i - 2] }
            if i >= 1 { e1[i] = (a1[i - 1] - (i >= 2 ? e2[i] * e1[i - 1] * d[i - 2] : 0)) / d[i - 1] }
            var di = a0[i]
            if i >= 1 { di -= e1[i] * e1[i] * d[i - 1] }
            if i >= 2 { di -= e2[i] * e2[i] * d[i - 2] }
            d[i] = di
        }
        // Solve L y = z, D w = y, Lᵀ trend = w (reusing `a0` for the solution).
        var y = a0
        for i in 0..<n {
            var v = z[i]
            if i >= 1 { v -= e1[i] * y[i - 1] }
            if i >= 2 { v -= e2[i] * y[i - 2] }
            y[i] = v
        }
        for i in 0..<n { y[i] /= d[i] }
        for i in stride(from: n - 1, through: 0, by: -1) {
            if i + 1 < n { y[i] -= e1[i + 1] * y[i + 1] }
            if i + 2 < n { y[i] -= e2[i + 2] * y[i + 2] }
        }
        for i in 0..<n { z[i] -= y[i] }
    }
}
