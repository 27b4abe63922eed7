extension ValidationReport {
    /// The analyses of `resonance validate`, in report order: what the workspace can
    /// answer and the data inventory first, then each pipeline stage's results, and the
    /// tables' lineage last; engines run with `registry`.
    public static func standardAnalyses(registry: ConstantsRegistry = .defaults, stress: StressScoringOptions = .init(),
                                        jobs: Int = 1) -> [ValidationAnalysis] {
        [
            WorkspaceAnswers.analysis(registry: registry),
            Inventory.analysis,
            BeatAnalysis.analysis,
            HRVAnalysis.analysis,
            StressAnalysis.analysis(registry: registry, options: stress, jobs: jobs),
            EffectsAnalysis.analysis,
            BreathingAnalysis.analysis,
            DJAnalysis.analysis,
            AlarmAnalysis.analysis(registry: registry),
            MorningAgreement.analysis,
            LineageAnalysis.analysis(registry: registry),
        ]
    }
}
