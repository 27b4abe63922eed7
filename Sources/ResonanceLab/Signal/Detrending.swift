import Foundation

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

/// Applies a `Detrending` method; the smoothness-priors factorisation is shared by every
/// series length (see `SmoothnessPriors`).
public struct Detrender {
    public let method: Detrending
    public let lambda: Double
    private var smoothnessPriors: SmoothnessPriors?

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
            if smoothnessPriors == nil { smoothnessPriors = SmoothnessPriors(lambda: lambda) }
            smoothnessPriors?.removeTrend(&x)
        }
    }

    /// The `count` values `next()` gives, in order, less their trend: `apply`'s result to
    /// the bit, but with smoothness priors each value is taken as the forward pass reaches
    /// it, so that making it (a spline sample) overlaps the pass's chain of dependent steps.
    @inline(__always)
    public mutating func detrended(count: Int, _ next: () -> Double) -> [Double] {
        if method == .smoothnessPriors && count >= 3 {
            let solver = smoothnessPriors ?? SmoothnessPriors(lambda: lambda)
            smoothnessPriors = solver
            return solver.removeTrend(count: count, next)
        }
        var x = [Double](unsafeUninitializedCapacity: max(0, count)) { out, initialized in
            for k in 0..<max(0, count) { out[k] = next() }
            initialized = max(0, count)
        }
        apply(&x)
        return x
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
        // Σ(i − tm)² = n(n² − 1)/12, exactly: the terms are multiples of 1/4.
        let sxx = n * (n * n - 1) / 12
        x.withUnsafeMutableBufferPointer { x in
            let ym = Stats.interleavedSum(UnsafeBufferPointer(x)) / n
            // Σ(i − tm)(x_i − ym) in four interleaved partial sums (see `Stats.interleavedSum`).
            var sxy = SIMD4<Double>()
            let offsets = SIMD4<Double>(0, 1, 2, 3) - tm, mean = SIMD4<Double>(repeating: ym)
            var i = 0
            while i + 4 <= x.count {
                sxy += (offsets + Double(i)) * (SIMD4(x[i], x[i + 1], x[i + 2], x[i + 3]) - mean)
                i += 4
            }
            var tail = 0.0
            while i < x.count { tail += (Double(i) - tm) * (x[i] - ym); i += 1 }
            let slope = ((sxy[0] + sxy[1]) + (sxy[2] + sxy[3]) + tail) / sxx
            for i in 0..<x.count { x[i] -= ym + slope * (Double(i) - tm) }
        }
    }
}

/// The smoothness-priors trend z_trend = (I + λ² D₂ᵀD₂)⁻¹ z, D₂ the second-difference
/// matrix (Tarvainen 2002, eq. 12). The matrix is symmetric positive definite and
/// pentadiagonal, so an LDLᵀ factorisation of bandwidth 2 solves it in O(n) instead of
/// the paper's O(n³) dense inverse.
///
/// Plan once, solve many: the matrices of two lengths differ only in their last two
/// rows, so rows 0 … n − 3 of the factor are the same for every n ≥ 3. Those rows are
/// computed once per λ for the whole process (`GenericRows`, grown to the longest series
/// seen), and each solve finishes its own last two rows, with the same operations in the
/// same order as a factorisation of its length alone.
/// A reference type: each length's finished factor is kept, so windows whose lengths
/// alternate (a 300 s window resamples to a few neighbouring lengths) finish each one once,
/// and the scratch space is reused in place across calls. The kept factors hold at most
/// `keptSamples` rows in all: the runs of a whole recording (a year of beats is a
/// thousand runs of as many lengths) would otherwise keep one factor each, 24 bytes per
/// resampled point; past the limit the kept factors are dropped and kept anew.
final class SmoothnessPriors {
    let lambda: Double
    /// 1/D and the two sub-diagonals of the unit lower factor L (e1: (i, i−1), e2: (i, i−2)).
    private struct Factor {
        var inverseD: [Double], e1: [Double], e2: [Double]
    }
    private var factors: [Int: Factor] = [:]
    /// Rows of the kept factors, and their limit (24 MB).
    private var keptRows = 0
    static let keptSamples = 1 << 20
    /// Length of the factor in the arrays below.
    private var count = 0
    private var inverseD: [Double] = [], e1: [Double] = [], e2: [Double] = []
    private var work: [Double] = []

    init(lambda: Double) {
        self.lambda = lambda
    }

    /// Rows of an LDLᵀ factor: D and the two sub-diagonals of L.
    struct GenericRows {
        var d: [Double] = [], e1: [Double] = [], e2: [Double] = []
        var count: Int { d.count }
    }

    nonisolated(unsafe) private static var shared: [UInt64: GenericRows] = [:]
    private static let lock = NSLock()

    /// The generic rows for λ, at least `rows` of them.
    static func genericRows(lambda: Double, rows: Int) -> GenericRows {
        lock.lock()
        defer { lock.unlock() }
        var g = shared[lambda.bitPattern] ?? GenericRows()
        if g.count < rows {
            extend(&g, to: max(rows, 2 * g.count), lambda: lambda, length: nil)
            shared[lambda.bitPattern] = g
        }
        return g
    }

    /// Entries of A = I + λ²D₂ᵀD₂ for a matrix of `n` rows (nil: rows far from the end),
    /// summed over the rows k of D₂ (coefficients 1, −2, 1 at k, k + 1, k + 2) in
    /// increasing k: the diagonal at i, A[j+1][j] and A[j+2][j].
    private static func a0(_ i: Int, _ n: Int?, _ l2: Double) -> Double {
        var v = 1.0
        if row(i - 2, n) { v += l2 }
        if row(i - 1, n) { v += 4 * l2 }
        if row(i, n) { v += l2 }
        return v
    }

    private static func a1(_ j: Int, _ n: Int?, _ l2: Double) -> Double {
        var v = 0.0
        if row(j - 1, n) { v -= 2 * l2 }
        if row(j, n) { v -= 2 * l2 }
        return v
    }

    private static func a2(_ j: Int, _ n: Int?, _ l2: Double) -> Double {
        row(j, n) ? l2 : 0
    }

    /// True when D₂ of an n-row matrix has row k.
    private static func row(_ k: Int, _ n: Int?) -> Bool {
        k >= 0 && (n.map { k <= $0 - 3 } ?? true)
    }

    /// Appends rows until `rows.count == total`: the LDLᵀ recurrence for the matrix of
    /// `length` rows (nil: the generic rows).
    private static func extend(_ g: inout GenericRows, to total: Int, lambda: Double, length: Int?) {
        let l2 = lambda * lambda
        g.d.reserveCapacity(total); g.e1.reserveCapacity(total); g.e2.reserveCapacity(total)
        for i in g.count..<total {
            let e2i = i >= 2 ? a2(i - 2, length, l2) / g.d[i - 2] : 0
            let e1i = i >= 1 ? (a1(i - 1, length, l2) - (i >= 2 ? e2i * g.e1[i - 1] * g.d[i - 2] : 0)) / g.d[i - 1] : 0
            var di = a0(i, length, l2)
            if i >= 1 { di -= e1i * e1i * g.d[i - 1] }
            if i >= 2 { di -= e2i * e2i * g.d[i - 2] }
            g.d.append(di); g.e1.append(e1i); g.e2.append(e2i)
        }
    }

    /// The factor for length n: the generic rows 0 … n − 3, then rows n − 2 and n − 1 of
    /// the n-row matrix.
    private func prepare(_ n: Int) {
        guard n != count else { return }
        let factor: Factor
        if let known = factors[n] {
            factor = known
        } else {
            let generic = SmoothnessPriors.genericRows(lambda: lambda, rows: n - 2)
            var g = GenericRows(d: Array(generic.d[..<(n - 2)]), e1: Array(generic.e1[..<(n - 2)]),
                                e2: Array(generic.e2[..<(n - 2)]))
            SmoothnessPriors.extend(&g, to: n, lambda: lambda, length: n)
            factor = Factor(inverseD: g.d.map { 1 / $0 }, e1: g.e1, e2: g.e2)
            if keptRows + n > SmoothnessPriors.keptSamples {
                factors.removeAll()
                keptRows = 0
            }
            factors[n] = factor
            keptRows += n
        }
        (inverseD, e1, e2) = (factor.inverseD, factor.e1, factor.e2)
        if work.count < n { work = [Double](repeating: 0, count: n) }
        count = n
    }

    /// z ← z − trend (see `removeTrend(count:_:)`).
    func removeTrend(_ z: inout [Double]) {
        let values = z
        var k = -1
        z = removeTrend(count: values.count) {
            k += 1
            return values[k]
        }
    }

    /// z − trend for the n values z[0], z[1], … that `next()` gives in order: solves
    /// L y = z, D w = y, Lᵀ trend = w. The forward pass takes each value as it reaches it
    /// and scales by D⁻¹ as it goes; the backward pass subtracts the trend as it goes. Each
    /// step takes off the term of the value two back first and that of the value one back
    /// last, so that only one multiply and one subtract wait on the step before; both
    /// passes carry the last two values in registers, so that no step waits on a store to
    /// memory being read back.
    @inline(__always)
    func removeTrend(count n: Int, _ next: () -> Double) -> [Double] {
        precondition(n >= 3, "SmoothnessPriors: at least 3 samples")
        prepare(n)
        // One exclusive access to each buffer for the whole solve, not one per element.
        return [Double](unsafeUninitializedCapacity: n) { z, initialized in
            e1.withUnsafeBufferPointer { e1 in
                e2.withUnsafeBufferPointer { e2 in
                    inverseD.withUnsafeBufferPointer { inverseD in
                        work.withUnsafeMutableBufferPointer { w in
                            z[0] = next(); z[1] = next()
                            var y2 = z[0], y1 = z[1] - e1[1] * y2
                            w[0] = y2 * inverseD[0]
                            w[1] = y1 * inverseD[1]
                            for i in 2..<n {
                                z[i] = next()
                                let yi = (z[i] - e2[i] * y2) - e1[i] * y1
                                w[i] = yi * inverseD[i]
                                y2 = y1; y1 = yi
                            }
                            var t2 = w[n - 1], t1 = w[n - 2] - e1[n - 1] * t2
                            z[n - 1] -= t2
                            z[n - 2] -= t1
                            for i in stride(from: n - 3, through: 0, by: -1) {
                                let ti = (w[i] - e2[i + 2] * t2) - e1[i + 1] * t1
                                z[i] -= ti
                                t2 = t1; t1 = ti
                            }
                        }
                    }
                }
            }
            initialized = n
        }
    }
}
