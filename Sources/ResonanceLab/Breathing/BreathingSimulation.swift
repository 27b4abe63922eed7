import Foundation

/// The shape of a person's resonance curve: HR oscillation amplitude against the paced rate.
public enum ResonanceCurveShape: String, CaseIterable, Sendable {
    /// A Gaussian of SD `widthBpm` around the resonance rate.
    case gaussian
    /// Wider on one side than the other: SD `widthBpm`·k on one side and `widthBpm`/k on
    /// the other, k in `skewRatio`, the wide side drawn per person.
    case skewed
    /// Flat within `plateauHalfWidthBpm` of the resonance rate (the plateau's centre), a
    /// Gaussian fall outside.
    case flat
    /// A second, lower peak `secondPeakOffsetBpm` from the resonance rate (on a side
    /// drawn per person), `secondPeakHeight` of the main one; the amplitude is the larger.
    case double
}

/// What the closed-loop simulation assumes of a person's heart rate under paced
/// breathing (docs/methods.md, Breathing, "Simulated pacer"). Not registry constants:
/// they describe the simulated world, not a decision of the product. The defaults are
/// the standard world; every difficulty is off in it.
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

    /// The shapes people's resonance curves take, one drawn per person (uniformly).
    public var curveShapes: [ResonanceCurveShape] = [.gaussian]
    /// `skewed`: the ratio of the wide side's SD to `widthBpm`, drawn uniformly in it.
    public var skewRatio: ClosedRange<Double> = 1.3...1.8
    /// `flat`: the plateau's half width, breaths/min, drawn uniformly in it.
    public var plateauHalfWidthBpm: ClosedRange<Double> = 0.3...0.6
    /// `double`: the second peak's distance from the first (breaths/min) and its height
    /// as a share of the first, each drawn uniformly in its range.
    public var secondPeakOffsetBpm: ClosedRange<Double> = 1.0...1.8
    public var secondPeakHeight: ClosedRange<Double> = 0.6...0.9
    /// Time constant of the oscillation's build-up after each change of breathing rate, s
    /// (first order; 0 = at once).
    public var buildUpSeconds = 0.0
    /// Adherence: the breathing rate wanders around the pacer's as AR(1) with this SD
    /// (breaths/min; 0 = perfect adherence) and time constant (s).
    public var adherenceSDBpm = 0.0
    public var adherenceSeconds = 20.0
    /// Whether HR lags breathing by a phase that depends on the rate: atan((rate −
    /// resonance)/`widthBpm`) — in phase at resonance, ±45° one width away.
    public var phaseLag = false
    /// A second, slower HR drift on top of the first: AR(1) with this SD (bpm; 0 = none)
    /// and time constant (s).
    public var slowDriftBpm = 0.0
    public var slowDriftSeconds = 120.0
    /// Ectopic beats per minute (0 = none): each a premature beat after `ectopicCoupling`
    /// of the R-R interval, then a compensatory pause to two whole intervals.
    public var ectopicPerMin = 0.0
    public var ectopicCoupling = 0.65

    public init() {}

    public static let standard = ResonanceWorldAssumptions()
}

/// The simulated worlds of `breathing simulate --world` (docs/methods.md, Breathing,
/// "Simulated breathers"): the standard world and one world per difficulty of real paced
/// breathing, each difficulty drawn on its own random stream, and `all` of them at once.
public enum BreathingWorld: String, CaseIterable, Sendable {
    case standard, transient, adherence
    case phaseLag = "phase_lag"
    case skewed, flat
    case doublePeak = "double_peak"
    case driftEctopic = "drift_ectopic"
    case outside, all

    /// The world's assumptions; the sizes and their sources are in docs/methods.md.
    public var assumptions: ResonanceWorldAssumptions {
        var a = ResonanceWorldAssumptions.standard
        let every = self == .all
        // Build-up over several breaths: the baroreflex resonance of Vaschillo et al. 2002
        // (Appl Psychophysiol Biofeedback 27:1) is a delayed feedback loop whose
        // oscillation needs a few cycles to grow; Lehrer et al. 2000 hold each trial 2 min
        // for it. 20 s: 95 % of the new amplitude after 60 s, 6 breaths at 6/min.
        if every || self == .transient { a.buildUpSeconds = 20 }
        // Adherence: an assumption — breathing within about ±0.5/min of the pacer most of
        // the time, the tolerance assessment protocols accept (Shaffer & Meehan 2020,
        // Front Neurosci 14:570400, check the breathing rate against the pacer).
        if every || self == .adherence { a.adherenceSDBpm = 0.3 }
        // HR and respiration in phase at resonance, the phase shifting away from it
        // (Vaschillo et al. 2002; 2006).
        if every || self == .phaseLag { a.phaseLag = true }
        // Curve shapes: the individual curves of Vaschillo et al. 2006 are not Gaussian —
        // asymmetric, broad, some with two maxima.
        switch self {
        case .skewed: a.curveShapes = [.skewed]
        case .flat: a.curveShapes = [.flat]
        case .doublePeak: a.curveShapes = [.double]
        case .all: a.curveShapes = [.skewed, .flat, .double]
        default: break
        }
        // Slow drift: HR settles by several bpm over minutes of a session (posture,
        // arousal) — an assumption, 3 bpm SD over 2 min; ectopic beats: 0.5/min (30/h),
        // the bound of "frequent" ectopy (Lown grading), the premature-then-compensatory
        // shape of Lipponen & Tarvainen 2019 (J Med Eng Technol 43:173).
        if every || self == .driftEctopic { a.slowDriftBpm = 3; a.ectopicPerMin = 0.5 }
        // Resonance outside 4.5–7/min: Lehrer et al. 2000 and Vaschillo et al. 2006 find
        // most adults within 4.5–7, some below (tall people) and above; 3.5–8 puts 44 %
        // of people outside the range the pacer explores.
        if every || self == .outside { a.plantedRange = 3.5...8.0 }
        return a
    }
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
    public var shape: ResonanceCurveShape = .gaussian
    /// The shape's drawn parameter: the skew ratio k (negative: wide below the
    /// resonance), the plateau half width (breaths/min) or the second peak's signed offset
    /// (breaths/min); 0 for a Gaussian.
    public var shapeParameter = 0.0
    /// `double`: the second peak's height as a share of the first.
    public var secondHeight = 0.0

    /// HR half peak-to-trough when paced at `rate`, bpm.
    public func amplitude(at rate: Double) -> Double {
        let w = assumptions.widthBpm, d = rate - plantedRateBpm
        func gauss(_ x: Double, _ sd: Double) -> Double { exp(-0.5 * (x / sd) * (x / sd)) }
        switch shape {
        case .gaussian:
            return peakAmplitudeBpm * gauss(d, w)
        case .skewed:
            let k = abs(shapeParameter), wideAbove = shapeParameter > 0
            return peakAmplitudeBpm * gauss(d, (d > 0) == wideAbove ? w * k : w / k)
        case .flat:
            return peakAmplitudeBpm * gauss(max(0, abs(d) - shapeParameter), w)
        case .double:
            return peakAmplitudeBpm * max(gauss(d, w), secondHeight * gauss(d - shapeParameter, w))
        }
    }

    /// The rates of peak amplitude, breaths/min: a flat curve's plateau, else the planted rate.
    public var peakRates: ClosedRange<Double> {
        shape == .flat ? (plantedRateBpm - shapeParameter)...(plantedRateBpm + shapeParameter) : plantedRateBpm...plantedRateBpm
    }

    /// A locked rate's error, breaths/min: its signed distance to the nearest rate of peak
    /// amplitude (`peakRates`) — locked − planted, and 0 anywhere on a flat curve's
    /// plateau, so that no lock on the plateau counts as better than another.
    public func error(locked rate: Double) -> Double {
        let peak = peakRates
        return rate < peak.lowerBound ? rate - peak.lowerBound : rate > peak.upperBound ? rate - peak.upperBound : 0
    }

    /// HR's phase lag behind breathing at `rate`, fraction of a breath.
    public func phaseLag(at rate: Double) -> Double {
        assumptions.phaseLag ? atan((rate - plantedRateBpm) / assumptions.widthBpm) / (2 * .pi) : 0
    }

    /// The world of `persona` for `seed`: its own stream (djb2 of "breathing", name and
    /// age, mixed with the seed), apart from every stream of the persona generator; the
    /// curve's shape from a stream of its own ("breathing shape"), drawn only when the
    /// world has shapes other than the Gaussian.
    public static func draw(_ persona: PersonaProfile, seed: UInt64,
                            assumptions a: ResonanceWorldAssumptions = .standard) -> ResonanceWorld {
        var mix = SeededRandom(seed: seed)
        let mixed = mix.next()
        var random = SeededRandom(seed: SeededRandom.djb2("breathing" + persona.name + String(persona.age)) ^ mixed)
        var world = ResonanceWorld(persona: persona.name, plantedRateBpm: random.uniform(a.plantedRange.lowerBound, a.plantedRange.upperBound),
                                   peakAmplitudeBpm: a.amplitudePerRMSSD * persona.rmssdMs, baseHRBpm: persona.restingHRBpm,
                                   assumptions: a)
        guard a.curveShapes != [.gaussian], !a.curveShapes.isEmpty else { return world }
        var shapes = SeededRandom(seed: SeededRandom.djb2("breathing shape" + persona.name + String(persona.age)) ^ mixed)
        world.shape = a.curveShapes[min(a.curveShapes.count - 1, Int(shapes.uniform() * Double(a.curveShapes.count)))]
        let side = shapes.uniform() < 0.5 ? -1.0 : 1.0
        switch world.shape {
        case .gaussian: break
        case .skewed: world.shapeParameter = side * shapes.uniform(a.skewRatio.lowerBound, a.skewRatio.upperBound)
        case .flat: world.shapeParameter = shapes.uniform(a.plateauHalfWidthBpm.lowerBound, a.plateauHalfWidthBpm.upperBound)
        case .double:
            world.shapeParameter = side * shapes.uniform(a.secondPeakOffsetBpm.lowerBound, a.secondPeakOffsetBpm.upperBound)
            world.secondHeight = shapes.uniform(a.secondPeakHeight.lowerBound, a.secondPeakHeight.upperBound)
        }
        return world
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
        // Each difficulty of real breathing draws from a stream of its own, only when on.
        var wanderRandom = SeededRandom(seed: seed ^ SeededRandom.djb2("breathing adherence"))
        var slowRandom = SeededRandom(seed: seed ^ SeededRandom.djb2("breathing slow drift"))
        var ectopicRandom = SeededRandom(seed: seed ^ SeededRandom.djb2("breathing ectopic"))
        let keepWander = exp(-dt / a.adherenceSeconds), keepSlow = exp(-dt / a.slowDriftSeconds)
        let buildUp = a.buildUpSeconds > 0 ? 1 - exp(-dt / a.buildUpSeconds) : nil
        let ectopicChance = a.ectopicPerMin / 60 * dt
        var pacer = AdaptivePacer(strategy: strategy, constants: c, sampleHz: hz)
        var hr: [Double] = [], phase = 0.0, drift = 0.0, t = 0.0
        var wander = 0.0, slow = 0.0, amplitude = world.amplitude(at: pacer.rate)
        // An ectopic beat in progress: samples left of the premature beat, then of the pause.
        var premature = 0, pause = 0
        var rates: [Double] = [], locked: [Double] = [], trace: [(Double, Double, Double)] = [], last = 0.0, highest = 0.0
        let every = max(1, Int((c.stepSeconds * hz).rounded()))
        var step = 0
        while true {
            let rate = pacer.rate
            let white = random.normal(), shock = random.normal()
            if !noiseless { drift = keep * drift + innovation * shock }
            if a.adherenceSDBpm > 0, !noiseless {
                wander = keepWander * wander + a.adherenceSDBpm * (1 - keepWander * keepWander).squareRoot() * wanderRandom.normal()
            }
            if a.slowDriftBpm > 0, !noiseless {
                slow = keepSlow * slow + a.slowDriftBpm * (1 - keepSlow * keepSlow).squareRoot() * slowRandom.normal()
            }
            let breathing = max(1, rate + wander)
            let target = world.amplitude(at: breathing)
            amplitude = buildUp.map { amplitude + $0 * (target - amplitude) } ?? target
            var lagged = phase - world.phaseLag(at: breathing)
            lagged -= lagged.rounded(.down)
            let wave = 2 * lungVolume(phase: lagged, constants: c) - 1
            var value = world.baseHRBpm + amplitude * wave + drift + slow + (noiseless ? 0 : a.whiteNoiseBpm * white)
            if a.ectopicPerMin > 0, !noiseless {
                if premature == 0, pause == 0, ectopicRandom.uniform() < ectopicChance {
                    let beatSamples = 60 / max(value, 20) * hz
                    premature = max(1, Int((a.ectopicCoupling * beatSamples).rounded()))
                    pause = max(1, Int(((2 - a.ectopicCoupling) * beatSamples).rounded()))
                }
                if premature > 0 {
                    value /= a.ectopicCoupling
                    premature -= 1
                } else if pause > 0 {
                    value /= 2 - a.ectopicCoupling
                    pause -= 1
                }
            }
            hr.append(value)
            rates.append(rate)
            phase += dt * breathing / 60
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
