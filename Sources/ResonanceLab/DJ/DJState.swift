import Foundation

/// One timed measurement the state engine reads: a heart-rate sample (bpm, with its
/// quality 0–1) or an SDNN sample (ms, quality 1).
public struct TimedSample: Sendable, Equatable {
    /// Epoch milliseconds.
    public var tMs: Int64
    public var value: Double
    public var quality: Double

    public init(tMs: Int64, value: Double, quality: Double = 1) {
        self.tMs = tMs; self.value = value; self.quality = quality
    }
}

/// The listener's activity context as the DJ sees it (docs/engines/dj.md, DJ context and need): the
/// sessions' clock contexts plus the product's post-workout and deep-work contexts.
public enum DJContext: String, CaseIterable, Sendable {
    case workout, postWorkout, deepWork, morning, commute, work, relaxation, preSleep
}

/// The product's music needs, in the order the BPM ranges are listed.
public enum MusicNeed: String, CaseIterable, Sendable {
    case energize, calm, focus, maintain, transition
}

/// Which state calculation: the specification's state estimation with trends, sample
/// confidences and the need rules in full (`specification`), or its simpler reference
/// implementation (`reference`: latest samples with HR 72 / SDNN 50 ms when none is
/// recent, no trend terms, 0.5 confidence per source, need order workout → stress →
/// deep work → maintain).
public enum StateVariant: String, CaseIterable, Sendable {
    case specification, reference
}

/// The personal values the state engine normalises by, from the listener's own history
/// (`PersonalBaseline.from`) or the specification's fallbacks.
public struct PersonalBaseline: Sendable, Equatable {
    public var restingHRBpm: Double
    public var sdnnMs: Double
    public var age: Double

    public init(restingHRBpm: Double, sdnnMs: Double, age: Double) {
        self.restingHRBpm = restingHRBpm; self.sdnnMs = sdnnMs; self.age = age
    }

    /// The fallbacks (resting HR 60 bpm, SDNN 50 ms, age 30).
    public static func fallback(_ c: StateConstants) -> PersonalBaseline {
        PersonalBaseline(restingHRBpm: c.fallbackRestingHR, sdnnMs: c.fallbackSDNNBaseline, age: c.fallbackAge)
    }

    /// The rule for a subject's own baselines (docs/engines/dj.md, State): per earlier day
    /// its `resting_hr_quantile` HR sample and its median SDNN sample; the baseline is the
    /// median over the last `baseline_days` such days, each value once `baseline_min_days`
    /// days have one, else its fallback. `age` nil is the fallback age.
    public static func from(dailyRestingHR: [Double], dailySDNN: [Double], age: Double?, constants c: StateConstants) -> PersonalBaseline {
        let days = Int(c.baselineDays), minDays = Int(c.baselineMinDays)
        let hr = dailyRestingHR.suffix(days), sdnn = dailySDNN.suffix(days)
        return PersonalBaseline(
            restingHRBpm: hr.count >= minDays ? Stats.median(Array(hr)) : c.fallbackRestingHR,
            sdnnMs: sdnn.count >= minDays ? Stats.median(Array(sdnn)) : c.fallbackSDNNBaseline,
            age: age ?? c.fallbackAge)
    }
}

/// The state vector at one instant (product specification, state vector): every
/// dimension in [0, 1], with the context, the inferred need and the confidences.
public struct DJState: Sendable, Equatable {
    public var tMs: Int64
    public var arousal: Double
    public var stress: Double
    public var energy: Double
    public var focus: Double
    public var valence: Double
    public var arousalConfidence: Double
    public var stressConfidence: Double
    public var confidence: Double
    public var context: DJContext
    public var need: MusicNeed
    /// Samples in the HR and SDNN windows.
    public var hrSamples: Int
    public var sdnnSamples: Int
}

/// The AI DJ's state engine (docs/engines/dj.md, State), evaluated at any instant from
/// the samples before it; the DJ runs it every `step_seconds`.
public struct DJStateEngine: Sendable {
    public let constants: StateConstants
    public let variant: StateVariant

    public init(constants: StateConstants = .defaults, variant: StateVariant = .specification) {
        self.constants = constants; self.variant = variant
    }

    private var c: StateConstants { constants }

    /// Least-squares slope of `samples` in value units per minute (0 for fewer than 2
    /// distinct times).
    public static func slopePerMinute(_ samples: ArraySlice<TimedSample>) -> Double {
        guard samples.count >= 2, let t0 = samples.first?.tMs else { return 0 }
        let n = Double(samples.count)
        var sx = 0.0, sy = 0.0
        for s in samples { sx += Double(s.tMs - t0) / 60_000; sy += s.value }
        let mx = sx / n, my = sy / n
        var sxx = 0.0, sxy = 0.0
        for s in samples {
            let dx = Double(s.tMs - t0) / 60_000 - mx
            sxx += dx * dx; sxy += dx * (s.value - my)
        }
        return sxx > 0 ? sxy / sxx : 0
    }

    /// The samples of `series` (sorted by time) with `now − window < t ≤ now`.
    public static func window(_ series: [TimedSample], endingAt now: Int64, seconds: Double) -> ArraySlice<TimedSample> {
        let from = now - Int64(seconds * 1000)
        let hi = upperBound(series, now), lo = upperBound(series, from)
        return series[lo..<max(lo, hi)]
    }

    /// First index whose time is > `t`.
    static func upperBound(_ series: [TimedSample], _ t: Int64) -> Int {
        var lo = 0, hi = series.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if series[mid].tMs <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Arousal and its confidence from the HR window (product specification, input
    /// processing): (HR − rest)/(max − rest) clamped to [0, 1], max = 220 − age; plus
    /// `hr_trend_weight` × the HR slope (bpm/min) with ≥ `trend_min_samples` samples,
    /// clamped again; confidence min(1, n/10) × mean quality. Empty: 0.5, confidence 0.
    public func arousal(_ hr: ArraySlice<TimedSample>, baseline b: PersonalBaseline) -> (value: Double, confidence: Double) {
        guard let last = hr.last else {
            return variant == .reference ? (referenceArousal(c.referenceEmptyHR, b), 0) : (c.emptyArousal, 0)
        }
        if variant == .reference { return (referenceArousal(last.value, b), c.referenceSourceConfidence) }
        let maxHR = c.maxHRIntercept - c.maxHRAgeSlope * b.age
        var a = maxHR > b.restingHRBpm ? clamp((last.value - b.restingHRBpm) / (maxHR - b.restingHRBpm), 0...1) : c.emptyArousal
        if Double(hr.count) >= c.trendMinSamples {
            a = clamp(a + c.hrTrendWeight * Self.slopePerMinute(hr), 0...1)
        }
        let quality = hr.reduce(0) { $0 + $1.quality } / Double(hr.count)
        return (a, min(1, Double(hr.count) / c.hrFullSamples) * quality)
    }

    private func referenceArousal(_ hr: Double, _ b: PersonalBaseline) -> Double {
        let maxHR = c.maxHRIntercept - c.maxHRAgeSlope * b.age
        return maxHR > b.restingHRBpm ? clamp((hr - b.restingHRBpm) / (maxHR - b.restingHRBpm), 0...1) : c.emptyArousal
    }

    /// Momentary stress and its confidence (product specification, HRV to stress):
    /// 1 − 0.6 × SDNN/baseline clamped to [0, 1], where SDNN is `beatSDNNMs` (the SDNN of
    /// the window's R-R, when beats exist) else the latest SDNN sample; minus
    /// `hrv_trend_weight` × the SDNN slope (ms/min) with ≥ 3 samples, clamped again;
    /// confidence min(1, n/5), n the SDNN samples of the window (0 when only beats
    /// exist; in the reference variant 0.5 with a recent SDNN sample, else 0). Empty:
    /// 0.5, confidence 0.
    public func stress(_ sdnn: ArraySlice<TimedSample>, beatSDNNMs: Double? = nil,
                       baseline b: PersonalBaseline) -> (value: Double, confidence: Double) {
        func map(_ v: Double) -> Double { b.sdnnMs > 0 ? clamp(1 - c.hrvStressSlope * v / b.sdnnMs, 0...1) : c.emptyStress }
        if variant == .reference {
            guard let v = beatSDNNMs ?? sdnn.last?.value else { return (map(c.referenceEmptySDNN), 0) }
            return (map(v), sdnn.isEmpty ? 0 : c.referenceSourceConfidence)
        }
        guard let current = beatSDNNMs ?? sdnn.last?.value else { return (c.emptyStress, 0) }
        var s = map(current)
        if Double(sdnn.count) >= c.trendMinSamples {
            s = clamp(s - c.hrvTrendWeight * Self.slopePerMinute(sdnn), 0...1)
        }
        return (s, min(1, Double(sdnn.count) / c.hrvFullSamples))
    }

    /// The state vector at `now` (product specification, state synthesis): energy =
    /// 0.6·arousal + 0.4·(1 − stress), blended `energy_pattern_weight` toward
    /// `usualEnergy` (the listener's usual energy for the weekday and hour, when it
    /// exists); focus and valence by context; the need by `need(…)`. `previous` is the
    /// state of the previous decision, for the transition need.
    public func state(at now: Int64, hr: [TimedSample], sdnn: [TimedSample], beatSDNNMs: Double? = nil,
                      baseline: PersonalBaseline, context: DJContext, usualEnergy: Double? = nil,
                      previous: DJState? = nil) -> DJState {
        let hrWindow = Self.window(hr, endingAt: now, seconds: c.hrWindowSeconds)
        let sdnnWindow = Self.window(sdnn, endingAt: now, seconds: c.hrvWindowSeconds)
        var baseline = baseline, beatSDNNMs = beatSDNNMs
        if c.inputMethod.rounded() == 1, let latest = hrWindow.last?.value {
            // Personal rolling reference: the same formulas on other inputs. Resting HR is the
            // median of the HR samples before the HR window; the HRV/baseline ratio is the
            // heart-period ratio (reference / latest HR): 1 at the reference, as SDNN/baseline is.
            let reference = Self.window(hr, endingAt: now - Int64(c.hrWindowSeconds * 1000), seconds: c.personalReferenceMinutes * 60)
            if Double(reference.count) >= c.personalMinSamples, latest > 0 {
                baseline.restingHRBpm = Stats.median(reference.map(\.value))
                beatSDNNMs = baseline.sdnnMs * baseline.restingHRBpm / latest
            }
        }
        let a = arousal(hrWindow, baseline: baseline)
        let s = stress(sdnnWindow, beatSDNNMs: beatSDNNMs, baseline: baseline)
        var energy = c.energyArousalWeight * a.value + c.energyCalmWeight * (1 - s.value)
        if variant == .specification, let usualEnergy {
            energy = (1 - c.energyPatternWeight) * energy + c.energyPatternWeight * usualEnergy
        }
        let focus: Double
        switch context {
        case .deepWork: focus = c.deepWorkFocus - c.deepWorkFocusStressSlope * s.value
        case .workout: focus = c.workoutFocus
        default:
            let bonus = variant == .specification && a.value < c.lowArousalThreshold ? c.lowArousalFocusBonus : 0
            focus = c.baseFocus - c.focusStressSlope * s.value + bonus
        }
        var state = DJState(tMs: now, arousal: a.value, stress: s.value, energy: energy, focus: focus,
                            valence: c.valenceBase - c.valenceStressSlope * s.value,
                            arousalConfidence: a.confidence, stressConfidence: s.confidence,
                            confidence: variant == .reference ? a.confidence + s.confidence : (a.confidence + s.confidence) / 2,
                            context: context, need: .maintain, hrSamples: hrWindow.count, sdnnSamples: sdnnWindow.count)
        state.need = need(state, previous: previous)
        return state
    }

    /// The music need (product specification, need inference). Specification order:
    /// workout → energize below 0.5 energy, else maintain; post-workout and pre-sleep →
    /// calm; deep work → focus; stress > 0.7 → calm; energy < 0.3 and arousal < 0.4 →
    /// energize; focus > 0.6 at work → focus; a significant change since `previous` →
    /// transition; else maintain. Reference order: workout with energy < 0.5 →
    /// energize; stress > 0.7 → calm; deep work → focus; else maintain.
    public func need(_ s: DJState, previous: DJState?) -> MusicNeed {
        if variant == .reference {
            if s.context == .workout && s.energy < c.workoutEnergizeBelow { return .energize }
            if s.stress > c.calmStressAbove { return .calm }
            return s.context == .deepWork ? .focus : .maintain
        }
        switch s.context {
        case .workout: return s.energy < c.workoutEnergizeBelow ? .energize : .maintain
        case .postWorkout, .preSleep: return .calm
        case .deepWork: return .focus
        default: break
        }
        if s.stress > c.calmStressAbove { return .calm }
        if s.energy < c.energizeEnergyBelow && s.arousal < c.energizeArousalBelow { return .energize }
        if s.focus > c.focusAbove && s.context == .work { return .focus }
        if let p = previous, significantChange(from: p, to: s) { return .transition }
        return .maintain
    }

    /// Energy or stress moved by ≥ `significant_change` since a state at most
    /// `significant_change_minutes` earlier.
    public func significantChange(from p: DJState, to s: DJState) -> Bool {
        guard s.tMs - p.tMs <= Int64(c.significantChangeMinutes * 60_000) else { return false }
        return max(abs(s.energy - p.energy), abs(s.stress - p.stress)) >= c.significantChange
    }

    /// The context at `now` (docs/engines/dj.md, DJ context and need): a workout in progress →
    /// workout; one ended within `post_workout_minutes` → post-workout; else the
    /// sessions' clock context of the local time `localMs` (deep work needs signals no
    /// export carries and is never inferred).
    public static func context(at now: Int64, localMs: Int64, workouts: [(startMs: Int64, endMs: Int64)],
                               state c: StateConstants, sessions: SessionConstants) -> DJContext {
        if workouts.contains(where: { $0.startMs <= now && now <= $0.endMs }) { return .workout }
        let post = Int64(c.postWorkoutMinutes * 60_000)
        if workouts.contains(where: { $0.endMs < now && now - $0.endMs <= post }) { return .postWorkout }
        // The clock contexts share their names with the sessions' contexts.
        let clock = ListeningContext.of(startMs: now, endMs: now, localStartMs: localMs, workouts: [], constants: sessions)
        return DJContext(rawValue: clock.rawValue) ?? .relaxation
    }
}

/// The listener's usual energy per weekday and local hour (docs/engines/dj.md, State):
/// the mean unblended energy, 0.6·arousal + 0.4·(1 − stress), of the 30-s states of
/// earlier days in the cell, once `pattern_min_states` of them exist. A state is added
/// to the day in progress, whose states join the pattern at `endDay()`.
struct EnergyPattern {
    private static let cells = 7 * 24
    private var sum = [Double](repeating: 0, count: cells), count = [Double](repeating: 0, count: cells)
    private var daySum = [Double](repeating: 0, count: cells), dayCount = [Double](repeating: 0, count: cells)
    let constants: StateConstants

    init(constants: StateConstants) {
        self.constants = constants
    }

    /// The cell of ISO weekday `weekday` (1 Monday … 7 Sunday) and clock hour `hour` (at most 23).
    static func cell(weekday: Int, hour: Int) -> Int { (weekday - 1) * 24 + min(23, hour) }

    /// The cell of a local wall-clock time (epoch-style ms).
    static func cell(localMs: Int64) -> Int {
        cell(weekday: Timestamp.isoWeekday(localMs), hour: Int(Timestamp.floorDivMod(localMs, 86_400_000).1 / 3_600_000))
    }

    /// The usual energy of `cell`, or nil before `pattern_min_states` earlier states.
    func usual(_ cell: Int) -> Double? {
        count[cell] >= constants.patternMinStates ? sum[cell] / count[cell] : nil
    }

    /// Adds the state `s` to the day in progress.
    mutating func add(_ s: DJState, cell: Int) {
        daySum[cell] += constants.energyArousalWeight * s.arousal + constants.energyCalmWeight * (1 - s.stress)
        dayCount[cell] += 1
    }

    /// Ends the day in progress: its states join the pattern.
    mutating func endDay() {
        for i in sum.indices { sum[i] += daySum[i]; count[i] += dayCount[i] }
        daySum = [Double](repeating: 0, count: Self.cells); dayCount = [Double](repeating: 0, count: Self.cells)
    }
}
