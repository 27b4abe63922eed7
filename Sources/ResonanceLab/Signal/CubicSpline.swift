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
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    m.withUnsafeMutableBufferPointer { m in CubicSpline.solve(x, y, into: m) }
                }
            }
        }
        self.m = m
    }

    /// The second derivatives m[1] … m[n − 2] of the interior equations
    /// h[i−1]·m[i−1] + 2(h[i−1] + h[i])·m[i] + h[i]·m[i+1] = 6·(slope[i] − slope[i−1]),
    /// m[0] = m[n−1] = 0 (h[i] = x[i+1] − x[i], slope[i] its chord's slope), by a twisted
    /// factorisation: eliminated downward from the top and upward from the bottom at the
    /// same time, the two sweeps meeting at knot k. Each sweep is a chain of dependent
    /// divisions; two independent chains keep the divider busy where one would wait
    /// (van der Vorst 1987, "Large tridiagonal and block tridiagonal linear systems on
    /// vector and parallel computers", Parallel Computing 5).
    private static func solve(_ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>,
                              into m: UnsafeMutableBufferPointer<Double>) {
        let n = x.count
        var h = [Double](repeating: 0, count: n - 1), slope = h
        for i in 0..<(n - 1) {
            h[i] = x[i + 1] - x[i]
            slope[i] = (y[i + 1] - y[i]) / h[i]
        }
        // Top (i = 1 … k): m[i] = d[i] − c[i]·m[i+1]. Bottom (i = n−2 … k+1):
        // m[i] = d[i] − c[i]·m[i−1], in the same arrays.
        var c = [Double](repeating: 0, count: n), d = c
        let k = (n - 1) / 2
        let top = k, bottom = n - 2 - k
        var cUp = 0.0, dUp = 0.0, cDown = 0.0, dDown = 0.0
        for t in 0..<max(top, bottom) {
            if t < top {
                let i = 1 + t
                let inverse = 1 / (2 * (h[i - 1] + h[i]) - h[i - 1] * cUp)
                cUp = h[i] * inverse
                dUp = (6 * (slope[i] - slope[i - 1]) - h[i - 1] * dUp) * inverse
                c[i] = cUp; d[i] = dUp
            }
            if t < bottom {
                let i = n - 2 - t
                let inverse = 1 / (2 * (h[i - 1] + h[i]) - h[i] * cDown)
                cDown = h[i - 1] * inverse
                dDown = (6 * (slope[i] - slope[i - 1]) - h[i] * dDown) * inverse
                c[i] = cDown; d[i] = dDown
            }
        }
        // Where they meet: m[k] = d[k] − c[k]·m[k+1] and m[k+1] = d[k+1] − c[k+1]·m[k].
        if bottom == 0 {
            m[k] = d[k]
        } else {
            m[k] = (d[k] - c[k] * d[k + 1]) / (1 - c[k] * c[k + 1])
            m[k + 1] = d[k + 1] - c[k + 1] * m[k]
        }
        for t in 1..<max(top, bottom) {
            if k - t >= 1 { m[k - t] = d[k - t] - c[k - t] * m[k - t + 1] }
            if k + 1 + t <= n - 2 { m[k + 1 + t] = d[k + 1 + t] - c[k + 1 + t] * m[k + t] }
        }
    }

    /// Value at `t` on interval `i` (x[i] ≤ t ≤ x[i+1]) of the spline with knots `x`,
    /// values `y` and second derivatives `m`.
    @inline(__always)
    private static func value(_ t: Double, interval i: Int, _ x: UnsafeBufferPointer<Double>,
                              _ y: UnsafeBufferPointer<Double>, _ m: UnsafeBufferPointer<Double>) -> Double {
        let h = x[i + 1] - x[i]
        return value(a: (x[i + 1] - t) / h, b: (t - x[i]) / h, curvature: h * h / 6, interval: i, y, m)
    }

    /// The cubic on interval `i` (length h, `curvature` = h²/6) at the point
    /// a = (x[i+1] − t)/h, b = (t − x[i])/h.
    @inline(__always)
    private static func value(a: Double, b: Double, curvature: Double, interval i: Int,
                              _ y: UnsafeBufferPointer<Double>, _ m: UnsafeBufferPointer<Double>) -> Double {
        a * y[i] + b * y[i + 1] + ((a * a * a - a) * m[i] + (b * b * b - b) * m[i + 1]) * curvature
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
    /// Beyond the knots the end values are held rather than extrapolated (see `GridPoints`).
    public func sample(from t0: Double, step: Double, count: Int) -> [Double] {
        withGrid(from: t0, step: step) { points in
            [Double](unsafeUninitializedCapacity: max(0, count)) { out, initialized in
                for k in 0..<max(0, count) { out[k] = points.next() }
                initialized = max(0, count)
            }
        }
    }

    /// Calls `body` with a walk along the grid t0, t0 + step, … (`GridPoints`), so that a
    /// caller can use each value as it is made rather than from an array.
    @inline(__always)
    public func withGrid<R>(from t0: Double, step: Double, _ body: (inout GridPoints) -> R) -> R {
        withBuffers { x, y, m in
            var points = GridPoints(x: x, y: y, m: m, t0: t0, step: step)
            return body(&points)
        }
    }

    /// The spline's values at t0, t0 + step, … in order, one per `next()`, in one forward
    /// sweep. Beyond the knots the end values are held rather than extrapolated. Each
    /// interval's 1/h and h²/6 are taken once for the grid points in it (a few per beat at
    /// 4 Hz), so a point costs multiplications where `evaluate(at:)` divides; the two
    /// agree to rounding. Valid inside `withGrid` only.
    public struct GridPoints {
        let x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, m: UnsafeBufferPointer<Double>
        let t0: Double, step: Double
        /// The next grid point and the interval last used, with its 1/h and h²/6.
        var k = 0, i = 0
        var inverse: Double, curvature: Double

        init(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, m: UnsafeBufferPointer<Double>,
             t0: Double, step: Double) {
            self.x = x; self.y = y; self.m = m; self.t0 = t0; self.step = step
            let h = x[1] - x[0]
            inverse = 1 / h
            curvature = h * h / 6
        }

        @inline(__always)
        public mutating func next() -> Double {
            let t = t0 + Double(k) * step
            k += 1
            let last = x.count - 2
            if t <= x[0] { return y[0] }
            if t >= x[last + 1] { return y[last + 1] }
            if i < last && x[i + 1] < t {
                repeat { i += 1 } while i < last && x[i + 1] < t
                let h = x[i + 1] - x[i]
                inverse = 1 / h
                curvature = h * h / 6
            }
            let a = (x[i + 1] - t) * inverse, b = (t - x[i]) * inverse
            return CubicSpline.value(a: a, b: b, curvature: curvature, interval: i, y, m)
        }
    }
}
