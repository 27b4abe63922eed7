import XCTest
@testable import ResonanceLab

/// The planted music response is what the per-play measurement recovers: for
/// full-length plays, measured ΔHR (median HR of the last 30 s − first 30 s) and
/// ΔRMSSD (last 60 s − first 60 s) have expectation song effect × sensitivity.
final class PlantedEffectTests: XCTestCase {
    struct Measured {
        var songId: String
        var subject: String
        var planted: (hr: Double, rmssd: Double)
        var measured: (hr: Double, rmssd: Double)
    }

    static func measureFullPlays() -> [Measured] {
        let songs = Dictionary(uniqueKeysWithValues: PersonaFixture.generator.catalogue.songs.map { ($0.songId, $0) })
        var out: [Measured] = []
        for r in PersonaFixture.records {
            let hrTimes = r.hr.map(\.timestampMs), rrTimes = r.rr.map(\.timestampMs)
            func hr(_ from: Int64, _ to: Int64) -> [Double] {
                let lo = lowerBound(hrTimes, from), hi = lowerBound(hrTimes, to + 1)
                return r.hr[lo..<hi].map(\.bpm)
            }
            func rr(_ from: Int64, _ to: Int64) -> [Double] {
                let lo = lowerBound(rrTimes, from), hi = lowerBound(rrTimes, to + 1)
                return r.rr[lo..<hi].map(\.rrMs)
            }
            for play in r.plays where play.playedS == play.mediaDurationS {
                guard let song = songs[play.songId], let end = play.endedAtMs else { continue }
                let first = hr(play.startedAtMs, play.startedAtMs + 30_000), last = hr(end - 30_000, end)
                XCTAssertGreaterThanOrEqual(first.count, 6)
                XCTAssertGreaterThanOrEqual(last.count, 6)
                let dHR = Stats.median(last) - Stats.median(first)
                let dRMSSD = HRVTime.rmssd(rr(end - 60_000, end)) - HRVTime.rmssd(rr(play.startedAtMs, play.startedAtMs + 60_000))
                let s = r.profile.sensitivity
                out.append(Measured(songId: play.songId, subject: r.profile.name,
                                    planted: (song.deltaHRBpm * s, song.deltaRMSSDMs * s), measured: (dHR, dRMSSD)))
            }
        }
        return out
    }

    static func lowerBound(_ xs: [Int64], _ value: Int64) -> Int {
        var lo = 0, hi = xs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if xs[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Least-squares slope through the origin of measured on planted.
    static func slope(_ x: [Double], _ y: [Double]) -> Double {
        zip(x, y).reduce(0) { $0 + $1.0 * $1.1 } / x.reduce(0) { $0 + $1 * $1 }
    }

    func testFullPlaysExpressTheirPlantedEffect() {
        let plays = Self.measureFullPlays()
        XCTAssertGreaterThan(plays.count, 3000)
        let hrSlope = Self.slope(plays.map(\.planted.hr), plays.map(\.measured.hr))
        let rmssdSlope = Self.slope(plays.map(\.planted.rmssd), plays.map(\.measured.rmssd))
        let hrNoise = Stats.sd(plays.map { $0.measured.hr - $0.planted.hr })
        let rmssdNoise = Stats.sd(plays.map { $0.measured.rmssd - $0.planted.rmssd })
        print("full plays \(plays.count): ΔHR slope \(hrSlope) noise SD \(hrNoise) bpm; ΔRMSSD slope \(rmssdSlope) noise SD \(rmssdNoise) ms")
        XCTAssertEqual(hrSlope, 1, accuracy: 0.05)
        XCTAssertEqual(rmssdSlope, 1, accuracy: 0.05)
    }

    /// Songs with ≥ 10 full plays: the per-song least-squares estimate
    /// Σ sᵢyᵢ / Σ sᵢ² (sᵢ the listener's sensitivity, yᵢ the measured delta) tracks
    /// the planted song effect (the effects stage's target is r ≥ 0.9).
    func testSongEffectsAreRecoverableFromTenPlays() {
        let plays = Self.measureFullPlays()
        let sensitivity = Dictionary(uniqueKeysWithValues: PersonaProfile.all.map { ($0.name, $0.sensitivity) })
        let truth = Dictionary(uniqueKeysWithValues: PersonaFixture.generator.catalogue.songs.map { ($0.songId, $0) })
        var bySong: [String: [Measured]] = [:]
        for p in plays { bySong[p.songId, default: []].append(p) }
        var planted: [(Double, Double)] = [], estimated: [(Double, Double)] = []
        for (songId, ps) in bySong.sorted(by: { $0.key < $1.key }) where ps.count >= 10 {
            let s = ps.map { sensitivity[$0.subject] ?? 1 }
            let ss = s.reduce(0) { $0 + $1 * $1 }
            let hr = zip(s, ps).reduce(0) { $0 + $1.0 * $1.1.measured.hr } / ss
            let rmssd = zip(s, ps).reduce(0) { $0 + $1.0 * $1.1.measured.rmssd } / ss
            guard let song = truth[songId] else { continue }
            planted.append((song.deltaHRBpm, song.deltaRMSSDMs))
            estimated.append((hr, rmssd))
        }
        let rHR = Stats.pearson(planted.map(\.0), estimated.map(\.0))
        let rRMSSD = Stats.pearson(planted.map(\.1), estimated.map(\.1))
        print("songs with ≥ 10 full plays: \(planted.count); r ΔHR \(rHR), r ΔRMSSD \(rRMSSD)")
        XCTAssertGreaterThan(planted.count, 100)
        XCTAssertGreaterThan(rHR, 0.9)
        XCTAssertGreaterThan(rRMSSD, 0.9)
    }

    /// Per persona, Σ Eᵢyᵢ / Σ Eᵢ² (Eᵢ the planted song effect, yᵢ the measured delta)
    /// ranks the listeners as their planted sensitivities do (target Spearman ≥ 0.8).
    func testSensitivitiesAreRecoverable() {
        let plays = Self.measureFullPlays()
        let names = PersonaProfile.all.map(\.name)
        func estimate(_ name: String, _ metric: (Measured) -> (Double, Double)) -> Double {
            let mine = plays.filter { $0.subject == name }.map(metric)
            return mine.reduce(0) { $0 + $1.0 * $1.1 } / mine.reduce(0) { $0 + $1.0 * $1.0 }
        }
        let truth = PersonaProfile.all.map(\.sensitivity)
        let hr = names.map { name in
            estimate(name) { ($0.planted.hr / (PersonaProfile.named(name)?.sensitivity ?? 1), $0.measured.hr) }
        }
        let rmssd = names.map { name in
            estimate(name) { ($0.planted.rmssd / (PersonaProfile.named(name)?.sensitivity ?? 1), $0.measured.rmssd) }
        }
        print("sensitivity estimates ΔHR:", hr.map { String(format: "%.2f", $0) }, "ΔRMSSD:", rmssd.map { String(format: "%.2f", $0) })
        XCTAssertGreaterThanOrEqual(Stats.spearman(truth, hr), 0.8)
        XCTAssertGreaterThanOrEqual(Stats.spearman(truth, rmssd), 0.8)
    }
}
