import XCTest
@testable import ResonanceLab

/// The sessions stage holds a listener's heart rate and NN series forward in time, a piece
/// of the table at a time; every play and session must measure what the whole recording
/// gives it, and a recording the walk cannot follow must be read whole.
final class HeldPhysiologyTests: XCTestCase {
    private let t0 = ms("2022-02-07T08:00:00.000Z")

    /// Three days: a session each morning and evening (two plays, the second skipped), a
    /// lone one-play session (too short, dropped, its play still measured); heart rate every
    /// 7 s all day; R-R around the listening, with one beat doubled (an artifact) and a gap.
    private func fixture() -> (plays: [Play], hr: [HRSample], rr: [RRInterval]) {
        var plays: [Play] = [], rr: [RRInterval] = []
        func iso(_ t: Int64) -> String { Timestamp.iso(t) }
        for day in 0..<3 {
            for (n, hour) in [0, 11].enumerated() {
                let start = t0 + Int64(day) * 86_400_000 + Int64(hour) * 3_600_000
                plays.append(play("d\(day)-\(n)a", iso(start), iso(start + 200_000)))
                plays.append(play("d\(day)-\(n)b", iso(start + 200_000), iso(start + 400_000), song: "s2", played: 30, skipped: true))
                // R-R from 6 min before to 6 min after the session, with a 20 s gap inside.
                var t = start - 360_000, k = 0
                while t < start + 760_000 {
                    let wave: Double = 40 * sin(Double(k) / 5)
                    var v: Double = 800 + wave + Double(day * 7 + n)
                    if k == 150 { v *= 2 }
                    t += Int64(v)
                    if !(start + 100_000..<start + 120_000).contains(t) {
                        rr.append(RRInterval(subject: "u1", timestampMs: t, rrMs: v.rounded(), source: "e4"))
                    }
                    k += 1
                }
            }
        }
        plays.append(play("lone", iso(t0 + 5 * 3_600_000), iso(t0 + 5 * 3_600_000 + 60_000), media: 60))
        var hr: [HRSample] = []
        for s in stride(from: Int64(0), to: 259_200_000, by: 7_000) {
            let bpm = 60 + Double((s / 7_000) % 23)
            hr.append(HRSample(subject: "u1", timestampMs: t0 - 3_600_000 + s, bpm: bpm, source: "watch"))
        }
        return (plays, hr, rr)
    }

    private func measure(_ plays: [Play], _ held: HeldPhysiology) throws -> (SessionsOutput, [SessionPlayRow]) {
        var held = held, rows: [SessionPlayRow] = []
        let out = try SessionsStage.subject(SessionsStage.SubjectTables(plays: plays), physiology: &held,
                                            constants: .defaults, clock: LocalClock()) { rows.append($0) }
        return (out, rows)
    }

    private func streamed(_ ws: Workspace, pieceRecords: Int) throws -> HeldPhysiology {
        let hr = try SubjectIndex(HRSample.self, path: ws.file(HRSample.fileName), pieceRecords: pieceRecords)
        let rr = try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName), pieceRecords: pieceRecords)
        return .streamed(hr: HeartRateStream(hr, subject: "u1"),
                         nn: NNStream(rr, subject: "u1", method: .lipponen, plausible: .defaults), sdnn: [])
    }

    func testHeldForwardInTimeEveryPlayMeasuresAsOnTheWholeRecording() throws {
        let (plays, hr, rr) = fixture()
        let ws = Workspace(path: try makeTempDir())
        try ws.write(hr); try ws.write(rr)
        let nn = NNSeries.clean(timestampsMs: rr.map(\.timestampMs), rrMs: rr.map(\.rrMs), method: .lipponen)
        XCTAssertTrue(nn.artifact.contains { $0 != .none })
        let (whole, wholeRows) = try measure(plays, .whole(hr: hr, nn: nn, sdnn: []))
        XCTAssertEqual(whole.sessions.count, 6)
        XCTAssertEqual(whole.droppedShortSessions, 1)
        XCTAssertEqual(wholeRows.count, 13)
        XCTAssertEqual(wholeRows.filter { $0.biometrics.hrvSource == "rr" }.count, 12)
        for pieces in [1, 97, 8192] {
            let (out, rows) = try measure(plays, try streamed(ws, pieceRecords: pieces))
            XCTAssertEqual(out.sessions, whole.sessions, "pieces of \(pieces)")
            XCTAssertEqual(rows, wholeRows, "pieces of \(pieces)")
            XCTAssertEqual(out.overlaps, whole.overlaps)
        }
    }

    /// What is held is a stretch around the window, not the recording.
    func testHoldLetsGoOfWhatLiesBefore() throws {
        let (_, hr, rr) = fixture()
        let ws = Workspace(path: try makeTempDir())
        try ws.write(hr); try ws.write(rr)
        var held = try streamed(ws, pieceRecords: 50)
        let from = t0 + 86_400_000, through = from + 400_000
        try held.hold(fromMs: from, throughMs: through)
        XCTAssertEqual(held.now.hr.timesMs.first, hr.first { $0.timestampMs >= from }?.timestampMs)
        XCTAssertGreaterThan(held.now.hr.timesMs.last ?? 0, through)
        XCTAssertLessThan(held.now.hr.timesMs.count, Int((through - from) / 7_000) + 60)
        XCTAssertGreaterThanOrEqual(held.now.nn.timeMs.first ?? 0, Double(from))
        XCTAssertGreaterThan(held.now.nn.timeMs.last ?? 0, Double(through))
        XCTAssertLessThan(held.now.nn.count, rr.count / 4)
    }

    /// Rows that go back in time, or heart rate of two sources (whose rule needs every
    /// minute), stop the walk: the stage then reads the subject whole.
    func testAWalkThatCannotFollowTheRecordingStops() throws {
        let (plays, hr, rr) = fixture()
        let ws = Workspace(path: try makeTempDir())
        var back = hr
        back.swapAt(1000, 1001)
        try ws.write(back); try ws.write(rr)
        XCTAssertThrowsError(try measure(plays, try streamed(ws, pieceRecords: 64))) { XCTAssertTrue($0 is OutOfOrder, "\($0)") }
        var two = hr
        two[5000].source = "strap"
        try ws.write(two)
        XCTAssertThrowsError(try measure(plays, try streamed(ws, pieceRecords: 64))) {
            XCTAssertTrue($0 is HeartRateStream.SeveralSources, "\($0)")
        }
        var rrBack = rr
        rrBack.swapAt(10, 11)
        try ws.write(hr); try ws.write(rrBack)
        XCTAssertThrowsError(try measure(plays, try streamed(ws, pieceRecords: 64))) { XCTAssertTrue($0 is OutOfOrder, "\($0)") }
    }
}
