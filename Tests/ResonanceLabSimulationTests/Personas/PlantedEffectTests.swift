import XCTest
@testable import ResonanceLab

/// The planted music response is what the per-play measurement recovers: for
/// full-length plays, ΔHR (median HR of the last 30 s − first 30 s) and ΔRMSSD (last
/// 60 s − first 60 s), measured as the sessions stage measures them (RMSSD on the
/// cleaned NN series of hrv.csv), have expectation song effect × sensitivity.
final class PlantedEffectTests: XCTestCase {
    struct Measured {
        var songId: String
        var subject: String
        var planted: (hr: Double, rmssd: Double)
        var measured: (hr: Double, rmssd: Double)
    }

    /// Full plays with ΔHR and an R-R ΔRMSSD, and how many full plays had none.
    static func measureFullPlays() -> (plays: [Measured], unmeasured: Int) {
        let songs = Dictionary(uniqueKeysWithValues: PersonaFixture.generator.catalogue.songs.map { ($0.songId, $0) })
        let c = SessionConstants.defaults
        var out: [Measured] = [], unmeasured = 0
        for r in PersonaFixture.records {
            let beats = r.rr
            let raw = MeasurementSeries(subject: r.profile.name, timestampsMs: beats.map(\.timestampMs), values: beats.map(\.rrMs))
            let rr = SubjectSeries.rr([raw], plausible: .defaults)[0]
            let nn = NNSeries.clean(timestampsMs: rr.timestampsMs, rrMs: rr.values, method: HRVOptions().artifactMethod)
            let physiology = ListenerPhysiology(hr: TimeSeries(r.hr.map { ($0.timestampMs, $0.bpm) }), nn: nn, sdnn: TimeSeries([]))
            for play in r.plays where play.playedS == play.mediaDurationS {
                guard let song = songs[play.songId], let end = play.endedAtMs else { continue }
                let bio = physiology.measure(.play(startMs: play.startedAtMs, endMs: end, constants: c), constants: c)
                guard let dHR = bio.hrDelta, let dRMSSD = bio.hrvDelta, bio.hrvSource == "rr" else {
                    unmeasured += 1
                    continue
                }
                let s = r.profile.sensitivity
                out.append(Measured(songId: play.songId, subject: r.profile.name,
                                    planted: (song.deltaHRBpm * s, song.deltaRMSSDMs * s), measured: (dHR, dRMSSD)))
            }
        }
        return (out, unmeasured)
    }

    /// Least-squares slope through the origin of measured on planted.
    static func slope(_ x: [Double], _ y: [Double]) -> Double {
        zip(x, y).reduce(0) { $0 + $1.0 * $1.1 } / x.reduce(0) { $0 + $1 * $1 }
    }

    func testFullPlaysExpressTheirPlantedEffect() {
        let (plays, unmeasured) = Self.measureFullPlays()
        print("full plays measured \(plays.count), without R-R RMSSD at both ends \(unmeasured)")
        XCTAssertGreaterThan(plays.count, 3000)
        XCTAssertLessThan(Double(unmeasured), 0.02 * Double(plays.count + unmeasured))
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
        let plays = Self.measureFullPlays().plays
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
        let plays = Self.measureFullPlays().plays
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
