import ArgumentParser
import ResonanceLab

/// `resonance daily WS`: the daily engines on a workspace → `daily.csv`.
struct Daily: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daily stress, readiness, trend and zone engines into daily.csv.",
        discussion: """
            One row per subject and UTC day that has any input, with the columns of the \
            personas' daily.csv (empty where an input is missing). Inputs per day:
              resting_hr       5th percentile of the day's hr.csv samples (days with ≥ 60 samples)
              hrv_sdnn         mean of the day's hrv_samples.csv values, else the median SDNN of
                               the reliable hrv.csv windows starting that day (run `resonance hrv` first)
              sleep_hours      asleep stages (core, deep, rem, asleep) of sleep.csv, on the day they end
              workout_minutes  workouts.csv, on the day they start
              zone_minutes     with --age: minutes whose mean HR reaches zone 2 (Karvonen)
            BioAge (bio_age, bio_age_category) needs an age (subjects.csv birth year, else --age); \
            zones.csv counts the workout minutes per heart-rate zone.
            Recovery, VO2 max, steps, walking minutes and body mass have no canonical table and \
            stay empty. In a persona workspace (manifest lists daily.csv as a source) the \
            generator's measured columns are the inputs. Engines, in order: trend, stress, \
            readiness (docs/methods.md); their constants are in `resonance constants show`. \
            The coaching rules, replayed from daily.csv, then write nudges.csv, coaching.csv \
            and phases.csv (docs/engines.md, Coaching rules).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (writes daily.csv).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Age of every subject, years, for the heart-rate zones; without it zone_minutes stays empty.",
                               valueName: "years"))
    var age: Double?

    @Option(help: ArgumentHelp("BioAge norms table replacing the built-in one (CSV: metric,sex,age_years,value,source; docs/tables.md); default: the built-in table of docs/engines.md, BioAge.",
                               valueName: "file"))
    var norms: String?

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        if let age, !(10...110).contains(age) { throw ValidationError("--age must be between 10 and 110 years.") }
    }

    func run() throws {
        try DailyStage(ageYears: age, normsFile: norms).runCommitted(Workspace(path: workspace), try global.context())
    }
}
