/// Which effects model(s) to run.
public enum EffectModel: String, CaseIterable, Sendable {
    case ema, mixed
}

/// Song, listener and playlist effects from the per-play physiology of
/// `session_plays.csv` (DESIGN §5): a pure function of that table and the constants.
/// Plays without physiology nearby stay in (behaviour: skip, listen, the product's
/// score without biometrics) but are left out of the ΔHR / ΔRMSSD fits.
public enum EffectsStage {
    public static func run(plays: [SessionPlayRow], models: [EffectModel], registry: ConstantsRegistry,
                           jobs: Int = 1) throws -> EffectTables {
        let index = PlayIndex(plays)
        var out = EffectTables()
        for model in models {
            switch model {
            case .ema: out = out + EMAEffects.run(index, registry: registry)
            case .mixed: out = out + (try MixedEffects.run(index, registry: registry, jobs: jobs))
            }
        }
        return out
    }
}
