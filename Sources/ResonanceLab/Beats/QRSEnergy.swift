import Foundation

/// The first steps of Pan & Tompkins (1985) on an ECG (docs/methods.md, Beats from the
/// ECG): band-pass (two causal biquads, the high-pass started in steady state at the
/// first sample, so a constant offset gives no step), derivative (× rate), and the
/// moving-window integral of its square. Each step's arithmetic is that of running them
/// one after the other on one signal, operation for operation: the same numbers.
struct QRSEnergy {
    /// The band-passed signals of the two lanes, in the signals' units; each at least as
    /// long as its signal, the samples after it left from an earlier pair.
    private(set) var bandPassed0: [Double] = [], bandPassed1: [Double] = []
    /// The mean of the squared derivative over the trailing window, (units/s)², likewise.
    private(set) var integrated0: [Double] = [], integrated1: [Double] = []

    typealias Lanes = SIMD2<Double>

    /// Two signals at once, one in each lane of a `SIMD2<Double>`: the recursions are
    /// independent, so each vector operation advances both, and the pass costs little
    /// more than one signal's alone (docs/methods/beats.md, Beats in chunks). `b` may be
    /// shorter than `a` (or empty), and the other way round: past a signal's end its lane
    /// runs on zeros and nothing is kept. The arrays are written in place when nothing
    /// else holds them, so that pair after pair reuses their memory.
    mutating func compute(_ a: [Double], _ b: [Double], band: [Biquad], rateHz fs: Double, window w: Int) {
        func fit(_ y: inout [Double], _ n: Int) { if y.count < n { y = [Double](repeating: 0, count: n) } }
        fit(&bandPassed0, a.count); fit(&integrated0, a.count)
        fit(&bandPassed1, b.count); fit(&integrated1, b.count)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                bandPassed0.withUnsafeMutableBufferPointer { bp0 in
                    bandPassed1.withUnsafeMutableBufferPointer { bp1 in
                        integrated0.withUnsafeMutableBufferPointer { mwi0 in
                            integrated1.withUnsafeMutableBufferPointer { mwi1 in
                                Self.run(a, b, band: band, rateHz: fs, window: w, bandPassed: (bp0, bp1), integrated: (mwi0, mwi1))
                            }
                        }
                    }
                }
            }
        }
    }

    private static func run(_ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>, band: [Biquad],
                            rateHz fs: Double, window w: Int,
                            bandPassed: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>),
                            integrated: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>)) {
        let h = band[0], l = band[1]
        let (na, nb) = (a.count, b.count), common = min(a.count, b.count)
        let first = Lanes(na > 0 ? a[0] : 0, nb > 0 ? b[0] : 0)
        var hx1 = first, hx2 = first, hy1 = Lanes(h.dcGain * first[0], h.dcGain * first[1]), hy2 = hy1
        var lx1 = Lanes(), lx2 = Lanes(), ly1 = Lanes(), ly2 = Lanes()
        let (hb0, hb1, hb2, ha1, ha2) = (Lanes(repeating: h.b0), Lanes(repeating: h.b1), Lanes(repeating: h.b2),
                                         Lanes(repeating: h.a1), Lanes(repeating: h.a2))
        let (lb0, lb1, lb2, la1, la2) = (Lanes(repeating: l.b0), Lanes(repeating: l.b1), Lanes(repeating: l.b2),
                                         Lanes(repeating: l.a1), Lanes(repeating: l.a2))
        let rate = Lanes(repeating: fs), divisor = Lanes(repeating: Double(w)), zero = Lanes()
        var sum = zero, previous = zero
        // The last `w` derivatives, for the integral's running sum.
        var ring = [Lanes](repeating: zero, count: w)
        ring.withUnsafeMutableBufferPointer { ring in
            var slot = 0
            for i in 0..<max(na, nb) {
                let xi = i < common ? Lanes(a[i], b[i]) : Lanes(i < na ? a[i] : 0, i < nb ? b[i] : 0)
                let hi = hb0 * xi + hb1 * hx1 + hb2 * hx2 - ha1 * hy1 - ha2 * hy2
                hx2 = hx1; hx1 = xi; hy2 = hy1; hy1 = hi
                let yi = lb0 * hi + lb1 * lx1 + lb2 * lx2 - la1 * ly1 - la2 * ly2
                lx2 = lx1; lx1 = hi; ly2 = ly1; ly1 = yi
                let di = i > 0 ? (yi - previous) * rate : zero
                previous = yi
                sum += di * di
                if i >= w { sum -= ring[slot] * ring[slot] }
                ring[slot] = di
                slot = slot + 1 == w ? 0 : slot + 1
                // Rounding can leave a running sum of squares a hair below zero (as
                // `max(sum, 0)`: 0 where 0 ≥ sum).
                sum.replace(with: zero, where: zero .>= sum)
                let mean = sum / divisor
                if i < na { bandPassed.0[i] = yi[0]; integrated.0[i] = mean[0] }
                if i < nb { bandPassed.1[i] = yi[1]; integrated.1[i] = mean[1] }
            }
        }
    }
}
