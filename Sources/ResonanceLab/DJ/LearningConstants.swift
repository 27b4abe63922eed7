/// The learning DJ policies of the simulation (docs/dj.md, Learning policies): the
/// hierarchical model's variance components before the plays can estimate them, the
/// floor of a moment estimate, and how many groups an estimate needs.
public struct LearningConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "dj_learning", version: "1.0.0", constants: [
        ConstantSpec("fallback_noise_sd_bpm", 4, unit: "bpm", range: 0.1...50,
                     source: "choice: the SD of one play's measured ΔHR around the listener's effect of the song, used only until the earlier plays hold enough repeated plays to estimate it by moments (the first simulated day); the personas' HR noise is AR(1) with stationary SD ≈ 3.2 bpm"),
        ConstantSpec("fallback_song_sd_bpm", 4, unit: "bpm", range: 0.1...50,
                     source: "choice: the SD of song effects around their mean, used only until it can be estimated by moments; the catalogue's SD of planted ΔHR is 4 bpm (SongCatalogue)"),
        ConstantSpec("fallback_listener_sd_bpm", 2, unit: "bpm", range: 0.1...50,
                     source: "choice: the SD of a listener's effect of a song around the song's mean, and of a listener's mean offset, used only until each can be estimated by moments"),
        ConstantSpec("variance_floor_bpm2", 0.01, unit: "bpm²", range: 1e-6...100,
                     source: "choice: a variance component's moment estimate is truncated at 0.01 bpm² (a negative estimate means 'no variation seen'; Searle, Casella & McCulloch 1992, §3.5; Gelman et al. 2013, Bayesian Data Analysis, §5.4 for the normal hierarchical model it feeds)"),
        ConstantSpec("workout_plays_teach", 0, unit: "flag", range: 0...1,
                     source: "choice: 0: plays during a workout or in the session after it teach the learning policies nothing, since the workout's HR curve differs by listener and dwarfs a song's effect (1: they teach like any other, their slot offsets taking out the workout's mean rise and the recovery's mean fall); on the development seeds 0 closed 0.46–0.51 of the closed loops' gap between learned effect only and the oracle in planted and nonlinear, 1 closed 0.40–0.45"),
        ConstantSpec("min_groups", 5, unit: "groups", range: 2...1000,
                     source: "choice: a variance component is estimated by moments once at least 5 groups (degrees of freedom) inform it, else its fallback holds"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.learning }

    /// Fallback SDs (bpm) of the play noise, the song effects and the listener level.
    public let fallbackNoiseSDBpm: Double, fallbackSongSDBpm: Double, fallbackListenerSDBpm: Double
    /// Smallest variance component (bpm²).
    public let varianceFloorBpm2: Double
    /// Degrees of freedom a moment estimate needs (a whole number).
    public let minGroups: Double
    /// Flag (≥ 0.5: plays in the workout and post-workout contexts teach).
    public let workoutPlaysTeach: Double

    public init(_ c: ConstantReader) throws {
        fallbackNoiseSDBpm = try c["fallback_noise_sd_bpm"]; fallbackSongSDBpm = try c["fallback_song_sd_bpm"]
        fallbackListenerSDBpm = try c["fallback_listener_sd_bpm"]; varianceFloorBpm2 = try c["variance_floor_bpm2"]
        minGroups = try c["min_groups"]; workoutPlaysTeach = try c["workout_plays_teach"]
    }
}
