extension ValidationReport {
    /// The analyses of `resonance validate`, in report order: the data inventory and
    /// the tables' lineage first, then each pipeline stage's own checks; engines run
    /// with `registry`.
    public static func standardAnalyses(registry: ConstantsRegistry = .defaults, stress: StressScoringOptions = .init(),
                                        jobs: Int = 1) -> [ValidationAnalysis] {
        [
            Inventory.analysis,
            LineageAnalysis.analysis(registry: registry),
            BeatAnalysis.analysis,
            HRVAnalysis.analysis,
            StressAnalysis.analysis(registry: registry, options: stress, jobs: jobs),
            EffectsAnalysis.analysis,
            BreathingAnalysis.analysis,
            DJAnalysis.analysis,
            AlarmAnalysis.analysis(registry: registry),
            MorningAgreement.analysis,
        ]
    }
}
