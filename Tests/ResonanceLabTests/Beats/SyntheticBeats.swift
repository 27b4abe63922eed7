import Foundation
@testable import ResonanceLab

/// Synthetic signals with known beats for the detectors' tests.
enum SyntheticBeats {
    /// Beat times from `start` s to `seconds − start` with R-R drawn from 0.7 to 1.1 s, seeded.
    static func times(seconds: Double, from start: Double, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        var t = start, out: [Double] = []
        while t < seconds - start {
            out.append(t)
            t += random.uniform(0.7, 1.1)
        }
        return out
    }

    /// An ECG: each beat a P wave, a narrow R wave (σ 10 ms, `r` mV) with a small S, and a
    /// T wave (σ 40 ms, 0.3 mV, 250 ms after R), at the beat times given (s).
    static func ecg(beats: [Double], seconds: Double, rateHz: Double, r: Double = 1) -> [Double] {
        let n = Int(seconds * rateHz)
        var x = [Double](repeating: 0, count: n)
        func wave(_ centre: Double, _ sigma: Double, _ amplitude: Double) {
            let lo = max(0, Int((centre - 5 * sigma) * rateHz)), hi = min(n - 1, Int((centre + 5 * sigma) * rateHz))
            guard lo <= hi else { return }
            for i in lo...hi {
                let t = Double(i) / rateHz
                x[i] += amplitude * exp(-0.5 * pow((t - centre) / sigma, 2))
            }
        }
        for b in beats {
            wave(b - 0.16, 0.025, 0.12)
            wave(b, 0.010, r)
            wave(b + 0.03, 0.012, -0.2 * r)
            wave(b + 0.25, 0.040, 0.3)
        }
        return x
    }

    /// A pulse wave: each pulse a 150-ms rise (half a cosine period, starting flat) then
    /// an exponential decay (τ 0.3 s), the pulses added up, so the wave is continuous and
    /// its foot lies within 2 ms after each onset; sampled at `rateHz`.
    static func pulseWave(_ onsets: [Double], seconds: Double, rateHz: Double) -> [Double] {
        (0..<Int(seconds * rateHz)).map { i in
            let t = Double(i) / rateHz
            return onsets.reduce(0) { sum, o in
                let tau = t - o
                guard tau >= 0 else { return sum }
                return sum + (tau < 0.15 ? (1 - cos(.pi * tau / 0.15)) / 2 : exp(-(tau - 0.15) / 0.3))
            }
        }
    }
}
