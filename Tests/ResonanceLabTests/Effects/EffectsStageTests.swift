import XCTest
@testable import ResonanceLab

final class EffectsStageTests: XCTestCase {
    /// A play row with an HR change (or none) for hand-built effect tables.
    func row(_ id: String, _ subject: String, _ song: String, minute: Int64, hrDelta: Double?, skipped: Bool = false) -> SessionPlayRow {
        let start = ms("2022-02-07T20:00:00.000Z") + minute * 60_000
        let bio = hrDelta.map { WindowBiometrics(hrStart: 70, hrEnd: 70 + $0, hrvStart: nil, hrvEnd: nil, hrvSource: "", notes: []) } ?? .none
        return SessionPlayRow(subject: subject, sessionId: "\(subject):1", playId: id, songId: song, biometrics: bio,
                              quality: hrDelta == nil ? "no_physiology" : "ok", playlist: "evening", startedAtMs: start,
                              endedAtMs: start + 200_000, playedS: 200, listenFraction: 1, skipped: skipped,
                              context: "relaxation", timeSlot: "evening")
    }

    func testProductLearnsPerSessionContextFromKeptSessionsOnly() throws {
        // u1 plays s1 three times, each play's own context "work": twice in a kept
        // session whose context is "commute" (it began before 9:00), once in a session
        // dropped as too short (empty session id, no session context).
        var a = row("1", "u1", "s1", minute: 0, hrDelta: -4), b = row("2", "u1", "s1", minute: 10, hrDelta: -2)
        var dropped = row("3", "u1", "s1", minute: 60, hrDelta: 10)
        a.context = "work"; b.context = "work"; dropped.context = "work"
        a.sessionContext = "commute"; b.sessionContext = "commute"
        dropped.sessionId = ""; dropped.sessionContext = ""
        let out = try EffectsStage.run(PlayIndex([a, b, dropped]), models: [.ema, .mixed], registry: .defaults).reduce(EffectTables(), +)
        let ema = out.songs.filter { $0.model == "ema" && $0.metric == "delta_hr_bpm" }
        // The ema learns under the session's context, and never from the dropped play:
        // 0 → −1.6 → −1.76 over the two kept plays, as without the dropped one.
        XCTAssertEqual(Set(ema.map(\.context)), ["any", "commute"])
        for r in ema {
            XCTAssertEqual(r.effect.value ?? .nan, -1.76, accuracy: 1e-12, r.context)
            XCTAssertEqual(r.plays, 2, r.context)
        }
        // The mixed model (the toolkit's) keeps every play with physiology, by the play's context.
        XCTAssertEqual(out.songs.first { $0.model == "mixed" && $0.metric == "delta_hr_bpm" && $0.context == "any" }?.plays, 3)
    }

    func testPlaysWithoutPhysiologyCountInBehaviourOnly() throws {
        // u1 plays s1 three times: ΔHR −4, −2, and once with no physiology (skipped).
        let plays = [
            row("1", "u1", "s1", minute: 0, hrDelta: -4),
            row("2", "u1", "s1", minute: 10, hrDelta: -2),
            row("3", "u1", "s1", minute: 20, hrDelta: nil, skipped: true),
        ]
        let out = try EffectsStage.run(PlayIndex(plays), models: [.ema, .mixed], registry: .defaults).reduce(EffectTables(), +)
        func find(_ model: String, _ metric: String) -> SongEffectRow? {
            out.songs.first { $0.model == model && $0.metric == metric && $0.context == "any" }
        }
        // ema ΔHR: 0 → 0 + 0.4·(−4) = −1.6 → −1.6 + 0.4·(−2 + 1.6) = −1.76 (2 plays with HR).
        XCTAssertEqual(find("ema", "delta_hr_bpm")?.effect.value ?? .nan, -1.76, accuracy: 1e-12)
        XCTAssertEqual(find("ema", "delta_hr_bpm")?.plays, 2)
        // ema skip over all 3 plays: 0.5 → 0.3 → 0.18 → 0.18 + 0.4·0.82 = 0.508.
        XCTAssertEqual(find("ema", "skip")?.effect.value ?? .nan, 0.508, accuracy: 1e-12)
        XCTAssertEqual(find("ema", "skip")?.plays, 3)
        // Confidence after the third play (no biometrics): min(3/20, 0.7) = 0.15.
        XCTAssertEqual(find("ema", "skip")?.confidence ?? .nan, 0.15, accuracy: 1e-12)
        XCTAssertEqual(find("mixed", "delta_hr_bpm")?.plays, 2)
        XCTAssertEqual(find("mixed", "skip")?.plays, 3)
        // One song, one listener, equal start values, full plays: nothing to shrink towards
        // but itself, so the estimate is the mean (−4 − 2)/2 = −3; the ML residual variance
        // ((−4 + 3)² + (−2 + 3)²)/2 = 1 gives SE √(1/2) = 0.7071 and the 95 % interval
        // −3 ± 1.96·0.7071 = [−4.386, −1.614].
        let hr = try XCTUnwrap(find("mixed", "delta_hr_bpm"))
        XCTAssertEqual(hr.effect.value ?? .nan, -3, accuracy: 1e-9)
        XCTAssertEqual(hr.effect.se ?? .nan, 0.5.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(hr.effect.ciLow ?? .nan, -4.386, accuracy: 1e-3)
        XCTAssertEqual(hr.effect.ciHigh ?? .nan, -1.614, accuracy: 1e-3)
        // No play measured an RMSSD: no ΔRMSSD row of the song, the listener or the playlist, and no onset chosen for it.
        XCTAssertEqual(out.playlists.filter { $0.model == "ema" }.map(\.metric), ["delta_hr_bpm", "skip"])
        XCTAssertNil(out.songs.first { $0.metric == "delta_rmssd_ms" })
        XCTAssertNil(out.personas.first { $0.metric == "delta_rmssd_ms" })
        XCTAssertTrue(out.songs.allSatisfy { $0.effect.value != nil } && out.personas.allSatisfy { $0.effect.value != nil })
        XCTAssertEqual(out.onsets.map(\.metric), [.deltaHR])
    }

    func testEmptyInputGivesEmptyTables() throws {
        let out = try EffectsStage.run(PlayIndex([SessionPlayRow]()), models: EffectModel.allCases, registry: .defaults).reduce(EffectTables(), +)
        XCTAssertTrue(out.songs.isEmpty && out.personas.isEmpty && out.playlists.isEmpty)
    }
}
