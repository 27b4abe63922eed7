import XCTest
@testable import ResonanceLab
import ResonanceTestSupport

final class WorkspaceTests: XCTestCase {
    func testCanonicalTablesRoundTripByteIdentically() throws {
        let ws = Workspace(path: try makeTempDir())
        let plays = [
            Play(subject: "S1", playId: "p1", songId: "s\"1", title: "Hello, World", artist: "A",
                 album: "", playlist: "Calm", startedAtMs: 1_644_226_071_123, endedAtMs: nil,
                 mediaDurationS: 215.5, playedS: nil, endReason: "NATURAL_END_OF_TRACK", skipped: false),
            Play(subject: "S1", playId: "p2", songId: "s2", title: "", artist: "", album: "", playlist: "",
                 startedAtMs: 1_644_226_300_000, endedAtMs: nil, mediaDurationS: 100, playedS: nil, endReason: "",
                 skipped: true, utcOffsetMin: -480),
        ]
        let rr = [RRInterval(subject: "S1", timestampMs: 0, rrMs: 812.5, source: "e4")]
        try ws.write(plays)
        try ws.write(rr)
        XCTAssertEqual(try ws.read(Play.self), plays)
        XCTAssertEqual(try ws.read(RRInterval.self), rr)
        let text = try String(contentsOfFile: ws.file("plays.csv"), encoding: .utf8)
        XCTAssertEqual(text.split(separator: "\n")[1],
                       "S1,p1,\"s\"\"1\",\"Hello, World\",A,,Calm,2022-02-07T09:27:51.123Z,,215.5,,NATURAL_END_OF_TRACK,false,")
        XCTAssertEqual(text.split(separator: "\n")[2], "S1,p2,s2,,,,,2022-02-07T09:31:40.000Z,,100.0,,,true,-480")
        let first = try Data(contentsOf: URL(fileURLWithPath: ws.file("plays.csv")))
        try ws.write(plays)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: ws.file("plays.csv"))), first)
        XCTAssertEqual(try ws.read(HRSample.self), [], "an absent table reads as empty")
    }

    func testBadCanonicalValueNamesFileLineColumn() throws {
        let ws = Workspace(path: try makeTempDir())
        try writeFixture("subject,timestamp,bpm,source\nS1,2022-02-07T09:29:00.000Z,abc,x\n", to: ws.file("hr.csv"))
        XCTAssertThrowsError(try ws.read(HRSample.self)) { error in
            XCTAssertEqual("\(error)", "\(ws.file("hr.csv")):2:3: 'bpm' is not a number: 'abc'")
        }
    }
}

final class BoundedFieldTests: XCTestCase {
    func testAbsurdDurationAndFractionalCountAreErrorsWithLineAndColumn() throws {
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(Play.header.joined(separator: ",") + "\n"
            + "u,p1,s1,T,A,,,2026-01-05T10:00:00.000Z,,1e300,,NATURAL_END_OF_TRACK,false\n", to: ws.file("plays.csv"))
        XCTAssertThrowsError(try ws.read(Play.self)) { error in
            XCTAssertEqual("\(error)", "\(ws.file("plays.csv")):2:10: 'media_duration_s' = 1e+300 is outside 0.0…604800.0")
        }
        try writeFixture("source_file,line,column,reason,raw\nx.csv,2.5,1,bad,\n", to: ws.file("rejects.csv"))
        XCTAssertThrowsError(try ws.read(Reject.self)) { error in
            XCTAssertEqual("\(error)", "\(ws.file("rejects.csv")):2:2: 'line' is not a whole count: '2.5'")
        }
    }
}
