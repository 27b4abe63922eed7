/// Spectral estimator for frequency-domain indices.
public enum PSDMethod: String, Sendable, CaseIterable {
    /// Welch periodogram of the NN series resampled by cubic spline (Kubios default).
    case welch
    /// Lomb–Scargle periodogram of the unevenly sampled NN series.
    case lomb
}

/// Settings of `resonance hrv`. Defaults follow Kubios HRV and the Task Force (1996).
public struct HRVOptions: Sendable {
    public var windowSeconds: Double = 300
    public var stepSeconds: Double = 60
    /// Include windowed rows (otherwise whole-recording rows only).
    public var windows = true
    /// Include one whole-recording row per subject.
    public var whole = true
    public var artifactMethod: ArtifactMethod = .lipponen
    /// Windows with a larger share of corrected or missing beats are marked unreliable.
    public var maxArtifactPct: Double = 5
    public var psdMethod: PSDMethod = .welch
    /// Sample rate of the spline-resampled NN series, Hz.
    public var resampleHz: Double = 4
    public var interpolation: Interpolation = .cubic
    public var detrending: Detrending = .smoothnessPriors
    /// Smoothness-priors λ (Tarvainen 2002; 500 ≈ 0.04 Hz cut-off at 4 Hz).
    public var lambda: Double = 500
    public var welch = WelchOptions()

    public init() {}
}
