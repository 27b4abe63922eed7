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

    func testQuadraticSplineReproducesQuadratics() throws {
        // Degree-2 B-spline interpolation is exact for polynomials of degree ≤ 2.
        let x = [0.0, 0.4, 1.1, 1.5, 2.9, 3.0, 4.2, 6.0]
        let f = { (t: Double) in 3 * t * t - 2 * t + 5 }
        let s = try XCTUnwrap(QuadraticSpline(x: x, y: x.map(f)))
        for t in stride(from: 0.0, through: 6.0, by: 0.13) { XCTAssertEqual(s.evaluate(at: t), f(t), accuracy: 1e-9) }
        XCTAssertNil(QuadraticSpline(x: [0, 1], y: [1, 2]))
    }
}
