import Foundation

/// A second-order IIR section, run forward only (causal) in direct form I. Coefficients
/// from the bilinear transform with pre-warping (Bristow-Johnson, "Cookbook formulae for
/// audio EQ biquad filter coefficients"), which for Q = 1/√2 is the 2nd-order Butterworth
/// filter `scipy.signal.butter` designs.
public struct Biquad: Sendable {
    public let b0, b1, b2, a1, a2: Double

    /// The Q of a 2nd-order Butterworth section.
    public static let butterworthQ = 1 / 2.0.squareRoot()

    public static func lowPass(cornerHz: Double, rateHz: Double, q: Double = butterworthQ) -> Biquad {
        let (cw, alpha) = prewarped(cornerHz, rateHz, q)
        let a0 = 1 + alpha
        return Biquad(b0: (1 - cw) / 2 / a0, b1: (1 - cw) / a0, b2: (1 - cw) / 2 / a0, a1: -2 * cw / a0, a2: (1 - alpha) / a0)
    }

    public static func highPass(cornerHz: Double, rateHz: Double, q: Double = butterworthQ) -> Biquad {
        let (cw, alpha) = prewarped(cornerHz, rateHz, q)
        let a0 = 1 + alpha
        return Biquad(b0: (1 + cw) / 2 / a0, b1: -(1 + cw) / a0, b2: (1 + cw) / 2 / a0, a1: -2 * cw / a0, a2: (1 - alpha) / a0)
    }

    private static func prewarped(_ cornerHz: Double, _ rateHz: Double, _ q: Double) -> (cos: Double, alpha: Double) {
        let w0 = 2 * Double.pi * cornerHz / rateHz
        return (cos(w0), sin(w0) / (2 * q))
    }

    /// The gain at 0 Hz.
    public var dcGain: Double { (b0 + b1 + b2) / (1 + a1 + a2) }

    /// `x` filtered. With `steadyAt`, the state is as if the input had been that value
    /// forever, so that a constant offset at the start causes no transient.
    public func run(_ x: [Double], steadyAt start: Double? = nil) -> [Double] {
        var y = [Double](repeating: 0, count: x.count)
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        if let start {
            x1 = start; x2 = start
            y1 = dcGain * start; y2 = y1
        }
        for i in x.indices {
            let xi = x[i]
            let yi = b0 * xi + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            x2 = x1; x1 = xi
            y2 = y1; y1 = yi
            y[i] = yi
        }
        return y
    }
}
