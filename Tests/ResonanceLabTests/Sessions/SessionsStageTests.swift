import XCTest
@testable import ResonanceLab

final class SessionsStageTests: XCTestCase {
    func testEndToEndThroughAWorkspace() throws {
        let ws = Workspace(path: try makeTempDir())
        let t0 = ms("2022-02-07T20:00:00.000Z")
        // Two plays 20:00–20:03:20 and 20:03:20–20:06:40 with HR every 5 s falling
        // from 72 to 62; a third play next day 09:00 with no physiology nearby.
        let plays = [
            play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:03:20.000Z", song: "s1"),
            play("b", "2022-02-07T20:03:20.000Z", "2022-02-07T20:06:40.000Z", song: "s2", played: 30, skipped: true),
            play("c", "2022-02-08T09:00:00.000Z", "2022-02-08T09:06:00.000Z", song: "s1", media: 360),
        ]
        let hr = stride(from: 0, through: 400, by: 5).map { s in
            HRSample(subject: "u1", timestampMs: t0 + Int64(s) * 1000, bpm: 72 - Double(s) / 40, source: "test")
        }
        try ws.write(plays)
        try ws.write(hr)
        let out = try SessionsStage.run(plays: try ws.read(Play.self), hr: try ws.read(HRSample.self), nn: [:], sdnn: [],
                                        sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual(out.sessions.map(\.sessionId), ["u1:1", "u1:2"])
        let s = out.sessions[0]
        XCTAssertEqual(s.plays, 2); XCTAssertEqual(s.skips, 1); XCTAssertEqual(s.skipRate, 0.5)
        // Listen fractions 200/200 = 1 and 30/200 = 0.15 → 0.575.
        XCTAssertEqual(s.avgListen ?? .nan, 0.575, accuracy: 1e-12)
        XCTAssertEqual(s.context, "relaxation"); XCTAssertEqual(s.timeSlot, "evening")
        // Play a: first 30 s samples at 0…30 s → median at 15 s = 72 − 15/40 = 71.625;
        // last 30 s: 170…200 s → median 185 s = 72 − 185/40 = 67.375; Δ = −4.25.
        let a = out.plays[0]
        XCTAssertEqual(a.biometrics.hrStart ?? .nan, 71.625, accuracy: 1e-12)
        XCTAssertEqual(a.biometrics.hrDelta ?? .nan, -4.25, accuracy: 1e-12)
        XCTAssertEqual(a.quality, "ok")
        // Play c: kept (behaviour counts), flagged, no biometrics.
        let c = out.plays[2]
        XCTAssertEqual(c.playId, "c"); XCTAssertEqual(c.sessionId, "u1:2")
        XCTAssertEqual(c.quality, "no_physiology"); XCTAssertNil(c.biometrics.hrDelta)
        XCTAssertEqual(c.context, "work")
        // Session score of session 1 with unknown ΔHRV and sleep:
        //   0.25·0.5 + 0.30·0.5 + 0.25·0.575 + 0.20·0.5 = 0.125 + 0.15 + 0.14375 + 0.1 = 0.51875
        XCTAssertEqual(s.sessionScore, 0.51875, accuracy: 1e-12)
        // Round trip through the CSV tables.
        try ws.write(out.sessions); try ws.write(out.plays)
        XCTAssertEqual(try ws.read(SessionRow.self), out.sessions)
        XCTAssertEqual(try ws.read(SessionPlayRow.self), out.plays)
    }

    /// Listeners in byte order of their UTF-8 ids: "e\u{301}x" (bytes 65 CC 81 78)
    /// before "f" (66), where Swift's String order, on the composed form é (U+00E9),
    /// puts "f" first.
    func testListenersAreInByteOrder() throws {
        let plays = ["f", "e\u{301}x"].map {
            play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:10:00.000Z", media: 600, subject: $0)
        }
        let out = try SessionsStage.run(plays: plays, hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual(out.sessions.map { Array($0.subject.utf8) }, [[0x65, 0xCC, 0x81, 0x78], [0x66]])
    }

    /// A subject with heart rate only, of two sources in the same minutes: the overlaps
    /// are counted although it has no plays (the denser source wins each minute).
    func testHeartRateOnlySubjectsCountTheirSourcesOverlaps() throws {
        let t0 = ms("2022-02-07T20:00:00.000Z")
        let hr = (0..<6).map { HRSample(subject: "h", timestampMs: t0 + Int64($0) * 10_000, bpm: 60, source: "watch") }
            + (0..<2).map { HRSample(subject: "h", timestampMs: t0 + Int64($0) * 20_000 + 5_000, bpm: 70, source: "strap") }
        let out = try SessionsStage.run(plays: [], hr: hr, nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual(out.overlaps.hrMinutes, 1)
        XCTAssertEqual(out.overlaps.hrSamplesSetAside, 2)
        XCTAssertTrue(out.sessions.isEmpty)
    }

    func testEmptyWorkspaceGivesEmptyTables() throws {
        let out = try SessionsStage.run(plays: [], hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertTrue(out.sessions.isEmpty); XCTAssertTrue(out.plays.isEmpty)
    }
}
