/// Song ranking of the AI DJ (docs/engines/dj.md, Ranking): the weighted score of a
/// candidate song for the listener's state and need, the target BPM per need, the
/// transition factor from the previous song and the same-artist rule (product
/// specification, song ranking, target BPM and transition control).
public struct RankingConstants: EngineConstants {
    public static let spec = EngineSpec(name: "ranking", version: "1.0.0", constants: [
        ConstantSpec("bpm_weight", 0.15, unit: "weight", range: 0...1, source: "product specification: ranking weights 0.15/0.20/0.15/0.25/0.25"),
        ConstantSpec("energy_weight", 0.20, unit: "weight", range: 0...1, source: "product specification: ranking weights 0.15/0.20/0.15/0.25/0.25"),
        ConstantSpec("familiarity_weight", 0.15, unit: "weight", range: 0...1, source: "product specification: ranking weights 0.15/0.20/0.15/0.25/0.25"),
        ConstantSpec("historical_weight", 0.25, unit: "weight", range: 0...1, source: "product specification: ranking weights 0.15/0.20/0.15/0.25/0.25"),
        ConstantSpec("context_weight", 0.25, unit: "weight", range: 0...1, source: "product specification: ranking weights 0.15/0.20/0.15/0.25/0.25"),
        ConstantSpec("bpm_tolerance", 50, unit: "bpm", range: 1...200, source: "product specification: BPM match = max(0, 1 − |ΔBPM|/50)"),
        ConstantSpec("familiar_full_plays", 10, unit: "plays", range: 1...1000, source: "product specification: familiarity = min(1, plays/10)"),
        ConstantSpec("stress_familiarity_above", 0.6, unit: "0–1", range: 0...1, source: "product specification: familiarity boost when stress > 0.6"),
        ConstantSpec("stress_familiarity_boost", 1.3, unit: "×", range: 1...3, source: "product specification: familiarity × 1.3 under stress"),
        ConstantSpec("focus_familiarity_boost", 1.2, unit: "×", range: 1...3, source: "product specification: familiarity × 1.2 for focus, replacing the stress boost"),
        ConstantSpec("recency_minutes", 60, unit: "min", range: 0...1440, source: "product specification: recency penalty 1 − minutes/60 within 60 min"),
        ConstantSpec("recency_weight", 0.5, unit: "score", range: 0...2, source: "product specification: score − 0.5 × recency penalty"),
        ConstantSpec("time_of_day_floor", 0.5, unit: "×", range: 0...1, source: "product specification: score × (0.5 + 0.5·time-of-day score)"),
        ConstantSpec("context_prior_plays", 2, unit: "plays", range: 0...100, source: "choice: context alignment = (plays in the context + 2·0.5)/(plays + 2), a share shrunk toward neutral"),
        ConstantSpec("neutral_score", 0.5, unit: "0–1", range: 0...1, source: "choice: a term whose song feature is unknown scores 0.5 (neutral), and is counted"),
        ConstantSpec("energize_bpm_min", 120, unit: "bpm", range: 30...250, source: "product specification: energize 120–160 BPM"),
        ConstantSpec("energize_bpm_max", 160, unit: "bpm", range: 30...250, source: "product specification: energize 120–160 BPM"),
        ConstantSpec("calm_bpm_min", 60, unit: "bpm", range: 30...250, source: "product specification: calm 60–90 BPM"),
        ConstantSpec("calm_bpm_max", 90, unit: "bpm", range: 30...250, source: "product specification: calm 60–90 BPM"),
        ConstantSpec("focus_bpm_min", 80, unit: "bpm", range: 30...250, source: "product specification: focus 80–110 BPM"),
        ConstantSpec("focus_bpm_max", 110, unit: "bpm", range: 30...250, source: "product specification: focus 80–110 BPM"),
        ConstantSpec("maintain_bpm_min", 90, unit: "bpm", range: 30...250, source: "product specification: maintain 90–130 BPM"),
        ConstantSpec("maintain_bpm_max", 130, unit: "bpm", range: 30...250, source: "product specification: maintain 90–130 BPM"),
        ConstantSpec("transition_bpm_min", 100, unit: "bpm", range: 30...250, source: "product specification: transition 100–120 BPM"),
        ConstantSpec("transition_bpm_max", 120, unit: "bpm", range: 30...250, source: "product specification: transition 100–120 BPM"),
        ConstantSpec("calm_arousal_above", 0.6, unit: "0–1", range: 0...1, source: "product specification: calm target − 10 BPM when arousal > 0.6"),
        ConstantSpec("calm_arousal_bpm_drop", 10, unit: "bpm", range: 0...60, source: "product specification: calm target − 10 BPM when arousal > 0.6"),
        ConstantSpec("night_start_hour", 21, unit: "h", range: 0...24, source: "product specification: night from 21:00"),
        ConstantSpec("night_end_hour", 6, unit: "h", range: 0...24, source: "product specification: night until 06:00"),
        ConstantSpec("night_max_bpm", 100, unit: "bpm", range: 30...250, source: "product specification: target ≤ 100 BPM at night"),
        ConstantSpec("morning_end_hour", 9, unit: "h", range: 0...24, source: "product specification: morning until 09:00 (preferences)"),
        ConstantSpec("morning_max_bpm", 120, unit: "bpm", range: 30...250, source: "product specification: morning maximum 120 BPM (preferences)"),
        ConstantSpec("time_of_day_bpm_tolerance", 30, unit: "bpm", range: 1...200, source: "choice: time-of-day score = max(0, 1 − (BPM − cap)/30) above the hour's cap, 1 at or below it"),
        ConstantSpec("target_bpm_min", 50, unit: "bpm", range: 30...250, source: "product specification: target clamped to 50–180 BPM"),
        ConstantSpec("target_bpm_max", 180, unit: "bpm", range: 30...250, source: "product specification: target clamped to 50–180 BPM"),
        ConstantSpec("energize_target_energy", 0.8, unit: "0–1", range: 0...1, source: "choice: the target energy the specification leaves undefined, per need (maintain keeps the state's energy)"),
        ConstantSpec("calm_target_energy", 0.2, unit: "0–1", range: 0...1, source: "choice: the target energy the specification leaves undefined, per need (maintain keeps the state's energy)"),
        ConstantSpec("focus_target_energy", 0.4, unit: "0–1", range: 0...1, source: "choice: the target energy the specification leaves undefined, per need (maintain keeps the state's energy)"),
        ConstantSpec("transition_target_energy", 0.5, unit: "0–1", range: 0...1, source: "choice: the target energy the specification leaves undefined, per need (maintain keeps the state's energy)"),
        ConstantSpec("transition_base", 0.7, unit: "×", range: 0...1, source: "product specification: adjusted = score × (0.7 + 0.3·t)"),
        ConstantSpec("transition_bpm_tolerance", 30, unit: "bpm", range: 1...200, source: "product specification: BPM smoothness = max(0, 1 − ΔBPM/30)"),
        ConstantSpec("transition_energy_tolerance", 0.4, unit: "energy", range: 0.01...1, source: "product specification: energy smoothness = max(0, 1 − Δenergy/0.4)"),
        ConstantSpec("transition_bpm_weight", 0.4, unit: "weight", range: 0...1, source: "product specification: t = 0.4·BPM smoothness + 0.4·energy smoothness + 0.1 shared genre"),
        ConstantSpec("transition_energy_weight", 0.4, unit: "weight", range: 0...1, source: "product specification: t = 0.4·BPM smoothness + 0.4·energy smoothness + 0.1 shared genre"),
        ConstantSpec("transition_genre_bonus", 0.1, unit: "0–1", range: 0...1, source: "product specification: t = 0.4·BPM smoothness + 0.4·energy smoothness + 0.1 shared genre"),
        ConstantSpec("max_same_artist_in_row", 2, unit: "songs", range: 1...100, source: "product specification: at most 2 songs of one artist in a row"),
        ConstantSpec("unknown_artist_matches", 0, unit: "flag", range: 0...1, source: "choice: the specification's songs always carry an artist; an unknown artist (empty) matches no song in the same-artist rule (1: every unknown artist counts as one)"),
        ConstantSpec("post_workout_learning_context", 5, unit: "session context index", range: 0...5, source: "choice: the DJ's post-workout context reads what was learned under the session context with this index (0 morning, 1 commute, 2 work, 3 relaxation, 4 preSleep, 5 workout); the sessions stage counts a session up to its workout overlap margin after a workout as workout"),
        ConstantSpec("deep_work_learning_context", 2, unit: "session context index", range: 0...5, source: "choice: the DJ's deep-work context reads what was learned under the session context with this index (0 morning, 1 commute, 2 work, 3 relaxation, 4 preSleep, 5 workout); the other six DJ contexts share their session context's name"),
    ], weightGroups: [["bpm_weight", "energy_weight", "familiarity_weight", "historical_weight", "context_weight"]],
       orderRules: [OrderRule(["energize_bpm_min", "energize_bpm_max"]), OrderRule(["calm_bpm_min", "calm_bpm_max"]),
                    OrderRule(["focus_bpm_min", "focus_bpm_max"]), OrderRule(["maintain_bpm_min", "maintain_bpm_max"]),
                    OrderRule(["transition_bpm_min", "transition_bpm_max"]), OrderRule(["target_bpm_min", "target_bpm_max"])])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.ranking }

    public let bpmWeight: Double, energyWeight: Double, familiarityWeight: Double, historicalWeight: Double, contextWeight: Double
    public let bpmTolerance: Double, familiarFullPlays: Double
    public let stressFamiliarityAbove: Double, stressFamiliarityBoost: Double, focusFamiliarityBoost: Double
    public let recencyMinutes: Double, recencyWeight: Double, timeOfDayFloor: Double
    public let contextPriorPlays: Double, neutralScore: Double
    /// BPM range ends per need, bpm.
    public let energizeBPMMin: Double, energizeBPMMax: Double, calmBPMMin: Double, calmBPMMax: Double
    public let focusBPMMin: Double, focusBPMMax: Double, maintainBPMMin: Double, maintainBPMMax: Double
    public let transitionBPMMin: Double, transitionBPMMax: Double

    /// BPM range per need, `MusicNeed` order (energize, calm, focus, maintain, transition).
    public var bpmRanges: [ClosedRange<Double>] {
        [energizeBPMMin...energizeBPMMax, calmBPMMin...calmBPMMax, focusBPMMin...focusBPMMax, maintainBPMMin...maintainBPMMax,
         transitionBPMMin...transitionBPMMax]
    }
    public let calmArousalAbove: Double, calmArousalBPMDrop: Double
    public let nightStartHour: Double, nightEndHour: Double, nightMaxBPM: Double, morningEndHour: Double, morningMaxBPM: Double
    public let timeOfDayBPMTolerance: Double, targetBPMMin: Double, targetBPMMax: Double
    public let energizeTargetEnergy: Double, calmTargetEnergy: Double, focusTargetEnergy: Double, transitionTargetEnergy: Double
    public let transitionBase: Double, transitionBPMTolerance: Double, transitionEnergyTolerance: Double
    public let transitionBPMWeight: Double, transitionEnergyWeight: Double, transitionGenreBonus: Double
    public let maxSameArtistInRow: Double
    /// Flag (≥ 0.5: an unknown artist counts as one artist in the same-artist rule).
    public let unknownArtistMatches: Double
    /// Indices into `ListeningContext.allCases`.
    public let postWorkoutLearningContext: Double, deepWorkLearningContext: Double

    /// The session context (`ListeningContext`, the key songs are learned under) whose
    /// learned effects a decision in DJ context `c` reads.
    public func learningContext(_ c: DJContext) -> ListeningContext {
        let all = ListeningContext.allCases
        func at(_ i: Double) -> ListeningContext { all[min(all.count - 1, max(0, Int(i)))] }
        switch c {
        case .postWorkout: return at(postWorkoutLearningContext)
        case .deepWork: return at(deepWorkLearningContext)
        default: return ListeningContext(rawValue: c.rawValue) ?? .relaxation
        }
    }

    public init(_ c: ConstantReader) throws {
        bpmWeight = try c["bpm_weight"]
        energyWeight = try c["energy_weight"]
        familiarityWeight = try c["familiarity_weight"]
        historicalWeight = try c["historical_weight"]
        contextWeight = try c["context_weight"]
        bpmTolerance = try c["bpm_tolerance"]
        familiarFullPlays = try c["familiar_full_plays"]
        stressFamiliarityAbove = try c["stress_familiarity_above"]
        stressFamiliarityBoost = try c["stress_familiarity_boost"]
        focusFamiliarityBoost = try c["focus_familiarity_boost"]
        recencyMinutes = try c["recency_minutes"]
        recencyWeight = try c["recency_weight"]
        timeOfDayFloor = try c["time_of_day_floor"]
        contextPriorPlays = try c["context_prior_plays"]
        neutralScore = try c["neutral_score"]
        energizeBPMMin = try c["energize_bpm_min"]
        energizeBPMMax = try c["energize_bpm_max"]
        calmBPMMin = try c["calm_bpm_min"]
        calmBPMMax = try c["calm_bpm_max"]
        focusBPMMin = try c["focus_bpm_min"]
        focusBPMMax = try c["focus_bpm_max"]
        maintainBPMMin = try c["maintain_bpm_min"]
        maintainBPMMax = try c["maintain_bpm_max"]
        transitionBPMMin = try c["transition_bpm_min"]
        transitionBPMMax = try c["transition_bpm_max"]
        calmArousalAbove = try c["calm_arousal_above"]
        calmArousalBPMDrop = try c["calm_arousal_bpm_drop"]
        nightStartHour = try c["night_start_hour"]
        nightEndHour = try c["night_end_hour"]
        nightMaxBPM = try c["night_max_bpm"]
        morningEndHour = try c["morning_end_hour"]
        morningMaxBPM = try c["morning_max_bpm"]
        timeOfDayBPMTolerance = try c["time_of_day_bpm_tolerance"]
        targetBPMMin = try c["target_bpm_min"]
        targetBPMMax = try c["target_bpm_max"]
        energizeTargetEnergy = try c["energize_target_energy"]
        calmTargetEnergy = try c["calm_target_energy"]
        focusTargetEnergy = try c["focus_target_energy"]
        transitionTargetEnergy = try c["transition_target_energy"]
        transitionBase = try c["transition_base"]
        transitionBPMTolerance = try c["transition_bpm_tolerance"]
        transitionEnergyTolerance = try c["transition_energy_tolerance"]
        transitionBPMWeight = try c["transition_bpm_weight"]
        transitionEnergyWeight = try c["transition_energy_weight"]
        transitionGenreBonus = try c["transition_genre_bonus"]
        maxSameArtistInRow = try c["max_same_artist_in_row"]
        unknownArtistMatches = try c["unknown_artist_matches"]
        postWorkoutLearningContext = try c["post_workout_learning_context"]
        deepWorkLearningContext = try c["deep_work_learning_context"]
    }
}
