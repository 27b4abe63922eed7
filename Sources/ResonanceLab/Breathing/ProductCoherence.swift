import Foundation

/// The breathing product's own coherence score, computed exactly as the product
/// specification does (docs/methods.md, Coherence, "The product's score"): heart rate
/// sampled at 4 Hz, the last `window_samples` samples mean-centred, the raw DFT power
/// |X_k|²/n² of each bin k, the band bins `max(1, Int(0.04/Δf)) … min(n/2, Int(0.15/Δf))`
/// (Δf = fs/n, `Int` truncating toward zero), the target bins `round(f_b/Δf) ± 1`
/// clipped to the band, and score = target power / band power. Fewer than
/// `min_samples` samples, an empty band (upper bin not above the lower) or no power
/// score 0. A target range that falls wholly outside the band — where the product
/// would form an invalid range — also scores 0 (docs/engines/breathing.md, Pacer).
///
/// Only the few band bins are needed, so each is a direct DFT sum over a cosine/sine
/// table built once per window length, as cheap as an FFT of the window for 4 bins.
public struct ProductCoherence: Sendable {
    public let sampleHz: Double
    public let bandLowHz: Double
    public let bandHighHz: Double
    public let minSamples: Int
    /// Target half-width, bins (the product's ±1).
    public let toleranceBins: Int
    /// Samples per window (the product's last 120).
    public let windowSamples: Int
    /// cos and sin of 2πj/n for j in 0..<n, n = `windowSamples`.
    private let cosTable: [Double]
    private let sinTable: [Double]

    public init(coherence c: CoherenceConstants = .defaults, pacer p: PacerConstants = ConstantsRegistry.defaults.pacer) {
        sampleHz = c.sampleHz
        bandLowHz = c.coachBandLowHz
        bandHighHz = c.coachBandHighHz
        minSamples = Int(c.minSamples)
        toleranceBins = Int(c.breathingBandBins)
        windowSamples = Int(p.windowSamples)
        (cosTable, sinTable) = Self.table(windowSamples)
    }

    private static func table(_ n: Int) -> ([Double], [Double]) {
        let angle = 2.0 * Double.pi / Double(n)
        return ((0..<n).map { cos(angle * Double($0)) }, (0..<n).map { sin(angle * Double($0)) })
    }

    /// The band's bins and the target's bins for `n` samples at `breathingHz`; nil
    /// where the product scores 0 whatever the signal.
    public func bins(count n: Int, breathingHz: Double) -> (band: ClosedRange<Int>, target: ClosedRange<Int>)? {
        guard n >= minSamples else { return nil }
        let resolution = sampleHz / Double(n)
        let minBin = max(1, Int(bandLowHz / resolution))
        let maxBin = min(n / 2, Int(bandHighHz / resolution))
        guard maxBin > minBin else { return nil }
        let targetBin = Int((breathingHz / resolution).rounded())
        let lo = max(minBin, targetBin - toleranceBins), hi = min(maxBin, targetBin + toleranceBins)
        guard lo <= hi else { return nil }
        return (minBin...maxBin, lo...hi)
    }

    /// The score of the last `window_samples` of `hr` (bpm at `sampleHz`), in [0, 1].
    public func score(_ hr: ArraySlice<Double>, breathingHz: Double) -> Double {
        let x = hr.suffix(windowSamples)
        let n = x.count
        guard let (band, target) = bins(count: n, breathingHz: breathingHz) else { return 0 }
        let mean = x.reduce(0, +) / Double(n)
        let full = n == windowSamples
        let (cosines, sines) = full ? (cosTable, sinTable) : Self.table(n)
        var targetPower = 0.0, totalPower = 0.0
        for k in band {
            var re = 0.0, im = 0.0, j = 0
            for v in x {
                let c = v - mean
                re += c * cosines[j]
                im -= c * sines[j]
                j += k
                if j >= n { j -= n }
            }
            let power = (re * re + im * im) / Double(n * n)
            totalPower += power
            if target.contains(k) { targetPower += power }
        }
        guard totalPower > 0 else { return 0 }
        return min(max(targetPower / totalPower, 0), 1)
    }
}
