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
    /// Windows with a larger share of corrected or missing beats are marked unreliable,
    /// %; nil takes the registry's `hrv.max_artifact_pct` (the stage sets it from the
    /// constants in force).
    public var maxArtifactPct: Double?

    /// The reliability threshold in force, %.
    var reliableArtifactPct: Double { maxArtifactPct ?? HRVConstants.defaults.maxArtifactPct }
    public var psdMethod: PSDMethod = .welch
    /// Sample rate of the spline-resampled NN series, Hz.
    public var resampleHz: Double = 4
    public var interpolation: Interpolation = .cubic
    public var detrending: Detrending = .smoothnessPriors
    /// Smoothness-priors λ (Tarvainen 2002; 500 ≈ 0.04 Hz cut-off at 4 Hz).
    public var lambda: Double = 500
    public var welch = WelchOptions()

    public init() {}

    /// The setting of `artifacts` in the lineage of `hrv.csv`, which `sessions` follows.
    public static let artifactSetting = "artifacts"

    /// Records the options in the lineage of the tables `session` commits.
    func record(in session: WorkspaceSession?) {
        guard let session else { return }
        session.record(setting: Self.artifactSetting, artifactMethod.rawValue)
        session.record(setting: "max_artifact_pct", CSVWriter.format(reliableArtifactPct))
        session.record(setting: "windows", windows ? "\(CSVWriter.format(windowSeconds)) s every \(CSVWriter.format(stepSeconds)) s" : "off")
        session.record(setting: "whole", whole ? "on" : "off")
        session.record(setting: "psd", "\(psdMethod.rawValue), \(interpolation.rawValue) at \(CSVWriter.format(resampleHz)) Hz, "
            + "\(detrending.rawValue) λ \(CSVWriter.format(lambda))")
    }

    /// The artifact method `hrv.csv` was made with, from its lineage in `manifest`, and
    /// where that choice came from (for the lineage of a stage that follows it).
    public static func artifactMethod(of manifest: Manifest?) -> (method: ArtifactMethod, origin: String) {
        guard let lineage = manifest?.table(HRVRow.fileName)?.lineage else {
            return (HRVOptions().artifactMethod, "the default; no hrv.csv with lineage")
        }
        guard let text = lineage.settings[artifactSetting], let method = ArtifactMethod(rawValue: text) else {
            return (HRVOptions().artifactMethod, "the default; hrv.csv records no artifact method")
        }
        return (method, "as hrv.csv")
    }
}
