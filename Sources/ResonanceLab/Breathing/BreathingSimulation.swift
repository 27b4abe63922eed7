import Foundation

/// What the closed-loop simulation assumes of a person's heart rate under paced
/// breathing (docs/methods.md, Breathing, "Simulated pacer"). Not registry constants:
/// they describe the simulated world, not a decision of the product.
public struct ResonanceWorldAssumptions: Sendable, Equatable {
    /// Planted resonance rates are drawn uniformly in this range, breaths/min.
    public var plantedRange: ClosedRange<Double> = 4.5...7.0
    /// SD of the Gaussian resonance curve of HR oscillation amplitude against breathing
    /// rate, breaths/min: 0.85 puts half the peak amplitude 1 breath/min either side, the
    /// fall-off of the amplitude curves of Vaschillo et al. 2006 ("Characteristics of
    /// resonance in heart rate variability stimulated by biofeedback", Appl
    /// Psychophysiol Biofeedback 31:129) — an assumption, the paper's curves vary by person.
    public var widthBpm = 0.85
    /// HR half peak-to-trough at resonance per ms of the persona's resting RMSSD, bpm/ms
    /// (RMSSD 40 ms → ±6 bpm, 12 bpm peak-to-trough, typical of resonance breathing).
    public var amplitudePerRMSSD = 0.15
    /// White measurement noise on each 4 Hz HR sample, bpm.
    public var whiteNoiseBpm = 1.0
    /// Slow HR drift: AR(1) with this SD (bpm) and time constant (s).
    public var driftBpm = 1.5
    public var driftSeconds = 30.0

    public init() {}

    public static let standard = ResonanceWorldAssumptions()
}

/// One simulated person: the planted resonance rate and how HR follows the pacer.
public struct ResonanceWorld: Sendable, Equatable {
    public var persona: String
    /// breaths/min; never shown to the pacer.
    public var plantedRateBpm: Double
    /// HR half peak-to-trough at the planted rate, bpm.
    public var peakAmplitudeBpm: Double
    public var baseHRBpm: Double
    public var assumptions: ResonanceWorldAssumptions

    /// HR half peak-to-trough when paced at `rate`, bpm.
    public func amplitude(at rate: Double) -> Double {
        let z = (rate - plantedRateBpm) / assumptions.widthBpm
        return peakAmplitudeBpm * exp(-0.5 * z * z)
    }

    /// The world of `persona` for `seed`: its own stream (djb2 of "breathing", name and
    /// age, mixed with the seed), apart from every stream of the persona generator.
    public static func draw(_ persona: PersonaProfile, seed: UInt64,
                            assumptions a: ResonanceWorldAssumptions = .standard) -> ResonanceWorld {
        var mix = SeededRandom(seed: seed)
        var random = SeededRandom(seed: SeededRandom.djb2("breathing" + persona.name + String(persona.age)) ^ mix.next())
        return ResonanceWorld(persona: persona.name, plantedRateBpm: random.uniform(a.plantedRange.lowerBound, a.plantedRange.upperBound),
                              peakAmplitudeBpm: a.amplitudePerRMSSD * persona.rmssdMs, baseHRBpm: persona.restingHRBpm,
                              assumptions: a)
    }
}

/// Lung volume in [0, 1] at `phase` (fraction of the breath) with the product's timing:
/// inhale `inhale_share` of the cycle less the hold, then the hold, then the exhale,
/// each inhale and exhale a half cosine.
public func lungVolume(phase: Double, constants c: PacerConstants) -> Double {
    let hold = c.holdShare, inhale = (1 - hold) * c.inhaleShare
    if phase < inhale { return 0.5 - 0.5 * cos(.pi * phase / inhale) }
    if phase < inhale + hold { return 1 }
    return 0.5 + 0.5 * cos(.pi * (phase - inhale - hold) / (1 - inhale - hold))
}

/// One simulated session of one strategy: the product's loop every `step_seconds` —
/// a 4 Hz HR sample, the product's coherence at the rate in force, the pacer's update —
/// until `lock_seconds` after the lock.
public struct SimulatedSession: Sendable {
    public var lockedRateBpm: Double
    /// s from the session start.
    public var lockSeconds: Double
    /// Mean product coherence over the locked part.
    public var coherenceReached: Double
    /// The last coherence of the session: what the product's session record stores as
    /// its peak coherence.
    public var lastCoherence: Double
    /// The highest coherence of the session, what that name promises.
    public var maxCoherence: Double
    /// (t s, rate breaths/min, coherence) every second, for figures.
    public var trace: [(Double, Double, Double)]
    /// The exploration's dwells: rate (breaths/min) and score.
    public var dwells: [(rate: Double, score: Double)]
    /// The simulated heart rate at the product's 4 Hz (bpm), and the paced rate in force
    /// at each of those samples (breaths/min).
    public var hr: [Double]
    public var rates: [Double]

    public static func run(_ world: ResonanceWorld, strategy: PacerStrategy, registry: ConstantsRegistry,
                           noise seed: UInt64, noiseless: Bool = false) -> SimulatedSession {
        let c = registry.pacer, a = world.assumptions
        let product = ProductCoherence(coherence: registry.coherence, pacer: c)
        let hz = product.sampleHz, dt = 1 / hz
        // The noise stream depends on the world and seed only, so every strategy meets the same noise.
        var random = SeededRandom(seed: seed)
        let keep = exp(-dt / a.driftSeconds), innovation = a.driftBpm * (1 - keep * keep).squareRoot()
        var pacer = AdaptivePacer(strategy: strategy, constants: c, sampleHz: hz)
        var hr: [Double] = [], phase = 0.0, drift = 0.0, t = 0.0
        var rates: [Double] = [], locked: [Double] = [], trace: [(Double, Double, Double)] = [], last = 0.0, highest = 0.0
        let every = max(1, Int((c.stepSeconds * hz).rounded()))
        var step = 0
        while true {
            let rate = pacer.rate
            let white = random.normal(), shock = random.normal()
            if !noiseless { drift = keep * drift + innovation * shock }
            let wave = 2 * lungVolume(phase: phase, constants: c) - 1
            hr.append(world.baseHRBpm + world.amplitude(at: rate) * wave + drift + (noiseless ? 0 : a.whiteNoiseBpm * white))
            rates.append(rate)
            phase += dt * rate / 60
            phase -= phase.rounded(.down)
            t += dt
            step += 1
            guard step % every == 0 else { continue }
            let score = product.score(hr[...], breathingHz: rate / 60)
            last = score
            highest = max(highest, score)
            if pacer.phase == .lock { locked.append(score) }
            if step % Int(hz) == 0 { trace.append((t, rate, score)) }
            if let at = pacer.lockedAt, t >= at + c.lockSeconds - 1e-9 { break }
            pacer.update(t: t, coherence: score, hr: hr)
        }
        return SimulatedSession(lockedRateBpm: pacer.rate, lockSeconds: pacer.lockedAt ?? t,
                                coherenceReached: locked.isEmpty ? .nan : Stats.mean(locked), lastCoherence: last,
                                maxCoherence: highest, trace: trace, dwells: pacer.dwells, hr: hr, rates: rates)
    }
}
