import Foundation
import XCTest
@testable import ResonanceLab

/// The alternative response laws plant what docs/personas.md says, and the standard
/// law's outputs are untouched by their existence.
final class ResponseLawTests: XCTestCase {
    /// Threshold θ = 40 s, τon = 45 s: f(u) = 1 − e^{−(u−40)/45} after 40 s.
    func testThresholdShapeByHand() {
        let shape = ResponseShape(onsetS: 45, releaseS: 6, thresholdS: 40)
        XCTAssertEqual(shape.onset(39.9), 0)
        // f(60) = 1 − e^{−20/45} = 1 − 0.641180 = 0.358820.
        XCTAssertEqual(shape.onset(60), 0.358820, accuracy: 1e-6)
        // κHR(225) = f(207.5) − f(12.5) = 1 − e^{−167.5/45} − 0 = 1 − 0.024180 = 0.975820.
        XCTAssertEqual(shape.expressionHR(seconds: 225), 0.975820, accuracy: 1e-6)
        // κRMSSD(225) = mean of f over the last minute minus over the first:
        // last = 1 − (45/60)·e^{−125/45}·(1 − e^{−60/45}) = 1 − 0.75 × 0.062177 × 0.736403 = 0.965660;
        // first = (1/60)∫_{40}^{60}(1 − e^{−(u−40)/45})du = (20 − 45 × 0.358820)/60 = 0.064218.
        XCTAssertEqual(shape.expressionRMSSD(seconds: 225), 0.965660 - 0.064218, accuracy: 1e-4)
    }

    /// Overshoot o = 1 adapting with τ = 60 s: f(60) = (1 − e^{−60/45})(1 + e^{−1}) = 0.736403 × 1.367879.
    func testOvershootShapeByHand() {
        let shape = ResponseShape(onsetS: 45, releaseS: 6, overshoot: 1, adaptS: 60)
        XCTAssertEqual(shape.onset(60), 1.007310, accuracy: 1e-6)
        // Above the plateau early, back near it late: f(600) = (1 − e^{−13.33})(1 + e^{−10})
        // = (1 − 1.62·10⁻⁶)(1 + 4.540·10⁻⁵) = 1.0000438.
        XCTAssertEqual(shape.onset(600), 1.0000438, accuracy: 1e-7)
    }

    /// A pure onset of another τ follows the standard law's closed forms with that τ
    /// (the general rule integrates numerically).
    func testOnsetLawsMatchTheClosedFormWithTheirTimeConstant() {
        let fast = ResponseShape(onsetS: 20, releaseS: 6)
        // κHR(225) = e^{−12.5/20} − e^{−207.5/20} = 0.535261 − 0.000031 = 0.535230.
        XCTAssertEqual(fast.expressionHR(seconds: 225), 0.535230, accuracy: 1e-6)
        // κRMSSD(225) = (20/60)(1 − e^{−3})(1 − e^{−165/20}) = 0.333333 × 0.950213 × 0.999739 = 0.316655.
        XCTAssertEqual(fast.expressionRMSSD(seconds: 225), 0.316655, accuracy: 1e-5)
    }

    /// The standard shape is the standard law (bit for bit: `testStandardLawTablesAreUnchanged`).
    func testStandardShapeIsTheStandardLaw() {
        let r = MusicResponse(startS: 100, endS: 325, durationS: 225, deltaHRBpm: -4, deltaRMSSDMs: 6)
        XCTAssertEqual(r.shape, .standard)
        XCTAssertEqual(r.plateauHRBpm, -4 / (exp(-12.5 / 45) - exp(-(225 - 17.5) / 45)))
        XCTAssertEqual(r.value(at: 160).hrBpm, r.plateauHRBpm * (1 - exp(-60.0 / 45)), accuracy: 1e-12)
        XCTAssertEqual(r.value(at: 331).hrBpm, r.plateauHRBpm * (1 - exp(-225.0 / 45)) * exp(-1), accuracy: 1e-12)
    }

    /// Long release τoff = 60 s: a minute after the play the response is e^{−1} of its
    /// end value, so it reaches into the next play's first window.
    func testLongReleaseCarriesIntoTheNextMinute() {
        let shape = ResponseShape(onsetS: 45, releaseS: 60)
        let r = MusicResponse(startS: 0, endS: 225, durationS: 225, deltaHRBpm: -4, deltaRMSSDMs: 6, shape: shape)
        XCTAssertEqual(r.value(at: 285).hrBpm, r.value(at: 225).hrBpm * exp(-1), accuracy: 1e-12)
        XCTAssertEqual(r.value(at: 255).hrBpm / r.value(at: 225).hrBpm, 0.606531, accuracy: 1e-6)
        XCTAssertFalse(r.isOver(at: 225 + 13 * 60))
        XCTAssertTrue(r.isOver(at: 225 + 14 * 60 + 1))
    }

    /// Drift: effect × (1 + a·(2t/T − 1)) × sensitivity; interaction: added after.
    func testDriftAndInteractionByHand() {
        let song = CatalogueSong(songId: "S001", title: "", artist: "", album: "", genre: 4, durationS: 225,
                                 popularity: 1, deltaHRBpm: -2, deltaRMSSDMs: 3)
        let day = 86_400.0
        var law = ListenerLaw(law: ResponseLaw(.drift, strength: .severe), shape: .standard, drift: [0.4], interactions: [],
                              noiseScale: 0, studyStartS: 10 * day, studyLengthS: 30 * day)
        // Start: −2 × 0.6 × 1.5 = −1.8; middle: −3; end: −2 × 1.4 × 1.5 = −4.2.
        XCTAssertEqual(law.effect(song, index: 0, sensitivity: 1.5, startS: 10 * day).hrBpm, -1.8, accuracy: 1e-12)
        XCTAssertEqual(law.effect(song, index: 0, sensitivity: 1.5, startS: 25 * day).hrBpm, -3, accuracy: 1e-12)
        XCTAssertEqual(law.effect(song, index: 0, sensitivity: 1.5, startS: 40 * day).rmssdMs, 3 * 1.4 * 1.5, accuracy: 1e-12)
        law = ListenerLaw(law: ResponseLaw(.interaction), shape: .standard, drift: [], interactions: [(hr: 0.7, rmssd: -1)],
                          noiseScale: 0, studyStartS: 0, studyLengthS: day)
        // −2 × 0.5 + 0.7 = −0.3; 3 × 0.5 − 1 = 0.5.
        let e = law.effect(song, index: 0, sensitivity: 0.5, startS: 0)
        XCTAssertEqual(e.hrBpm, -0.3, accuracy: 1e-12)
        XCTAssertEqual(e.rmssdMs, 0.5, accuracy: 1e-12)
    }

    func testDisturbancesAndHeavyTails() {
        let ramp = Disturbance(startS: 0, endS: 200, hrBpm: 4, rmssdMs: -2, ramp: true)
        XCTAssertEqual(ramp.value(at: 50).hrBpm, 1)
        XCTAssertEqual(ramp.value(at: 200).rmssdMs, -2)
        XCTAssertEqual(ramp.value(at: 201).hrBpm, 0)
        let burst = Disturbance(startS: 10, endS: 20, hrBpm: 25, rmssdMs: 40, ramp: false)
        XCTAssertEqual(burst.value(at: 15).hrBpm, 25)
        XCTAssertEqual(burst.value(at: 10).hrBpm, 0)
        // Student t with 5 df: variance 5/3; 40 000 draws, sd of the estimate ≈ 0.03.
        var random = SeededRandom(seed: 11)
        let x = (0..<40_000).map { _ in ResponseLaw.studentT(5, random: &random) }
        XCTAssertEqual(Stats.mean(x.map { $0 * $0 }), 5.0 / 3, accuracy: 0.15)
    }

    /// The law's parameters at both strengths are those of docs/personas.md.
    func testParametersAtBothStrengths() {
        XCTAssertEqual(ResponseLaw(.fastOnset, strength: .severe).onsetS, 20)
        XCTAssertEqual(ResponseLaw(.fastOnset, strength: .severe).minOnsetS, 15)
        XCTAssertEqual(ResponseLaw(.slowOnset, strength: .severe).onsetS, 120)
        XCTAssertEqual(ResponseLaw(.slowOnset).onsetS, 80)
        XCTAssertEqual(ResponseLaw(.longRelease, strength: .severe).releaseS, 60)
        XCTAssertEqual(ResponseLaw(.threshold).thresholdS, 15)
        XCTAssertEqual(ResponseLaw(.drift, strength: .severe).drift, 0.5)
        XCTAssertEqual(ResponseLaw(.noisy, strength: .severe).noiseDF, 3)
        XCTAssertEqual(ResponseLaw(.drift, strength: .severe).label, "drift/severe")
    }

    /// The fast onset's listener spread stops at its floor: with ten listeners at
    /// 20 s·e^{0.5·z} (seed 202: six draws below 15 s) every realised τ is ≥ 15 s and
    /// some sit on the floor; the standard-strength spread of the slow onset never reaches it.
    func testFastOnsetStopsAtItsFloor() {
        func onsets(_ law: ResponseLaw) -> [Double] {
            PersonaGenerator(personas: PersonaProfile.all, days: 1, seed: 202, law: law).truth()
                .filter { $0.kind == .responseLaw && !$0.subject.isEmpty && $0.metric == "onset_s" }.map(\.value)
        }
        let fast = onsets(ResponseLaw(.fastOnset, strength: .severe))
        XCTAssertEqual(fast.count, 10)
        XCTAssertEqual(fast.min(), 15)
        XCTAssertEqual(fast.filter { $0 == 15 }.count, 6)
        XCTAssertGreaterThan(onsets(ResponseLaw(.slowOnset, strength: .severe)).min() ?? 0, 15)
    }

    /// The threshold's listener spread stops at its cap: at seed 401 one listener would
    /// realise 40 s·e^{0.5·z} ≈ 165 s, more than the shortest songs last; it realises 60 s.
    func testThresholdStopsAtItsCap() {
        let thresholds = PersonaGenerator(personas: PersonaProfile.all, days: 1, seed: 401, law: ResponseLaw(.threshold, strength: .severe))
            .truth().filter { $0.kind == .responseLaw && !$0.subject.isEmpty && $0.metric == "threshold_s" }
        XCTAssertEqual(thresholds.count, 10)
        XCTAssertEqual(thresholds.first { $0.subject == "NightShiftNurse" }?.value, 60)
        XCTAssertEqual(thresholds.map(\.value).max(), 60)
        XCTAssertEqual(thresholds.first { $0.subject == "CardiacRehab" }?.value ?? 0, 28.6669, accuracy: 1e-3)
    }

    /// A generated play's planted response follows the law and the truth it writes:
    /// under drift, plateau × κ(D) of a play starting at t is song effect × (1 + a(2t/T − 1))
    /// × sensitivity with a and the effect read from truth.csv's rows.
    func testGeneratedPlaysFollowTheirLawAndTruth() throws {
        let p = try XCTUnwrap(PersonaProfile.named("RemoteDeveloper"))
        for law in [ResponseLaw(.drift, strength: .severe), ResponseLaw(.threshold, strength: .severe)] {
            let gen = PersonaGenerator(personas: [p], days: 4, seed: 9, law: law)
            let truth = gen.truth()
            let seed = gen.seed(of: p), catalogue = gen.catalogue
            var dayRandom = PersonaSimulator.stream("days", seed: seed), schedule = PersonaSimulator.stream("schedule", seed: seed)
            var listen = PersonaSimulator.stream("listening", seed: seed)
            let days = PersonaDay.series(p, days: 4, random: &dayRandom)
            var timeline = PersonaTimeline(firstDay: gen.firstDay, days: 4)
            timeline.placeSleeps(p, days: days, random: &schedule)
            timeline.placeWorkouts(p, days: 4, random: &schedule) { _ in 1 }
            let library = PersonaLibrary(p, catalogue: catalogue, random: &listen)
            let listener = gen.listenerLaw(of: p)
            let sessions = ListeningSimulator.sessions(p, library: library, catalogue: catalogue, timeline: &timeline,
                                                       days: 4, law: listener, random: &listen)
            let plays = sessions.flatMap { $0.plays(subject: p.name, catalogue: catalogue) }, responses = sessions.flatMap(\.responses)
            XCTAssertGreaterThan(plays.count, 20)
            let threshold = truth.first { $0.kind == .responseLaw && $0.subject == p.name && $0.metric == "threshold_s" }
            for (play, response) in zip(plays, responses).prefix(30) {
                let song = try XCTUnwrap(catalogue.songs.first { $0.songId == play.songId })
                let effect = try XCTUnwrap(truth.first { $0.kind == .songEffect && $0.entity == song.songId && $0.metric == "delta_hr_bpm" }).value
                var expected = effect * p.sensitivity
                if law.name == .drift {
                    let a = try XCTUnwrap(truth.first { $0.kind == .songEffectDrift && $0.entity == song.songId }).value
                    let t = (Double(play.startedAtMs) / 1000 - Double(gen.firstDay) * 86_400) / (4 * 86_400)
                    expected *= 1 + a * (2 * t - 1)
                    XCTAssertEqual(response.shape, .standard)
                } else {
                    XCTAssertEqual(response.shape.thresholdS, try XCTUnwrap(threshold).value)
                }
                XCTAssertEqual(response.plateauHRBpm * response.shape.expressionHR(seconds: song.durationS), expected, accuracy: 1e-9)
            }
        }
    }

    /// The standard law's tables, digest for digest (three personas × 3 days, seed 5):
    /// `rr.csv`, `plays.csv`, `sleep.csv` and `truth.csv` as generated before the laws
    /// existed; `hr.csv` since NewMom's walks follow the product's persona (four 9-minute
    /// walks a week), `daily.csv` and `manifest.json` since every value of a day is
    /// measured from the simulated signals (generator 1.1.0), and `manifest.json` whenever an
    /// engine version it lists changes.
    func testStandardLawTablesAreUnchanged() throws {
        let ws = Workspace(path: try makeTempDir())
        let names = ["NewMom", "YoungAthlete", "CardiacRehab"]
        try PersonaGenerator(personas: names.compactMap(PersonaProfile.named), days: 3, seed: 5).generate(into: ws, jobs: 2)
        let expected = [
            "hr.csv": "800464e7fa6dbe0bf469b5c15d87dcb487dc09e75962093db20d4d7ecfef7bd2",
            "rr.csv": "a3b59965b5cbe17bcb16ffac327c9d77fb67d1a450f52665e40e449bb74933b0",
            "plays.csv": "ca6a81f589dfe712435a6997536cda07f520e1ae370f5b7cb298fcbf4ac34818",
            "sleep.csv": "67df9c9ff8f33305a767aa87694448554f37b8cbe112f4f31e711a8505c6405e",
            "daily.csv": "0c96fe0ee10d81afab241f597b871937422fc402e58194552b4dbca18032a753",
            "truth.csv": "ab1b6381383c47437a47f143357953bea11ce52e992f98d89c7fbd704d72598e",
            "manifest.json": "7f61c7a14a2f4a9c5c4737a2243705a93941f84f5c5ede93257ea7ca8a9ac3bf",
        ]
        for (file, digest) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(try SHA256.hex(ofFile: ws.file(file)), digest, file)
        }
    }

    /// Another law changes the physiology only: the same plays, sleep and workouts,
    /// other heart rate; its truth adds the law's rows after the standard ones.
    func testLawsChangeOnlyTheMusicResponse() throws {
        let names = ["NewMom", "WeekendWarrior"].compactMap(PersonaProfile.named)
        let standard = try PersonaGenerator(personas: names, days: 2, seed: 3).simulate(jobs: 2)
        let gen = PersonaGenerator(personas: names, days: 2, seed: 3, law: ResponseLaw(.noisy, strength: .severe))
        let noisy = try gen.simulate(jobs: 2)
        for (a, b) in zip(standard, noisy) {
            XCTAssertEqual(a.plays, b.plays)
            XCTAssertEqual(a.sleep, b.sleep)
            XCTAssertEqual(a.workouts, b.workouts)
            XCTAssertNotEqual(a.hr, b.hr)
        }
        let base = PersonaGenerator(personas: names, days: 2, seed: 3).truth(), truth = gen.truth()
        XCTAssertEqual(Array(truth.prefix(base.count)), base)
        // 14 law parameters + 4 realised values per persona.
        XCTAssertEqual(truth.count - base.count, 14 + 4 * 2)
        XCTAssertTrue(truth.contains { $0.kind == .responseLaw && $0.metric == "noise_df" && $0.value == 3 })
    }
}
