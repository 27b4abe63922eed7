/// How `resonance daily` derives a day's inputs from the sample tables
/// (docs/methods.md, "Daily engines").
public struct DailyInputConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "daily_inputs", version: "1.0.0", constants: [
        ConstantSpec("resting_hr_quantile", 0.05, unit: "quantile", range: 0...0.5,
                     source: "choice: the 5th percentile of the day's heart rate, the low end of the day robust to a few artifact beats, where a minimum is not"),
        ConstantSpec("min_hr_samples_per_day", 60, unit: "samples", range: 1...100_000,
                     source: "choice: an hour of once-a-minute readings before a day's heart rate gives a resting heart rate"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.dailyInputs }

    /// `resting_hr_quantile`, quantile (type 7, as NumPy) of the day's heart-rate samples.
    public let restingHRQuantile: Double
    /// `min_hr_samples_per_day`, samples.
    public let minHRSamplesPerDay: Double

    public init(_ c: ConstantReader) throws {
        restingHRQuantile = try c["resting_hr_quantile"]
        minHRSamplesPerDay = try c["min_hr_samples_per_day"]
    }
}
