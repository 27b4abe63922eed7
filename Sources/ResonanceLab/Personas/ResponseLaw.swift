import Foundation

/// The time course of one listener's response to a play, in units of its plateau:
/// onset u seconds after the play starts
///
///     f(u) = 0                                             u ≤ θ
///     f(u) = (1 − e^{−(u−θ)/τon})·(1 + o·e^{−(u−θ)/τadapt})  u > θ
///
/// (θ an exposure threshold, o an overshoot that adapts back with τadapt), and after
/// the play ends the value reached decays with τoff. The standard law is θ = 0, o = 0,
/// τon = 45 s, τoff = 6 s (`MusicResponse`).
public struct ResponseShape: Sendable, Equatable {
    public var onsetS: Double
    public var releaseS: Double
    public var thresholdS: Double
    public var overshoot: Double
    public var adaptS: Double

    public init(onsetS: Double, releaseS: Double, thresholdS: Double = 0, overshoot: Double = 0, adaptS: Double = 60) {
        self.onsetS = onsetS; self.releaseS = releaseS; self.thresholdS = thresholdS
        self.overshoot = overshoot; self.adaptS = adaptS
    }

    public static let standard = ResponseShape(onsetS: MusicResponse.onsetSeconds, releaseS: MusicResponse.releaseSeconds)

    /// f(u): the response u seconds into a play, as a fraction of the plateau. With
    /// θ = 0 and o = 0 this is exactly 1 − e^{−u/τon}.
    @inline(__always)
    public func onset(_ u: Double) -> Double {
        let v = u - thresholdS
        guard v > 0 else { return 0 }
        let rise = 1 - exp(-v / onsetS)
        return overshoot == 0 ? rise : rise * (1 + overshoot * exp(-v / adaptS))
    }

    /// Fraction of the plateau seen by the HR delta of a play `d` seconds long: the
    /// closed form of `MusicResponse` for the standard shape; otherwise the same
    /// window-midpoint rule, f(d − 17.5) − f(12.5) (5-s samples report the response
    /// 2.5 s earlier; the median of a 30-s window is its middle sample's value).
    public func expressionHR(seconds d: Double) -> Double {
        guard d >= 30 else { return 0 }
        guard self != .standard else {
            return exp(-12.5 / onsetS) - exp(-(d - 17.5) / onsetS)
        }
        return onset(d - 17.5) - onset(12.5)
    }

    /// Fraction of the plateau seen by the RMSSD delta of a play `d` seconds long: the
    /// mean of f over the last 60 s minus its mean over the first 60 s (closed form for
    /// the standard shape, else the midpoint rule in 0.25-s steps).
    public func expressionRMSSD(seconds d: Double) -> Double {
        guard d >= 60 else { return 0 }
        guard self != .standard else {
            return onsetS / 60 * (1 - exp(-60 / onsetS)) * (1 - exp(-(d - 60) / onsetS))
        }
        let step = 0.25, n = Int(60 / step)
        var first = 0.0, last = 0.0
        for k in 0..<n {
            let u = (Double(k) + 0.5) * step
            first += onset(u); last += onset(d - 60 + u)
        }
        return (last - first) / Double(n)
    }
}

/// An alternative law of how listeners respond to music, so that the effects models
/// can be tried on a world they do not assume (docs/personas.md, Response laws). Every
/// law keeps the meaning of the truth: a song's `song_effect` is the expected measured
/// change of a full-length play at sensitivity 1, averaged over the study.
public struct ResponseLaw: Sendable, Equatable {
    public enum Name: String, CaseIterable, Sendable {
        case standard
        case fastOnset = "fast-onset"
        case slowOnset = "slow-onset"
        case longRelease = "long-release"
        case threshold
        case overshoot
        case drift
        case interaction
        case noisy
    }

    public enum Strength: String, CaseIterable, Sendable {
        case moderate, severe
    }

    public var name: Name
    public var strength: Strength
    /// Mean onset and release time constants (s), spread across listeners as
    /// τ·e^{spread·z}, z ~ N(0, 1), on the law's own parameter (onset, release or threshold).
    public var onsetS = MusicResponse.onsetSeconds
    public var releaseS = MusicResponse.releaseSeconds
    public var thresholdS = 0.0
    public var spread = 0.0
    /// Shortest onset time constant (s) a listener realises: below it more than half of
    /// the rise falls inside the first 30-s window, and a full play's measured change
    /// would call for plateaus several times the song's effect (docs/personas.md).
    public var minOnsetS = 15.0
    /// Longest exposure threshold (s) a listener realises: the shortest catalogue song
    /// (120 s) then still shows 61 % of the plateau in its HR change; beyond it a song
    /// shorter than θ + 17.5 s would show none, and calibrating its plateau to the
    /// song's effect would divide by zero (docs/personas.md).
    public var maxThresholdS = 60.0
    /// Overshoot o and its adaptation time constant (s).
    public var overshoot = 0.0
    public var adaptS = 60.0
    /// Largest drift of a song's effect: each song's effect moves linearly over the
    /// study from (1 − a) to (1 + a) times its study average, a ~ U(−drift, drift).
    public var drift = 0.0
    /// SD of the listener × song interaction, as a fraction of the SD of song effects
    /// within a genre (3.5 bpm, 3.2 ms).
    public var interaction = 0.0
    /// Per-play disturbance of the measured change: Student t with `noiseDF` degrees of
    /// freedom scaled by `noiseHRBpm` / `noiseRMSSDMs` times a listener and a session
    /// factor (heteroscedastic); motion-artifact bursts per hour of listening.
    public var noiseHRBpm = 0.0
    public var noiseRMSSDMs = 0.0
    public var noiseDF = 0.0
    public var burstsPerHour = 0.0

    /// The law `name` at `strength` (the parameters of docs/personas.md).
    public init(_ name: Name, strength: Strength = .moderate) {
        self.name = name; self.strength = strength
        let severe = strength == .severe
        switch name {
        case .standard: break
        case .fastOnset: onsetS = severe ? 20 : 30; spread = severe ? 0.5 : 0.25
        case .slowOnset: onsetS = severe ? 120 : 80; spread = severe ? 0.5 : 0.25
        case .longRelease: releaseS = severe ? 60 : 30; spread = severe ? 0.5 : 0.25
        case .threshold: thresholdS = severe ? 40 : 15; spread = severe ? 0.5 : 0.25
        case .overshoot: overshoot = severe ? 1 : 0.5
        case .drift: drift = severe ? 0.5 : 0.25
        case .interaction: interaction = severe ? 0.5 : 0.25
        case .noisy:
            noiseHRBpm = severe ? 2 : 1; noiseRMSSDMs = severe ? 4 : 2; noiseDF = severe ? 3 : 5
            burstsPerHour = severe ? 4 : 1
        }
    }

    public var isStandard: Bool { name == .standard }

    /// Name and strength as written to lineage and truth.csv: `drift/severe`.
    public var label: String { "\(name.rawValue)/\(strength.rawValue)" }

    /// The law's parameters (name, value) in a fixed order: written to truth.csv.
    public var parameters: [(String, Double)] {
        [("onset_s", onsetS), ("min_onset_s", minOnsetS), ("release_s", releaseS), ("threshold_s", thresholdS), ("max_threshold_s", maxThresholdS), ("spread_ln", spread),
         ("overshoot", overshoot), ("adapt_s", adaptS), ("drift_fraction", drift), ("interaction_fraction", interaction),
         ("noise_hr_bpm", noiseHRBpm), ("noise_rmssd_ms", noiseRMSSDMs), ("noise_df", noiseDF),
         ("bursts_per_hour", burstsPerHour)]
    }

    /// SD of song effects within a genre (bpm, ms): the scale of interactions.
    static let songSD = (hr: 3.5, rmssd: 3.2)
    /// Motion-artifact burst: length (s) and the HR (bpm) and RMSSD (ms) it adds, uniform in these ranges.
    static let burstSeconds = 5.0...20.0
    static let burstHRBpm = 10.0...30.0
    static let burstRMSSDMs = 20.0...60.0

    /// Each catalogue song's drift a (same order), from the catalogue's law stream.
    public func driftSlopes(count: Int, random: inout SeededRandom) -> [Double] {
        guard drift > 0 else { return [Double](repeating: 0, count: count) }
        return (0..<count).map { _ in random.uniform(-drift, drift) }
    }

    /// The law as one listener realises it, drawn from the persona's law stream.
    func listener(songs: Int, drift: [Double], studyStartS: Double, studyLengthS: Double,
                  random: inout SeededRandom) -> ListenerLaw {
        var shape = ResponseShape(onsetS: onsetS, releaseS: releaseS, thresholdS: thresholdS, overshoot: overshoot, adaptS: adaptS)
        if isStandard { shape = .standard }
        if spread > 0 {
            let factor = exp(spread * random.normal())
            switch name {
            case .longRelease: shape.releaseS *= factor
            case .threshold: shape.thresholdS = min(maxThresholdS, shape.thresholdS * factor)
            default: shape.onsetS = max(minOnsetS, shape.onsetS * factor)
            }
        }
        var interactions: [(hr: Double, rmssd: Double)] = []
        if interaction > 0 {
            interactions = (0..<songs).map { _ in
                (random.normal() * interaction * Self.songSD.hr, random.normal() * interaction * Self.songSD.rmssd)
            }
        }
        let noiseScale = noiseDF > 0 ? exp(0.4 * random.normal()) : 0
        return ListenerLaw(law: self, shape: shape, drift: drift, interactions: interactions, noiseScale: noiseScale,
                           studyStartS: studyStartS, studyLengthS: studyLengthS)
    }

    /// Student t with ν degrees of freedom: z / √(χ²_ν/ν), χ² by summing ⌊ν⌋ squared
    /// normals (ν is a whole number here).
    static func studentT(_ df: Double, random: inout SeededRandom) -> Double {
        let z = random.normal()
        var chi2 = 0.0
        for _ in 0..<Int(df) { let x = random.normal(); chi2 += x * x }
        return z / (chi2 / df).squareRoot()
    }
}

/// A disturbance added to the simulated HR (bpm) and RMSSD (ms) from `startS` to
/// `endS`: a ramp from 0 to its value over a play (per-play noise of the measured
/// change) or a constant step (a motion-artifact burst).
struct Disturbance: Sendable, Equatable {
    var startS: Double
    var endS: Double
    var hrBpm: Double
    var rmssdMs: Double
    var ramp: Bool

    @inline(__always)
    func value(at t: Double) -> (hrBpm: Double, rmssdMs: Double) {
        guard t > startS, t <= endS else { return (0, 0) }
        let f = ramp ? (t - startS) / (endS - startS) : 1
        return (hrBpm * f, rmssdMs * f)
    }
}

/// One listener's realisation of a `ResponseLaw`.
struct ListenerLaw: Sendable {
    var law: ResponseLaw
    var shape: ResponseShape
    /// Drift a of each catalogue song, and each song's interaction with this listener.
    var drift: [Double]
    var interactions: [(hr: Double, rmssd: Double)]
    /// The listener's noise factor (heteroscedastic noise), 0 without noise.
    var noiseScale: Double
    var studyStartS: Double
    var studyLengthS: Double

    /// The standard law: the planted effect is song effect × sensitivity.
    static let standard = ListenerLaw(law: ResponseLaw(.standard), shape: .standard, drift: [], interactions: [], noiseScale: 0,
                    studyStartS: 0, studyLengthS: 1)

    /// Effect (ΔHR bpm, ΔRMSSD ms) of song `index` on this listener for a play
    /// starting at `startS`: song effect × (1 + a·(2t/T − 1)) × sensitivity +
    /// interaction, t the time since the study's start.
    func effect(_ song: CatalogueSong, index: Int, sensitivity: Double, startS: Double) -> (hrBpm: Double, rmssdMs: Double) {
        guard !law.isStandard else { return (song.deltaHRBpm * sensitivity, song.deltaRMSSDMs * sensitivity) }
        var hr = song.deltaHRBpm * sensitivity, rmssd = song.deltaRMSSDMs * sensitivity
        if index < drift.count, drift[index] != 0 {
            let m = 1 + drift[index] * (2 * (startS - studyStartS) / studyLengthS - 1)
            hr *= m; rmssd *= m
        }
        if index < interactions.count { hr += interactions[index].hr; rmssd += interactions[index].rmssd }
        return (hr, rmssd)
    }

    /// The disturbances of one session (`noisy` law; none otherwise): per play a ramp
    /// of scale × t_ν (scale = law noise × listener factor × session factor e^{0.4·z}),
    /// and Poisson motion-artifact bursts.
    func disturbances(_ session: ListeningSession, random: inout SeededRandom) -> [Disturbance] {
        guard law.noiseDF > 0 else { return [] }
        var out: [Disturbance] = []
        let sessionScale = noiseScale * exp(0.4 * random.normal())
        for play in session.responses {
            let s = play.startS, e = play.endS
            guard e > s else { continue }
            let hr = law.noiseHRBpm * sessionScale * ResponseLaw.studentT(law.noiseDF, random: &random)
            let rmssd = law.noiseRMSSDMs * sessionScale * ResponseLaw.studentT(law.noiseDF, random: &random)
            out.append(Disturbance(startS: s, endS: e, hrBpm: hr, rmssdMs: rmssd, ramp: true))
        }
        let startS = Double(session.startMs) / 1000, endS = Double(session.endMs) / 1000
        // Poisson arrivals: exponential gaps at the law's rate.
        var t = startS
        while law.burstsPerHour > 0 {
            t += -log(max(random.uniform(), 1e-300)) * 3600 / law.burstsPerHour
            guard t < endS else { break }
            let length = random.uniform(ResponseLaw.burstSeconds.lowerBound, ResponseLaw.burstSeconds.upperBound)
            out.append(Disturbance(startS: t, endS: t + length,
                                   hrBpm: random.uniform(ResponseLaw.burstHRBpm.lowerBound, ResponseLaw.burstHRBpm.upperBound),
                                   rmssdMs: random.uniform(ResponseLaw.burstRMSSDMs.lowerBound, ResponseLaw.burstRMSSDMs.upperBound),
                                   ramp: false))
        }
        return out
    }
}
