import Foundation

/// Amplitudes of the components of a simulated R-R series, solved so that a 5-minute
/// window has a given expected SDNN and RMSSD.
///
/// RRᵢ = μ(t) + g(t)·[A_rsa·sin φ_b + A_lf·sin φ_lf + σ_w·εᵢ] + sᵢ, where μ = 60000/HR,
/// φ_b advances at the breathing rate (respiratory sinus arrhythmia, HF band), φ_lf at
/// 0.1 Hz (baroreflex Mayer waves, LF band; Task Force 1996, Circulation 93:1043),
/// ε white, and s an Ornstein–Uhlenbeck wander (τ = 30 s, VLF) that also makes the
/// beat-derived HR drift as a real one does. g(t) rescales the fast part so that the
/// RMSSD expected at the current mean interval is the target (the persona's own value,
/// moved by music, see `MusicResponse`): without it a slower heart would raise RMSSD
/// through c(f) below and music's HR effect would leak into its RMSSD effect.
///
/// Expected moments for mean interval T seconds and a W = 300 s window:
///   SDNN²  = A_rsa²/2 + A_lf²/2 + σ_w² + k·σ_s²,  k = 1 − 2τ/W + 2τ²/W²·(1 − e^{−W/τ})
///            (within-window share of an OU variance),
///   RMSSD² = A_rsa²·c(f_b) + A_lf²·c(0.1) + 2σ_w² + 2σ_s²(1 − e^{−T/τ}),
///            c(f) = 1 − cos(2πfT) (successive difference of a sinusoid sampled every T).
/// With the LF share fixed (A_lf² = 0.7·SDNN², LF = 35 % of the variance) and σ_w = 0.15·RMSSD the two equations are
/// linear in A_rsa² and σ_s².
public struct RRComponents: Sendable, Equatable {
    public static let slowTauSeconds = 30.0
    static let windowSeconds = 300.0
    static let lfHz = 0.1

    public var meanRRMs: Double
    public var breathingHz: Double
    public var rsaMs: Double
    public var lfMs: Double
    public var whiteMs: Double
    public var slowMs: Double
    /// RMSSD the components give (ms) and the part of RMSSD² the slow wander carries.
    public var rmssdMs: Double
    var slowDiffVariance: Double

    public init(sdnnMs: Double, rmssdMs: Double, meanRRMs: Double, breathingHz: Double) {
        let t = meanRRMs / 1000, tau = Self.slowTauSeconds, w = Self.windowSeconds
        let k = 1 - 2 * tau / w + 2 * tau * tau / (w * w) * (1 - exp(-w / tau))
        let cB = Self.differenceFactor(breathingHz, meanRRMs: meanRRMs)
        let cL = Self.differenceFactor(Self.lfHz, meanRRMs: meanRRMs)
        let oneMinusRho = 1 - exp(-t / tau)
        let lf2 = 0.7 * sdnnMs * sdnnMs
        let white = 0.15 * rmssdMs
        let p = rmssdMs * rmssdMs - lf2 * cL - 2 * white * white
        let q = sdnnMs * sdnnMs - lf2 / 2 - white * white
        // Solve cB·a + 2(1−ρ)·b = p and a/2 + k·b = q for a = A_rsa², b = σ_s².
        let det = cB * k - oneMinusRho
        var a = (p * k - 2 * oneMinusRho * q) / det
        var b = (cB * q - 0.5 * p) / det
        if b < 0 { b = 0; a = p / cB }
        a = max(0, a)
        self.meanRRMs = meanRRMs; self.breathingHz = breathingHz
        rsaMs = a.squareRoot(); lfMs = lf2.squareRoot(); whiteMs = white; slowMs = b.squareRoot()
        slowDiffVariance = 2 * b * oneMinusRho
        self.rmssdMs = rmssdMs
    }

    /// Factor g applied to the fast components so that RMSSD becomes `targetMs`
    /// (floored where only the slow wander would remain).
    @inline(__always)
    func fastScale(rmssdMs targetMs: Double, meanRRMs t: Double) -> Double {
        let fast = rsaMs * rsaMs * Self.differenceFactor(breathingHz, meanRRMs: t)
            + lfMs * lfMs * Self.differenceFactor(Self.lfHz, meanRRMs: t) + 2 * whiteMs * whiteMs
        let base = rmssdMs * rmssdMs - slowDiffVariance
        let target = max(targetMs * targetMs - slowDiffVariance, 0.04 * base)
        return (target / fast).squareRoot()
    }

    /// c(f) = 1 − cos(2πfT): mean squared successive difference of a unit-amplitude
    /// sinusoid of frequency f (Hz) sampled every T, over its variance × 2.
    @inline(__always)
    static func differenceFactor(_ hz: Double, meanRRMs: Double) -> Double {
        1 - cos(2 * .pi * hz * meanRRMs / 1000)
    }
}

/// Generates beats from `RRComponents`, carrying the oscillators' phases and the slow
/// wander from one recording span to the next.
public struct BeatGenerator: Sendable {
    private var random: SeededRandom
    private var breathPhase: Double
    private var lfPhase: Double
    private var slowMs = 0.0

    public init(random: SeededRandom) {
        var random = random
        breathPhase = random.uniform(0, 2 * .pi)
        lfPhase = random.uniform(0, 2 * .pi)
        self.random = random
    }

    /// Beats from `startS` to `endS` (seconds, any clock). `state(t)` gives the mean
    /// HR (bpm) and the RMSSD (ms) to express at time t. `emit(t, rrMs)` receives each
    /// beat's closing time and its interval, rounded to 1 ms as recorders store it.
    public mutating func run(from startS: Double, to endS: Double, components c: RRComponents,
                             state: (Double) -> (hrBpm: Double, rmssdMs: Double),
                             emit: (Double, Double) -> Void) {
        var t = startS
        let tau = RRComponents.slowTauSeconds
        while true {
            let (hr, rmssd) = state(t)
            let mean = 60_000 / hr
            let g = c.fastScale(rmssdMs: rmssd, meanRRMs: mean)
            let fast = c.rsaMs * sin(breathPhase) + c.lfMs * sin(lfPhase) + c.whiteMs * random.normal()
            let rr = min(2000, max(300, (mean + g * fast + slowMs).rounded()))
            t += rr / 1000
            guard t <= endS else { break }
            emit(t, rr)
            let dt = rr / 1000
            // Breath-to-breath variability: the breathing phase diffuses slightly.
            breathPhase = (breathPhase + 2 * .pi * c.breathingHz * dt + 0.15 * dt.squareRoot() * random.normal())
                .truncatingRemainder(dividingBy: 2 * .pi)
            lfPhase = (lfPhase + 2 * .pi * RRComponents.lfHz * dt + 0.1 * dt.squareRoot() * random.normal())
                .truncatingRemainder(dividingBy: 2 * .pi)
            let rho = exp(-dt / tau)
            slowMs = slowMs * rho + c.slowMs * (1 - rho * rho).squareRoot() * random.normal()
        }
    }
}
