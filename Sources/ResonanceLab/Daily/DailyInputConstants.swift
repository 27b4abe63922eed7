/// How `resonance daily` derives a day's inputs from the sample tables
/// (docs/methods.md, "Daily engines").
public struct DailyInputConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "daily_inputs", version: "1.2.0", constants: [
        ConstantSpec("resting_hr_quantile", 0.05, unit: "quantile", range: 0...0.5,
                     source: "choice: the 5th percentile of the day's heart rate, the low end of the day robust to a few artifact beats, where a minimum is not"),
        ConstantSpec("min_hr_samples_per_day", 60, unit: "samples", range: 1...100_000,
                     source: "choice: an hour of once-a-minute readings before a day's heart rate gives a resting heart rate"),
        ConstantSpec("recovery_peak_window_s", 60, unit: "s", range: 5...600,
                     source: "choice: the peak of heart-rate recovery is the highest sample of the workout's last minute (Cole et al. 1999 take the peak at the end of exercise)"),
        ConstantSpec("recovery_sample_tolerance_s", 10, unit: "s", range: 0...30,
                     source: "choice: the heart rate at +60 s and +120 s is a sample at most 10 s away, so a watch's sparse readings after a workout give no recovery rather than a wrong one"),
        ConstantSpec("min_wear_hours", 10, unit: "h", range: 0...24,
                     source: "choice: a day with heart-rate samples in fewer than 10 of its local clock hours is flagged low_wear; its resting HR is not taken from the samples and it has no stress score, so a watch left on the charger never reads as a calm day"),
        ConstantSpec("rmssd_to_sdnn_ratio", 1.19, unit: "ratio", range: 0.5...3,
                     source: "Nunan et al. 2010 (Pacing Clin Electrophysiol 33:1407), pooled normal short-term values of healthy adults: SDNN 50 ms, RMSSD 42 ms; SDNN ≈ 50/42 · RMSSD on a day with RMSSD only (flagged hrv_basis rmssd_converted)"),
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

    /// `min_wear_hours`, h: local clock hours with a heart-rate sample below which a day is `low_wear`.
    public let minWearHours: Double
    /// `rmssd_to_sdnn_ratio`, ratio: the SDNN a day with RMSSD only is given, per ms of RMSSD.
    public let rmssdToSDNNRatio: Double

    public init(_ c: ConstantReader) throws {
        restingHRQuantile = try c["resting_hr_quantile"]
        minHRSamplesPerDay = try c["min_hr_samples_per_day"]
        recoveryPeakWindowSeconds = try c["recovery_peak_window_s"]
        recoverySampleToleranceSeconds = try c["recovery_sample_tolerance_s"]
        minWearHours = try c["min_wear_hours"]
        rmssdToSDNNRatio = try c["rmssd_to_sdnn_ratio"]
    }
}
