import XCTest
@testable import ResonanceLab

final class SplineTests: XCTestCase {
    func testNaturalCubicSplineReproducesLinesAndKnots() throws {
        let x = [0.0, 0.7, 1.5, 3.0, 3.2, 5.0]
        let line = try XCTUnwrap(CubicSpline(x: x, y: x.map { 2 * $0 - 1 }))
        // A straight line has zero second derivative, so the natural spline is the line itself.
        for t in stride(from: 0.0, through: 5.0, by: 0.37) { XCTAssertEqual(line.evaluate(at: t), 2 * t - 1, accuracy: 1e-12) }
        let wavy = try XCTUnwrap(CubicSpline(x: x, y: x.map { sin($0) }))
        for (xi, yi) in zip(x, x.map { sin($0) }) { XCTAssertEqual(wavy.evaluate(at: xi), yi, accuracy: 1e-12) }
        // The uniform sweep agrees with point evaluation and holds the end values outside.
        let grid = wavy.sample(from: -0.5, step: 0.25, count: 24)
        for (k, v) in grid.enumerated() {
            let t = -0.5 + 0.25 * Double(k)
            XCTAssertEqual(v, t <= 0 ? 0 : (t >= 5 ? sin(5) : wavy.evaluate(at: t)), accuracy: 1e-12)
        }
    }

    /// The second derivatives from the two sweeps meeting in the middle are those of the
    /// interior equations solved by plain Gaussian elimination, for every size from the
    /// smallest (one unknown) up, odd and even: the spline's value between knots matches
    /// the one built from the reference solution.
    func testTwistedSolveMatchesGaussianEliminationForEverySize() throws {
        var rng = SeededRandom(seed: 23)
        for n in 3...41 {
            var x = [0.0]
            for _ in 1..<n { x.append(x[x.count - 1] + 0.2 + Double.random(in: 0...1.5, using: &rng)) }
            let y = x.map { _ in 700 + 80 * rng.normal() }
            let h = (0..<(n - 1)).map { x[$0 + 1] - x[$0] }
            // Dense system for m[1] … m[n − 2], then elimination with back substitution.
            let u = n - 2
            var a = [[Double]](repeating: [Double](repeating: 0, count: u + 1), count: u)
            for r in 0..<u {
                let i = r + 1
                if r > 0 { a[r][r - 1] = h[i - 1] }
                a[r][r] = 2 * (h[i - 1] + h[i])
                if r + 1 < u { a[r][r + 1] = h[i] }
                a[r][u] = 6 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
            }
            for p in 0..<u {
                for r in (p + 1)..<max(p + 1, u) {
                    let f = a[r][p] / a[p][p]
                    for col in p...u { a[r][col] -= f * a[p][col] }
                }
            }
            var m = [Double](repeating: 0, count: n)
            for r in stride(from: u - 1, through: 0, by: -1) {
                var v = a[r][u]
                for col in (r + 1)..<u { v -= a[r][col] * m[col + 1] }
                m[r + 1] = v / a[r][r]
            }
            let spline = try XCTUnwrap(CubicSpline(x: x, y: y))
            for i in 0..<(n - 1) {
                let t = x[i] + 0.37 * h[i], aw = (x[i + 1] - t) / h[i], bw = (t - x[i]) / h[i]
                let expected = aw * y[i] + bw * y[i + 1] + ((aw * aw * aw - aw) * m[i] + (bw * bw * bw - bw) * m[i + 1]) * h[i] * h[i] / 6
                XCTAssertEqual(spline.evaluate(at: t), expected, accuracy: 1e-9 * abs(expected), "n = \(n), interval \(i)")
            }
        }
    }

    func testQuadraticSplineReproducesQuadratics() throws {
        // Degree-2 B-spline interpolation is exact for polynomials of degree ≤ 2.
        let x = [0.0, 0.4, 1.1, 1.5, 2.9, 3.0, 4.2, 6.0]
        let f = { (t: Double) in 3 * t * t - 2 * t + 5 }
        let s = try XCTUnwrap(QuadraticSpline(x: x, y: x.map(f)))
        for t in stride(from: 0.0, through: 6.0, by: 0.13) { XCTAssertEqual(s.evaluate(at: t), f(t), accuracy: 1e-9) }
        XCTAssertNil(QuadraticSpline(x: [0, 1], y: [1, 2]))
    }
}
