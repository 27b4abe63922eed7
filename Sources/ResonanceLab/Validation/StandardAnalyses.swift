extension ValidationReport {
    /// The analyses of `resonance validate`, in report order: the data inventory
    /// first, then each pipeline stage's own checks.
    public static let standardAnalyses: [ValidationAnalysis] = [
        Inventory.analysis,
        HRVAnalysis.analysis,
        EffectsAnalysis.analysis,
    ]
}
