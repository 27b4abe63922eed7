/// Natural cubic spline through strictly increasing knots (de Boor, "A Practical Guide
/// to Splines", ch. IV): the interpolant Kubios and the Task Force (1996) recommend for
/// resampling RR series and for replacing corrected beats. Second derivatives come
/// from one tridiagonal solve, so fitting and evaluating are O(n).
public struct CubicSpline: Sendable {
    public let x: [Double]
    public let y: [Double]
    /// Second derivative at each knot (0 at both ends: natural end conditions).
    private let m: [Double]

    /// Nil below two knots. `x` must be strictly increasing.
    public init?(x: [Double], y: [Double]) {
        precondition(x.count == y.count, "CubicSpline: x and y lengths differ")
        guard x.count >= 2 else { return nil }
        self.x = x
        self.y = y
        let n = x.count
        var m = [Double](repeating: 0, count: n)
        if n > 2 {
            // Thomas algorithm on the interior equations
            // h[i−1]·m[i−1] + 2(h[i−1]+h[i])·m[i] + h[i]·m[i+1] = 6·(slope[i] − slope[i−1]).
            var cStorage = [Double](repeating: 0, count: n)
            var dStorage = [Double](repeating: 0, count: n)
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    cStorage.withUnsafeMutableBufferPointer { c in
                        dStorage.withUnsafeMutableBufferPointer { d in
                            m.withUnsafeMutableBufferPointer { m in
                                // Each interval's length and slope are carried to the next knot.
                                var h0 = x[1] - x[0], slope0 = (y[1] - y[0]) / h0
                                for i in 1..<(n - 1) {
                                    let h1 = x[i + 1] - x[i], slope1 = (y[i + 1] - y[i]) / h1
                                    let rhs = 6 * (slope1 - slope0)
                                    let diag = 2 * (h0 + h1) - h0 * c[i - 1]
                                    c[i] = h1 / diag
                                    d[i] = (rhs - h0 * d[i - 1]) / diag
                                    h0 = h1; slope0 = slope1
                                }
                                for i in stride(from: n - 2, through: 1, by: -1) {
                                    m[i] = d[i] - c[i] * m[i + 1]
                                }
                            }
                        }
                    }
                }
            }
        }
        self.m = m
    }

    /// Value at `t` on interval `i` (x[i] ≤ t ≤ x[i+1]) of the spline with knots `x`,
    /// values `y` and second derivatives `m`.
    @inline(__always)
    private static func value(_ t: Double, interval i: Int, _ x: UnsafeBufferPointer<Double>,
                              _ y: UnsafeBufferPointer<Double>, _ m: UnsafeBufferPointer<Double>) -> Double {
        let h = x[i + 1] - x[i]
        return value(a: (x[i + 1] - t) / h, b: (t - x[i]) / h, h: h, interval: i, y, m)
    }

    /// The cubic on interval `i` (length h) at the point a = (x[i+1] − t)/h, b = (t − x[i])/h.
    @inline(__always)
    private static func value(a: Double, b: Double, h: Double, interval i: Int,
                              _ y: UnsafeBufferPointer<Double>, _ m: UnsafeBufferPointer<Double>) -> Double {
        a * y[i] + b * y[i + 1] + ((a * a * a - a) * m[i] + (b * b * b - b) * m[i + 1]) * h * h / 6
    }

    /// Calls `body` with the knots, values and second derivatives, each accessed once.
    private func withBuffers<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>,
                                         UnsafeBufferPointer<Double>) -> R) -> R {
        x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in m.withUnsafeBufferPointer { m in body(x, y, m) } } }
    }

    /// Value at `t`; outside the knots the end cubic is extended.
    public func evaluate(at t: Double) -> Double {
        withBuffers { x, y, m in
            // The last knot ≤ t among the interior ones, else the first interval.
            let lo = x[1..<(x.count - 1)].upperBound(t) - 1
            return Self.value(t, interval: lo, x, y, m)
        }
    }

    /// `count` values on the uniform grid t0, t0 + step, … in one forward sweep (O(n + count)).
    /// Beyond the knots the end values are held rather than extrapolated. Each interval's
    /// 1/h and h²/6 are taken once for the grid points in it (a few per beat at 4 Hz), so a
    /// point costs multiplications where `evaluate(at:)` divides; the two agree to rounding.
    public func sample(from t0: Double, step: Double, count: Int) -> [Double] {
        var samples = [Double](repeating: 0, count: count)
        withBuffers { x, y, m in
            samples.withUnsafeMutableBufferPointer { out in
                var i = 0
                let last = x.count - 2
                var h = x[1] - x[0], inverse = 1 / h, curvature = h * h / 6
                for k in 0..<count {
                    let t = t0 + Double(k) * step
                    if t <= x[0] { out[k] = y[0]; continue }
                    if t >= x[last + 1] { out[k] = y[last + 1]; continue }
                    if i < last && x[i + 1] < t {
                        repeat { i += 1 } while i < last && x[i + 1] < t
                        h = x[i + 1] - x[i]
                        inverse = 1 / h
                        curvature = h * h / 6
                    }
                    let a = (x[i + 1] - t) * inverse, b = (t - x[i]) * inverse
                    out[k] = a * y[i] + b * y[i + 1] + ((a * a * a - a) * m[i] + (b * b * b - b) * m[i + 1]) * curvature
                }
            }
        }
        return samples
    }
}
