/// Off-policy evaluation of DJ policies from a logged behaviour policy (docs/dj.md,
/// Off-policy evaluation): the behaviour policy's softmax temperature, the importance
/// weights' clip, the reward model's shrinkage and the bootstrap over listeners.
public struct OPEConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "ope", version: "1.0.0", constants: [
        ConstantSpec("behaviour_temperature", 0.1, unit: "score", range: 0.001...10,
                     source: "choice: the logging policy draws a song with probability ∝ exp(adjusted score / 0.1), so a song 0.1 below the DJ's top pick is e ≈ 2.7 times less likely and every song keeps a propensity above 0; on the development runs of make evidence-dj-ope, 0.05 left the oracle's and learned-effect's effective sample sizes near 15–20 and the intervals short of 95 %"),
        ConstantSpec("weight_clip", 100, unit: "×", range: 1...1e6,
                     source: "choice: importance weights π(a|x)/μ(a|x) are clipped at 100 (Ionides 2008, truncated importance sampling; as the Open Bandit Pipeline's lambda, Saito et al. 2021), which bounds a decision's share of the estimate and adds a bias only where μ < 1/100"),
        ConstantSpec("reward_model_prior_plays", 2, unit: "plays", range: 0...1000,
                     source: "choice: the doubly robust estimator's reward model is the song's mean reward under the need, shrunk toward the need's mean as if it had 2 more plays at that mean"),
        ConstantSpec("bootstrap_resamples", 500, unit: "resamples", range: 50...100_000,
                     source: "choice: 95 % percentile intervals from 500 resamples of the listeners (Efron & Tibshirani 1993: a few hundred for percentile ends)"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.ope }

    /// Softmax temperature in units of the ranking's adjusted score.
    public let behaviourTemperature: Double
    /// Largest importance weight (×).
    public let weightClip: Double
    /// Pseudo-plays of the reward model's shrinkage.
    public let rewardModelPriorPlays: Double
    /// Bootstrap resamples (a whole number).
    public let bootstrapResamples: Double

    public init(_ c: ConstantReader) throws {
        behaviourTemperature = try c["behaviour_temperature"]; weightClip = try c["weight_clip"]
        rewardModelPriorPlays = try c["reward_model_prior_plays"]; bootstrapResamples = try c["bootstrap_resamples"]
    }
}
