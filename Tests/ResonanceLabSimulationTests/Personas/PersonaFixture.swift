@testable import ResonanceLab

/// One in-memory generation of the ten personas × 30 days, shared by the persona
/// tests (simulating is the slow part; it runs once per test process).
enum PersonaFixture {
    static let generator = PersonaGenerator()
    /// The simulation's outcome; `PersonaExpectationTests` fails on an error, which
    /// every other persona test would otherwise only see as empty records.
    static let simulation = Result { try generator.simulate(jobs: 2) }
    static let records: [PersonaRecord] = (try? simulation.get()) ?? []
    static let assessments = DailyEngines.assess(history: records.flatMap(\.days))

    static func record(_ name: String) -> PersonaRecord? {
        records.first { $0.profile.name == name }
    }

    /// Contiguous runs of beats (no gap over 2.5 s) that start inside a sleep
    /// episode: the nightly 5-minute windows, read back from the tables alone.
    static func nightlyWindows(_ r: PersonaRecord) -> [[Double]] {
        var windows: [[Double]] = []
        var current: [RRInterval] = []
        func close() {
            if let first = current.first,
               r.sleep.contains(where: { $0.startMs <= first.timestampMs && first.timestampMs < $0.endMs }) {
                windows.append(current.map(\.rrMs))
            }
            current = []
        }
        for beat in r.rr {
            if let last = current.last, beat.timestampMs - last.timestampMs > 2500 { close() }
            current.append(beat)
        }
        close()
        return windows
    }
}
