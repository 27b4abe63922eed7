import Foundation

/// Deterministic pseudo-random numbers (SplitMix64, Steele, Lea & Flood 2014): the
/// same seed gives the same stream on every machine and process, which
/// `SystemRandomNumberGenerator` and `hashValue` do not.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [low, high).
    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * uniform()
    }

    /// Standard normal by Box–Muller (one draw per call; the pair's second half is
    /// discarded to keep the state a single integer).
    public mutating func normal() -> Double {
        var u = uniform()
        while u <= 0 { u = uniform() }
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }

    public mutating func normal(mean: Double, sd: Double) -> Double {
        mean + sd * normal()
    }

    /// Uniform integer in `range` (unbiased, via the standard library's bounded draw).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// djb2 hash of a string (Bernstein): a stable seed from a name, unlike `hashValue`.
    public static func djb2(_ text: String) -> UInt64 {
        var h: UInt64 = 5381
        for byte in text.utf8 { h = (h &<< 5) &+ h &+ UInt64(byte) }
        return h
    }
}
