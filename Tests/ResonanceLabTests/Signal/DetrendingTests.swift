import XCTest
@testable import ResonanceLab

final class DetrendingTests: XCTestCase {
    /// z − (I + λ² D₂ᵀD₂)⁻¹ z computed densely (Gaussian elimination).
    static func denseDetrend(_ z: [Double], lambda: Double) -> [Double] {
        let n = z.count
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
        return zip(z, trend).map { $0 - $1 }
    }

    func testSmoothnessPriorsMatchesDenseSolve() {
        let z = [1.0, 4, 2, 8, 5, 7, 3, 9, 6]
        var x = z
        var detrender = Detrender(.smoothnessPriors, lambda: 3)
        detrender.apply(&x)
        let expected = Self.denseDetrend(z, lambda: 3)
        for i in z.indices { XCTAssertEqual(x[i], expected[i], accuracy: 1e-9) }
    }

    /// One factorisation serves every length: a long series first, then shorter and
    /// longer ones (the shortest, 3, has no generic row at all), each equal to the dense
    /// solve of its own length.
    func testOneDetrenderServesEveryLength() {
        var rng = SeededRandom(seed: 4)
        var detrender = Detrender(.smoothnessPriors, lambda: 2.5)
        for n in [40, 3, 4, 5, 6, 17, 40, 9, 41, 64] {
            let z = (0..<n).map { i in 800 + 30 * sin(Double(i) / 3) + 20 * rng.normal() }
            var x = z
            detrender.apply(&x)
            let expected = Self.denseDetrend(z, lambda: 2.5)
            for i in 0..<n { XCTAssertEqual(x[i], expected[i], accuracy: 1e-7, "n = \(n), i = \(i)") }
        }
    }

    /// Values taken from a source as the detrending reaches them: each asked for once, in
    /// order, and the trend removed as from the whole series (the dense solve for
    /// smoothness priors, `apply` for the others).
    func testDetrendedTakesEachValueOnceAsItGoes() {
        var rng = SeededRandom(seed: 9)
        let z = (0..<50).map { i in 800 + 30 * sin(Double(i) / 4) + 20 * rng.normal() }
        for method in Detrending.allCases {
            var d = Detrender(method, lambda: 2.5)
            var asked = 0
            let x = d.detrended(count: z.count) {
                asked += 1
                return z[asked - 1]
            }
            XCTAssertEqual(asked, z.count, "\(method)")
            var expected = z
            var other = Detrender(method, lambda: 2.5)
            other.apply(&expected)
            if method == .smoothnessPriors { expected = Self.denseDetrend(z, lambda: 2.5) }
            for i in z.indices { XCTAssertEqual(x[i], expected[i], accuracy: 1e-7, "\(method), i = \(i)") }
        }
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
