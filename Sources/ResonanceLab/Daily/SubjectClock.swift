import Foundation

/// A subject's local clock: the one rule by which `resonance daily` turns an instant
/// into the subject's local calendar day and clock hour (docs/methods.md, "Local days").
/// The sample tables (`hr.csv`, `hrv_samples.csv`, `sleep.csv`, `workouts.csv`) hold UTC
/// instants without an offset; the first of these that exists decides:
/// 1. the offset the subject's data carries: `plays.csv`'s `utc_offset_min` (Apple
///    Music), the offset of the latest play starting at or before the instant (of the
///    first play before any), so travel and DST changes in the data are followed;
/// 2. the subject's `subjects.csv` `time_zone` (an IANA name; Foundation's zone
///    database, so DST-correct);
/// 3. `resonance daily --tz ZONE`;
/// 4. UTC.
public final class SubjectClock {
    /// `plays_offset`, `zone:NAME` (subjects.csv), `tz:NAME` (`--tz`) or `utc`.
    public let basis: String
    /// Play starts (ms) with their offsets (min), by time.
    private let offsets: [(ms: Int64, minutes: Int)]
    private let zone: TimeZone?
    /// Offsets (ms) per quarter hour of UTC: every zone's offset is a whole number of
    /// quarter hours and changes on one.
    private var cache: [Int64: Int64] = [:]

    /// The clock of a subject from its plays' offsets (any order), its `subjects.csv`
    /// zone (empty: none) and `--tz`; a zone name Foundation does not know is skipped.
    public init(playOffsets: [(ms: Int64, minutes: Int)], subjectZone: String, option: TimeZone?) {
        if !playOffsets.isEmpty {
            offsets = playOffsets.sorted { $0.ms != $1.ms ? $0.ms < $1.ms : $0.minutes < $1.minutes }
            zone = nil
            basis = "plays_offset"
        } else if let z = TimeZone(identifier: subjectZone), !subjectZone.isEmpty {
            offsets = []
            zone = z
            basis = "zone:" + subjectZone
        } else if let option {
            offsets = []
            zone = option
            basis = "tz:" + option.identifier
        } else {
            offsets = []
            zone = nil
            basis = "utc"
        }
    }

    /// The subject's offset from UTC at instant `ms`, in ms.
    public func offsetMs(_ ms: Int64) -> Int64 {
        if !offsets.isEmpty {
            var lo = 0, hi = offsets.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if offsets[mid].ms <= ms { lo = mid + 1 } else { hi = mid }
            }
            return Int64(offsets[max(lo - 1, 0)].minutes) * 60_000
        }
        guard let zone else { return 0 }
        let quarter = Timestamp.floorDivMod(ms, 900_000).0
        if let cached = cache[quarter] { return cached }
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(quarter * 900_000) / 1000))) * 1000
        cache[quarter] = offset
        return offset
    }

    /// The local calendar day of `ms` (days since 1970-01-01 of the local date).
    public func day(_ ms: Int64) -> Int {
        Int(Timestamp.floorDivMod(ms + offsetMs(ms), 86_400_000).0)
    }

    /// The local clock hour (0–23) of `ms`.
    public func hour(_ ms: Int64) -> Int {
        Int(Timestamp.floorDivMod(Timestamp.floorDivMod(ms + offsetMs(ms), 86_400_000).1, 3_600_000).0)
    }
}

/// The clocks of a workspace's subjects, each made once: the plays' offsets of
/// `plays.csv`, the zones of `subjects`, and `option` (`--tz`).
public final class SubjectClocks {
    private var playOffsets: [String: [(ms: Int64, minutes: Int)]] = [:]
    private let subjects: DailySubjects
    private let option: TimeZone?
    private var clocks: [String: SubjectClock] = [:]

    public init(_ ws: Workspace, subjects: DailySubjects, option: TimeZone?) throws {
        self.subjects = subjects
        self.option = option
        try ws.forEachRow(Play.self) { p in
            if let o = p.utcOffsetMin { playOffsets[p.subject, default: []].append((p.startedAtMs, o)) }
        }
    }

    public func callAsFunction(_ subject: String) -> SubjectClock {
        if let c = clocks[subject] { return c }
        let c = clock(of: subject)
        clocks[subject] = c
        return c
    }

    /// The clock of `subject`, made anew: safe from several threads at once.
    public func clock(of subject: String) -> SubjectClock {
        SubjectClock(playOffsets: playOffsets[subject] ?? [], subjectZone: subjects.rows[subject]?.timeZone ?? "", option: option)
    }
}
