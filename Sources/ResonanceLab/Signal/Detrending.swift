/// Removal of slow trends before spectral analysis.
public enum Detrending: String, Sendable, CaseIterable {
    /// Smoothness priors (Tarvainen, Ranta-aho & Karjalainen 2002, IEEE TBME 49(2)),
    /// the Kubios default: a time-varying high-pass whose cut-off is set by λ.
    case smoothnessPriors = "smoothness"
    /// Least-squares straight line.
    case linear
    /// Mean removal only.
    case none
}

/// Applies a `Detrending` method; the smoothness-priors factorisation depends only on
/// the series length and λ, so it is computed once per length and reused.
public struct Detrender {
    public let method: Detrending
    public let lambda: Double
    private var factorisations: [Int: SmoothnessPriors] = [:]

    public init(_ method: Detrending, lambda: Double = 500) {
        self.method = method
        self.lambda = lambda
    }

    /// `x` minus its trend, in place.
    public mutating func apply(_ x: inout [Double]) {
        switch method {
        case .none: Detrender.removeMean(&x)
        case .linear: Detrender.removeLinearTrend(&x)
        case .smoothnessPriors:
            guard x.count >= 3 else { return Detrender.removeMean(&x) }
            if factorisations[x.count] == nil {
                factorisations[x.count] = SmoothnessPriors(count: x.count, lambda: lambda)
            }
            factorisations[x.count]?.removeTrend(&x)
        }
    }

    static func removeMean(_ x: inout [Double]) {
        guard !x.isEmpty else { return }
        let m = x.reduce(0, +) / Double(x.count)
        for i in x.indices { x[i] -= m }
    }

    static func removeLinearTrend(_ x: inout [Double]) {
        guard x.count > 1 else { return removeMean(&x) }
        let n = Double(x.count)
        let tm = (n - 1) / 2
        let ym = x.reduce(0, +) / n
        x.withUnsafeMutableBufferPointer { x in
            var sxy = 0.0, sxx = 0.0
            for i in 0..<x.count {
                let dt = Double(i) - tm
                sxy += dt * (x[i] - ym); sxx += dt * dt
            }
            let slope = sxy / sxx
            for i in 0..<x.count { x[i] -= ym + slope * (Double(i) - tm) }
        }
    }
}

/// The smoothness-priors trend z_trend = (I + λ² D₂ᵀD₂)⁻¹ z, D₂ the second-difference
/// matrix (Tarvainen 2002, eq. 12). The matrix is symmetric positive definite and
/// pentadiagonal, so an LDLᵀ factorisation of bandwidth 2 solves it in O(n) instead of
/// the paper's O(n³) dense inverse.
/// A reference type: the factors and scratch space are reused in place across calls.
final class SmoothnessPriors {
    let count: Int
    /// 1/D and the two sub-diagonals of the unit lower factor L (e1: (i, i−1), e2: (i, i−2)).
    private var inverseD: [Double], e1: [Double], e2: [Double]
    private var work: [Double]

    init(count n: Int, lambda: Double) {
        precondition(n >= 3, "SmoothnessPriors: at least 3 samples")
        count = n
        let l2 = lambda * lambda
        // Bands of A: a0 diagonal, a1[i] = A[i+1][i], a2[i] = A[i+2][i], accumulated over
        // the rows of D₂ (coefficients 1, −2, 1).
        var a0 = [Double](repeating: 1, count: n)
        var a1 = [Double](repeating: 0, count: n)
        var a2 = [Double](repeating: 0, count: n)
        for k in 0..<(n - 2) {
            a0[k] += l2; a0[k + 1] += 4 * l2; a0[k + 2] += l2
            a1[k] -= 2 * l2; a1[k + 1] -= 2 * l2
            a2[k] += l2
        }
        var d = [Double](repeating: 0, count: n)
        e1 = d; e2 = d; work = d
        for i in 0..<n {
            if i >= 2 { e2[i] = a2[i - 2] / d[i - 2] }
            if i >= 1 { e1[i] = (a1[i - 1] - (i >= 2 ? e2[i] * e1[i - 1] * d[i - 2] : 0)) / d[i - 1] }
            var di = a0[i]
            if i >= 1 { di -= e1[i] * e1[i] * d[i - 1] }
            if i >= 2 { di -= e2[i] * e2[i] * d[i - 2] }
            d[i] = di
        }
        inverseD = d.map { 1 / $0 }
    }

    /// z ← z − trend: solves L y = z, D w = y, Lᵀ trend = w. The forward pass scales by
    /// D⁻¹ as it goes and the backward pass subtracts the trend as it goes, each with the
    /// same operations, in the same order, as three separate passes.
    func removeTrend(_ z: inout [Double]) {
        let n = count
        precondition(z.count == n, "SmoothnessPriors: length mismatch")
        // One exclusive access to each buffer for the whole solve, not one per element.
        e1.withUnsafeBufferPointer { e1 in
            e2.withUnsafeBufferPointer { e2 in
                inverseD.withUnsafeBufferPointer { inverseD in
                    work.withUnsafeMutableBufferPointer { w in
                        z.withUnsafeMutableBufferPointer { z in
                            var y2 = z[0], y1 = z[1] - e1[1] * y2
                            w[0] = y2 * inverseD[0]
                            w[1] = y1 * inverseD[1]
                            for i in 2..<n {
                                let yi = z[i] - e1[i] * y1 - e2[i] * y2
                                w[i] = yi * inverseD[i]
                                y2 = y1; y1 = yi
                            }
                            w[n - 2] -= e1[n - 1] * w[n - 1]
                            z[n - 1] -= w[n - 1]
                            z[n - 2] -= w[n - 2]
                            for i in stride(from: n - 3, through: 0, by: -1) {
                                w[i] -= e1[i + 1] * w[i + 1] + e2[i + 2] * w[i + 2]
                                z[i] -= w[i]
                            }
                        }
                    }
                }
            }
        }
    }
}
