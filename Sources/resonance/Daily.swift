import Foundation
import ArgumentParser
import ResonanceLab

/// `resonance daily WS`: the daily engines on a workspace → `daily.csv`.
struct Daily: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daily stress, readiness, trend and zone engines into daily.csv.",
        discussion: """
            One row per subject and local day that has any input, with the columns of the \
            personas' daily.csv (empty where an input is missing). A subject's local day: the \
            offset of its plays (plays.csv utc_offset_min), else its subjects.csv time_zone, else \
            --tz, else UTC (daily.csv's local_time says which). Inputs per day:
              resting_hr       5th percentile of the day's hr.csv samples (days with ≥ 60 samples)
              hrv_sdnn         mean of the day's hrv_samples.csv values, else the median SDNN of
                               the reliable hrv.csv windows starting that day (run `resonance hrv` first),
                               else 1.19 × the day's mean RMSSD (hrv_basis rmssd_converted)
              wear_hours       local clock hours with a heart-rate sample; under 10 the day is low_wear
                               (no resting HR from its samples, no stress score)
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
            and phases.csv (docs/engines/heart-coach.md, Coaching rules).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (writes daily.csv).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Age of every subject, years, for the heart-rate zones; without it zone_minutes stays empty.",
                               valueName: "years"))
    var age: Double?

    @Option(help: ArgumentHelp("BioAge norms table replacing the built-in one (CSV: metric,sex,age_years,value,source; docs/tables.md); default: the built-in table of docs/engines/heart-coach.md, BioAge.",
                               valueName: "file"))
    var norms: String?
    @Option(help: ArgumentHelp("IANA time zone of the local days of subjects whose plays carry no UTC offset and whose subjects.csv row names no time_zone (default: UTC), e.g. Europe/London.",
                               valueName: "zone"))
    var tz: String?

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        if let age, !(10...110).contains(age) { throw ValidationError("--age must be between 10 and 110 years.") }
        if let tz, TimeZone(identifier: tz) == nil { throw ValidationError("--tz: unknown IANA time zone '\(tz)'.") }
    }

    func run() throws {
        try DailyStage(ageYears: age, timeZone: tz.flatMap(TimeZone.init(identifier:)), normsFile: norms)
            .runCommitted(Workspace(path: workspace), try global.context())
    }
}
