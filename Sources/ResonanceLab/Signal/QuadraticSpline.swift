/// Quadratic interpolating B-spline with knots at the midpoints between data sites
/// (Greville-like, the second and second-to-last omitted, as de Boor's not-a-knot
/// condition). This is SciPy's `interp1d(kind="quadratic")`, the interpolant NeuroKit2's
/// `hrv_frequency` resamples with, offered so spectra can be matched to it exactly.
public struct QuadraticSpline: Sendable {
    private let knots: [Double]
    private let coefficients: [Double]
    private let x: [Double]
    private let y: [Double]

    /// Nil below three data points. `x` must be strictly increasing.
    public init?(x: [Double], y: [Double]) {
        let n = x.count
        guard n >= 3, y.count == n else { return nil }
        self.x = x
        self.y = y
        var t = [Double](repeating: x[0], count: 3)
        if n > 3 { for i in 2..<(n - 1) { t.append((x[i - 1] + x[i]) / 2) } }
        t += [x[n - 1], x[n - 1], x[n - 1]]
        knots = t
        // Collocation system: row i holds the 3 basis values at x[i], in columns j−2 … j of
        // its knot interval j; stored as a band of offsets −2 … +2 from the diagonal.
        // B-spline collocation matrices are totally positive, so elimination without
        // pivoting is stable (de Boor 1978, ch. XIII).
        var band = [[Double]](repeating: [0, 0, 0, 0, 0], count: n)
        var rhs = y
        for i in 0..<n {
            let j = QuadraticSpline.interval(t, x[i], n: n)
            let b = QuadraticSpline.basis(t, x[i], j)
            band[i][j - i] = b.0; band[i][j - i + 1] = b.1; band[i][j - i + 2] = b.2
        }
        for k in 0..<n {
            let pivot = band[k][2]
            for r in (k + 1)..<min(k + 3, n) {
                let f = band[r][k - r + 2] / pivot
                guard f != 0 else { continue }
                for c in k..<min(k + 3, n) { band[r][c - r + 2] -= f * band[k][c - k + 2] }
                rhs[r] -= f * rhs[k]
            }
        }
        var c = [Double](repeating: 0, count: n)
        for k in stride(from: n - 1, through: 0, by: -1) {
            var v = rhs[k]
            for col in (k + 1)..<min(k + 3, n) { v -= band[k][col - k + 2] * c[col] }
            c[k] = v / band[k][2]
        }
        coefficients = c
    }

    /// Knot interval j (2 ≤ j ≤ n − 1) with knots[j] ≤ u (< knots[j + 1] unless at the end).
    private static func interval(_ t: [Double], _ u: Double, n: Int) -> Int {
        t[3..<max(3, n)].upperBound(u) - 1
    }

    /// The three nonzero degree-2 B-splines at u on interval j (de Boor's BSPLVB).
    @inline(__always)
    private static func basis(_ t: [Double], _ u: Double, _ j: Int) -> (Double, Double, Double) {
        let l1 = u - t[j], l2 = u - t[j - 1], r1 = t[j + 1] - u, r2 = t[j + 2] - u
        // Degree 1: b0 = r1/(r1 + l1), b1 = l1/(r1 + l1).
        let d1 = r1 + l1
        let a0 = r1 / d1, a1 = l1 / d1
        // Degree 2.
        let t0 = a0 / (r1 + l2), t1 = a1 / (r2 + l1)
        return (r1 * t0, l2 * t0 + r2 * t1, l1 * t1)
    }

    public func evaluate(at u: Double) -> Double {
        if u <= x[0] { return y[0] }
        if u >= x[x.count - 1] { return y[y.count - 1] }
        let j = QuadraticSpline.interval(knots, u, n: x.count)
        let b = QuadraticSpline.basis(knots, u, j)
        return b.0 * coefficients[j - 2] + b.1 * coefficients[j - 1] + b.2 * coefficients[j]
    }
}

/// How an unevenly sampled series is resampled on a uniform grid.
public enum Interpolation: String, Sendable, CaseIterable {
    /// Natural cubic spline (Task Force 1996, Kubios; default).
    case cubic
    /// SciPy's quadratic spline, as NeuroKit2.
    case quadratic

    /// Calls `body` with a source of the values on the grid t0, t0 + step, …, one per call
    /// in order; beyond the data the end values are held. Nil when there are too few
    /// points for the interpolant.
    @inline(__always)
    public func withGrid<R>(x: [Double], y: [Double], from t0: Double, step: Double,
                            _ body: (() -> Double) -> R) -> R? {
        switch self {
        case .cubic:
            return CubicSpline(x: x, y: y)?.withGrid(from: t0, step: step) { points in body { points.next() } }
        case .quadratic:
            guard let spline = QuadraticSpline(x: x, y: y) else { return nil }
            var k = 0
            return body {
                defer { k += 1 }
                return spline.evaluate(at: t0 + Double(k) * step)
            }
        }
    }
}
