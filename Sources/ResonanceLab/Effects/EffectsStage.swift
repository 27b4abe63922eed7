/// Which effects model(s) to run.
public enum EffectModel: String, CaseIterable, Sendable {
    case ema, mixed
}

/// Song, listener and playlist effects from the per-play physiology of
/// `session_plays.csv` (docs/methods.md, Effects): a pure function of that table and the constants.
/// Plays without physiology nearby stay in (behaviour: skip, listen, the product's
/// score without biometrics) but are left out of the ΔHR / ΔRMSSD fits.
public enum EffectsStage {
    public static func run(plays: [SessionPlayRow], models: [EffectModel], registry: ConstantsRegistry,
                           jobs: Int = 1) throws -> EffectTables {
        let index = PlayIndex(plays)
        // The models are independent: run them side by side, outputs in `models` order.
        let tables = try Parallel.map(models, jobs: jobs) { model -> EffectTables in
            switch model {
            case .ema: return EMAEffects.run(index, registry: registry)
            case .mixed: return try MixedEffects.run(index, registry: registry, jobs: jobs)
            }
        }
        return tables.reduce(EffectTables(), +)
    }
}
