import XCTest
@testable import ResonanceLab

final class DetrendingTests: XCTestCase {
    func testSmoothnessPriorsMatchesDenseSolve() {
        // z − (I + λ² D₂ᵀD₂)⁻¹ z computed densely (Gaussian elimination) for n = 9, λ = 3.
        let n = 9, lambda = 3.0
        let z = [1.0, 4, 2, 8, 5, 7, 3, 9, 6]
        var a = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for i in 0..<n { a[i][i] = 1 }
        for k in 0..<(n - 2) {
            let c = [1.0, -2, 1]
            for p in 0..<3 { for q in 0..<3 { a[k + p][k + q] += lambda * lambda * c[p] * c[q] } }
        }
        var b = z
        for col in 0..<n {
            for row in (col + 1)..<n {
                let f = a[row][col] / a[col][col]
                for k in col..<n { a[row][k] -= f * a[col][k] }
                b[row] -= f * b[col]
            }
        }
        var trend = [Double](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var v = b[i]
            for k in (i + 1)..<n { v -= a[i][k] * trend[k] }
            trend[i] = v / a[i][i]
        }
        var x = z
        var detrender = Detrender(.smoothnessPriors, lambda: lambda)
        detrender.apply(&x)
        for i in 0..<n { XCTAssertEqual(x[i], z[i] - trend[i], accuracy: 1e-9) }
    }

    func testStraightLinesAreRemovedEntirely() {
        // D₂ annihilates lines, so the smoothness-priors trend of a line is the line itself.
        for method in [Detrending.smoothnessPriors, .linear] {
            var x = (0..<1200).map { 3 + 0.25 * Double($0) }
            var d = Detrender(method)
            d.apply(&x)
            XCTAssertEqual(x.map { abs($0) }.max() ?? 1, 0, accuracy: 1e-6, "\(method)")
        }
    }
}
