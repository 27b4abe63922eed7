/// How `resonance daily` derives a day's inputs from the sample tables
/// (docs/methods.md, "Daily engines").
public struct DailyInputConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "daily_inputs", version: "1.1.0", constants: [
        ConstantSpec("resting_hr_quantile", 0.05, unit: "quantile", range: 0...0.5,
                     source: "choice: the 5th percentile of the day's heart rate, the low end of the day robust to a few artifact beats, where a minimum is not"),
        ConstantSpec("min_hr_samples_per_day", 60, unit: "samples", range: 1...100_000,
                     source: "choice: an hour of once-a-minute readings before a day's heart rate gives a resting heart rate"),
        ConstantSpec("recovery_peak_window_s", 60, unit: "s", range: 5...600,
                     source: "choice: the peak of heart-rate recovery is the highest sample of the workout's last minute (Cole et al. 1999 take the peak at the end of exercise)"),
        ConstantSpec("recovery_sample_tolerance_s", 10, unit: "s", range: 0...30,
                     source: "choice: the heart rate at +60 s and +120 s is a sample at most 10 s away, so a watch's sparse readings after a workout give no recovery rather than a wrong one"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.dailyInputs }

    /// `resting_hr_quantile`, quantile (type 7, as NumPy) of the day's heart-rate samples.
    public let restingHRQuantile: Double
    /// `min_hr_samples_per_day`, samples.
    public let minHRSamplesPerDay: Double

    /// `recovery_peak_window_s`, s: the workout's last part searched for the peak.
    public let recoveryPeakWindowSeconds: Double
    /// `recovery_sample_tolerance_s`, s: the farthest a sample may lie from +60 s (+120 s).
    public let recoverySampleToleranceSeconds: Double

    public init(_ c: ConstantReader) throws {
        restingHRQuantile = try c["resting_hr_quantile"]
        minHRSamplesPerDay = try c["min_hr_samples_per_day"]
        recoveryPeakWindowSeconds = try c["recovery_peak_window_s"]
        recoverySampleToleranceSeconds = try c["recovery_sample_tolerance_s"]
    }
}
