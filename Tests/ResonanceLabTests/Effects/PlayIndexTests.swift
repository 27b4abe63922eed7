import XCTest
@testable import ResonanceLab

/// `PlayIndex(reading:)` reads `session_plays.csv` a row at a time into columns; it must
/// give what holding every row and sorting them gives.
final class PlayIndexTests: XCTestCase {
    let t0 = ms("2026-01-05T08:00:00.000Z")

    func row(_ subject: String, _ playId: String, _ song: String, minute: Int64, context: String, sessionContext: String,
             slot: String, playlist: String, hr: (Double, Double)?, hrv: (Double, Double?)?, source: String = "rr") -> SessionPlayRow {
        let bio = WindowBiometrics(hrStart: hr?.0, hrEnd: hr?.1, hrvStart: hrv?.0, hrvEnd: hrv?.1 ?? nil,
                                   hrvSource: hrv == nil ? "" : source, notes: [])
        let start = t0 + minute * 60_000
        return SessionPlayRow(subject: subject, sessionId: sessionContext.isEmpty ? "" : "\(subject):1", playId: playId,
                              songId: song, biometrics: bio, quality: "ok", playlist: playlist, startedAtMs: start,
                              endedAtMs: start + 150_000, playedS: 150, listenFraction: 0.75, skipped: minute == 5,
                              context: context, timeSlot: slot, sessionContext: sessionContext)
    }

    /// Ids with commas and quotes, an empty context, a play of a dropped session, a missing
    /// ΔRMSSD (HRV at the start only), an HRV that is not from R-R, and two plays of one
    /// listener in the same millisecond (ordered by play id as text: p10 before p2), all
    /// in a file order that is not play order.
    func testColumnsReadRowByRowMatchTheRowsSorted() throws {
        let calm = "Calm, \"quoted\""
        let rows = [
            row("b,1", "p2", "s\"x", minute: 0, context: "work", sessionContext: "work", slot: "morning", playlist: calm,
                hr: (70, 68), hrv: (20, 25)),
            row("a\"q", "p9", "s,1", minute: 5, context: "", sessionContext: "", slot: "evening", playlist: "",
                hr: nil, hrv: nil),
            row("b,1", "p10", "s,1", minute: 0, context: "work", sessionContext: "work", slot: "morning", playlist: calm,
                hr: (71, 72), hrv: (22, 21)),
            row("a\"q", "p1", "s\"x", minute: 1, context: "commute", sessionContext: "commute", slot: "morning",
                playlist: calm, hr: (80, 83), hrv: (30, 28), source: "sdnn_sample"),
            row("b,1", "p3", "s2", minute: 3, context: "work", sessionContext: "work", slot: "morning", playlist: "Focus",
                hr: (66, 64), hrv: (20, nil)),
        ]
        let ws = Workspace(path: try makeTempDir())
        try ws.write(rows)
        let x = try PlayIndex(reading: ws)

        // Worked answer: play order p1, p9 (a"q), then p10, p2 (same start), p3 (b,1).
        XCTAssertEqual(x.subjects, ["a\"q", "b,1"])
        XCTAssertEqual(x.songIds, ["s\"x", "s,1", "s2"])
        XCTAssertEqual(x.contexts, ["", "commute", "work"])
        XCTAssertEqual(x.sessionContexts, ["commute", "work"])
        XCTAssertEqual(x.slots, ["evening", "morning"])
        XCTAssertEqual(x.listener, [0, 0, 1, 1, 1])
        XCTAssertEqual(x.song, [0, 1, 1, 0, 2])
        XCTAssertEqual(x.context, [1, 0, 2, 2, 2])
        XCTAssertEqual(x.sessionContext, [0, -1, 1, 1, 1])
        XCTAssertEqual(x.slot, [1, 0, 1, 1, 1])
        XCTAssertEqual((0..<x.count).map(x.previous), [nil, 0, nil, 2, 3])
        XCTAssertEqual(x.measures.map(\.hrDelta), [3, nil, 1, -2, -2])
        XCTAssertEqual(x.measures.map(\.hrvDelta), [-2, nil, -1, 5, nil])
        XCTAssertEqual(x.measures.map(\.hrvStart), [30, nil, 22, 20, 20])
        XCTAssertEqual(x.measures.map(\.hrvFromRR), [false, false, true, true, true])
        XCTAssertEqual(x.measures.map(\.skipped), [false, true, false, false, false])
        XCTAssertEqual(x.playlists.map(\.name), [calm, "Focus"])
        XCTAssertEqual(x.playlists.map { $0.songs.map { [$0.song, $0.plays] } }, [[[0, 2], [1, 1]], [[2, 1]]])

        // The definition the columns replace: every row held, sorted by subject, start and
        // play id, each id's index its rank among the distinct ids.
        let sorted = try ws.read(SessionPlayRow.self)
            .sorted { ($0.subject, $0.startedAtMs, $0.playId) < ($1.subject, $1.startedAtMs, $1.playId) }
        XCTAssertEqual(sorted.map(\.playId), ["p1", "p9", "p10", "p2", "p3"])
        func names(_ values: [String]) -> [String] { Set(values).sorted() }
        XCTAssertEqual(x.subjects, names(sorted.map(\.subject)))
        XCTAssertEqual(x.songIds, names(sorted.map(\.songId)))
        XCTAssertEqual(x.contexts, names(sorted.map(\.context)))
        XCTAssertEqual(x.sessionContexts, names(sorted.map(\.sessionContext).filter { !$0.isEmpty }))
        XCTAssertEqual(x.slots, names(sorted.map(\.timeSlot)))
        for (p, r) in sorted.enumerated() {
            XCTAssertEqual(x.subjects[Int(x.listener[p])], r.subject, r.playId)
            XCTAssertEqual(x.songIds[Int(x.song[p])], r.songId, r.playId)
            XCTAssertEqual(x.contexts[Int(x.context[p])], r.context, r.playId)
            XCTAssertEqual(x.sessionContext[p] < 0 ? "" : x.sessionContexts[Int(x.sessionContext[p])], r.sessionContext, r.playId)
            XCTAssertEqual(x.slots[Int(x.slot[p])], r.timeSlot, r.playId)
            let m = x.measures[p]
            XCTAssertEqual([m.startedAtMs, m.endedAtMs], [r.startedAtMs, r.endedAtMs], r.playId)
            XCTAssertEqual([m.playedS, m.listenFraction, m.fullDurationS], [r.playedS, r.listenFraction, 200], r.playId)
            XCTAssertEqual([m.hrStart, m.hrDelta, m.hrvStart, m.hrvDelta],
                           [r.biometrics.hrStart, r.biometrics.hrDelta, r.biometrics.hrvStart, r.biometrics.hrvDelta], r.playId)
            XCTAssertEqual([m.skipped, m.hrvFromRR], [r.skipped, r.biometrics.hrvSource == "rr"], r.playId)
            XCTAssertEqual(LearnedPlay(m, impact: ImpactConstants(registry: .defaults)),
                           LearnedPlay(r, impact: ImpactConstants(registry: .defaults)), r.playId)
        }
        // Rows in memory and rows read from the file index alike.
        XCTAssertEqual(PlayIndex(rows).song, x.song)
        XCTAssertEqual(PlayIndex(rows).measures.map(\.startedAtMs), x.measures.map(\.startedAtMs))
    }
}
