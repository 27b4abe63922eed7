import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance personas …`: the synthetic persona workspace and its reports.
struct Personas: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate the ten synthetic personas (docs/personas.md) and report on them.",
        subcommands: [PersonasGenerate.self, PersonasReport.self]
    )
}

/// `resonance personas generate --out WS`.
struct PersonasGenerate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic persona workspace with its planted effects.",
        discussion: """
            Writes hr.csv, rr.csv, plays.csv, sleep.csv, workouts.csv, labels.csv and \
            rejects.csv (empty), manifest.json, subjects.csv (each persona's birth year, sex, \
            height and weight), daily.csv (one snapshot per persona per day with the daily \
            engines' outputs, BioAge included), zones.csv (workout minutes per heart-rate zone) \
            and truth.csv (every song's planted effect and \
            each persona's sensitivity). With --events planned, health events (illness, \
            overreaching, slow regression, return to fitness; docs/personas.md) are planted at \
            their documented rates, change every simulated signal, and are listed in truth.csv \
            as kind health_event. With --response-law, listeners respond to music by another \
            law (fast or slow onset, long release, exposure threshold, overshoot, drifting \
            effects, listener × song interactions, heavy-tailed noise with motion artifacts; \
            docs/personas.md) at --law-strength moderate or severe; the law and its parameters \
            are written to truth.csv. With --replicas N, the personas are simulated N \
            times, replica k with seed --seed + k and its subjects named Persona-k (k \
            zero-padded to the digits of N − 1, play ids too), all hearing the one song \
            catalogue of --seed; every table then covers all N × personas subjects in byte \
            order of their names. The same arguments give byte-identical files, whatever \
            --jobs is; subjects are written as they are simulated, and no more than --jobs \
            of them are held at a time.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Workspace folder to write (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: "Days to simulate (1–366).")
    var days: Int = 30

    @Option(help: ArgumentHelp("'all' or a comma-separated list of persona names, e.g. NewMom,CardiacRehab.",
                               valueName: "names"))
    var personas: String = "all"

    @Option(help: "Seed mixed into every persona's djb2(name + age) seed (unsigned 64-bit).")
    var seed: UInt64 = 0

    @Option(help: ArgumentHelp("Copies of the personas: replica k (0 … N − 1) uses seed --seed + k (modulo 2^64) and names "
                               + "its subjects Persona-k, all hearing the catalogue of --seed (default 1: the personas once, "
                               + "under their own names).", valueName: "N"))
    var replicas: Int = 1

    @Option(help: ArgumentHelp("First simulated date, UTC.", valueName: "YYYY-MM-DD"))
    var startDate: String = "2026-01-05"

    @Option(help: ArgumentHelp("Health events: none (default) or planned (illness, overreaching, regression, "
                               + "improvement at the rates of docs/personas.md).", valueName: "none|planned"))
    var events: String = "none"

    @Option(help: ArgumentHelp("How listeners respond to music: "
                               + ResponseLaw.Name.allCases.map(\.rawValue).joined(separator: ", ")
                               + " (default standard: 45 s onset, 6 s release; docs/personas.md).", valueName: "name"))
    var responseLaw: String = "standard"

    @Option(help: ArgumentHelp("Strength of --response-law: moderate (default) or severe.", valueName: "moderate|severe"))
    var lawStrength: String = "moderate"

    @Option(help: ArgumentHelp("Also write song_features.csv, features related to the planted effects as in that DJ world: "
                               + "planted, genre or none (default: no song features; docs/dj.md, Worlds).", valueName: "world"))
    var songFeatures: String?

    /// The DJ worlds whose song features a persona workspace can carry.
    static let featureWorlds: [DJWorld] = [.planted, .genre, .none]

    /// The world of --song-features, parsed once for `validate` and `run`: nil without
    /// the option; `none` is the world `DJWorld.none` (features unrelated to the planted
    /// effects), not the absence of features; any other value is refused.
    func songFeatureWorld() throws -> DJWorld? {
        guard let songFeatures else { return nil }
        guard let world = DJWorld(rawValue: songFeatures), Self.featureWorlds.contains(world) else {
            throw ValidationError("--song-features must be one of: "
                + Self.featureWorlds.map(\.rawValue).joined(separator: ", ") + " (got '\(songFeatures)').")
        }
        return world
    }

    func validate() throws {
        _ = try songFeatureWorld()
        try global.reject(verify: true, command: "personas generate")
        guard (1...366).contains(days) else { throw ValidationError("--days must be between 1 and 366.") }
        guard replicas >= 1 else { throw ValidationError("--replicas must be at least 1 (got \(replicas)).") }
        guard ["none", "planned"].contains(events) else {
            throw ValidationError("--events must be none or planned (got '\(events)').")
        }
        _ = try selectedProfiles()
        _ = try firstDay()
        _ = try law()
    }

    func law() throws -> ResponseLaw {
        guard let name = ResponseLaw.Name(rawValue: responseLaw) else {
            throw ValidationError("--response-law must be one of \(ResponseLaw.Name.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(responseLaw)').")
        }
        guard let strength = ResponseLaw.Strength(rawValue: lawStrength) else {
            throw ValidationError("--law-strength must be moderate or severe (got '\(lawStrength)').")
        }
        return ResponseLaw(name, strength: strength)
    }

    func selectedProfiles() throws -> [PersonaProfile] {
        guard personas != "all" else { return PersonaProfile.all }
        let names = personas.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var chosen: [PersonaProfile] = []
        for name in names where !chosen.contains(where: { $0.name == name }) {
            guard let p = PersonaProfile.named(name) else {
                throw ValidationError("--personas: unknown persona '\(name)' (known: \(PersonaProfile.all.map(\.name).joined(separator: ", "))).")
            }
            chosen.append(p)
        }
        guard !chosen.isEmpty else { throw ValidationError("--personas: no persona named.") }
        return chosen
    }

    func firstDay() throws -> Int {
        guard startDate.utf8.count == 10, let t = Timestamp.parseISO(startDate) else {
            throw ValidationError("--start-date must be a date YYYY-MM-DD, got '\(startDate)'.")
        }
        let first = Int(Timestamp.floorDivMod(t.ms, 86_400_000).0)
        // Nights reach into the day before the first and after the last simulated day,
        // and every instant must stay within the years 0000–9999.
        let earliest = Timestamp.daysFromCivil(0, 1, 2), latest = Timestamp.daysFromCivil(9999, 12, 30) - days + 1
        guard first >= earliest, first <= latest else {
            throw ValidationError("--start-date \(startDate) with --days \(days) leaves the years 0000–9999; "
                                  + "use a date from 0000-01-02 to \(Timestamp.isoDate(Int64(latest) * 86_400_000)).")
        }
        return first
    }

    func run() throws {
        let generator = PersonaGenerator(personas: try selectedProfiles(), days: days, seed: seed, replicas: replicas,
                                         firstDay: try firstDay(), registry: try global.registry(),
                                         events: events == "planned", law: try law(),
                                         songFeatures: try songFeatureWorld())
        let progress = global.reporter, warnings = global.warnings
        try generator.generate(into: Workspace(path: out), jobs: global.workers, progress: { progress.note($0) },
                               warning: { warnings.note($0) })
    }
}
