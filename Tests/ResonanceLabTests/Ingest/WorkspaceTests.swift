import XCTest
@testable import ResonanceLab

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
            + "u,p1,s1,T,A,,,2026-01-05T10:00:00.000Z,,1e300,,NATURAL_END_OF_TRACK,false,\n", to: ws.file("plays.csv"))
        XCTAssertThrowsError(try ws.read(Play.self)) { error in
            XCTAssertEqual("\(error)", "\(ws.file("plays.csv")):2:10: 'media_duration_s' = 1e+300 is outside 0.0…604800.0")
        }
        try writeFixture("source_file,line,column,reason,raw\nx.csv,2.5,1,bad,\n", to: ws.file("rejects.csv"))
        XCTAssertThrowsError(try ws.read(Reject.self)) { error in
            XCTAssertEqual("\(error)", "\(ws.file("rejects.csv")):2:2: 'line' is not a whole count: '2.5'")
        }
    }
}

final class TableHeaderTests: XCTestCase {
    func testHeaderMustBeExactlyTheRowTypesNamingTheFirstDifference() throws {
        let ws = Workspace(path: try makeTempDir())
        // A renamed column: the reader names line 1 and the column that differs.
        try writeFixture("subject,timestamp,rr,source\nS1,2022-02-07T09:29:00.000Z,800,x\n", to: ws.file("rr.csv"))
        let expected = "\(ws.file("rr.csv")):1:3: header has 'rr' where 'rr_ms' is expected (header must be subject,timestamp,rr_ms,source)"
        XCTAssertThrowsError(try ws.read(RRInterval.self)) { XCTAssertEqual("\($0)", expected) }
        XCTAssertThrowsError(try ws.readSeries(RRInterval.self)) { XCTAssertEqual("\($0)", expected) }
        // A missing trailing column, and a short row.
        try writeFixture("subject,window_start\n", to: ws.file("hrv.csv"))
        XCTAssertThrowsError(try ws.read(HRVRow.self)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(ws.file("hrv.csv")):1:3: header has nothing where 'window_end' is expected"), "\(error)")
        }
        try writeFixture("source_file,line,column,reason,raw\nx.csv,2,1\n", to: ws.file("rejects.csv"))
        XCTAssertThrowsError(try ws.read(Reject.self)) { error in
            XCTAssertEqual("\(error)", "\(ws.file("rejects.csv")):2:4: row has 3 fields, the header 5")
        }
    }

    func testStageOutputsReadBackWhatTheyWrite() throws {
        let ws = Workspace(path: try makeTempDir())
        var window = HRVRow(subject: "a,b", windowStartMs: 60_000, windowEndMs: 360_000, nBeats: 350, artifactPct: 1.5, reliable: true)
        window.time.sdnn = 42.25
        window.frequency.lfHF = 1.5
        window.longTerm.sdann = .nan
        let whole = HRVRow(subject: "a,b", windowStartMs: nil, windowEndMs: nil, nBeats: 90_000, artifactPct: 2, reliable: false)
        try ws.write([window, whole])
        let back = try ws.read(HRVRow.self)
        XCTAssertEqual(back.count, 2)
        XCTAssertEqual(back[0].subject, "a,b")
        XCTAssertEqual(back[0].windowStartMs, 60_000)
        XCTAssertEqual(back[0].time.sdnn, 42.25)
        XCTAssertEqual(back[0].frequency.lfHF, 1.5)
        XCTAssertTrue(back[0].longTerm.sdann.isNaN, "NaN is written empty and read back as NaN")
        XCTAssertTrue(back[1].isWhole)
        XCTAssertFalse(back[1].reliable)
        // Written again from what was read: the same bytes.
        let first = try Data(contentsOf: URL(fileURLWithPath: ws.file("hrv.csv")))
        try ws.write(back)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: ws.file("hrv.csv"))), first)

        let coherence = [CoherenceRow(subject: "a", windowStartMs: 0, windowEndMs: 64_000, method: "coach", breathingHz: 0.1,
                                      peakHz: .nan, coherence: 0.75, nSamples: 256, source: "rr")]
        try ws.write(coherence)
        let c = try ws.read(CoherenceRow.self)
        XCTAssertEqual(c[0].coherence, 0.75)
        XCTAssertTrue(c[0].peakHz.isNaN)
        XCTAssertEqual(c[0].nSamples, 256)
    }
}

final class TableWriterTests: XCTestCase {
    /// The digest and row count taken while a table is written are the ones reading the
    /// committed file gives (a quoted line break is inside one row); a staged table that
    /// changes after it was written is digested again at the commit.
    func testCommitRecordsTheDigestTakenWhileWritingUnlessTheFileChanged() throws {
        let dir = try makeTempDir()
        let rejects = [Reject(sourceFile: "a.csv", line: 2, column: 3, reason: "not a number, see\nnote", raw: "x,\"y\""),
                       Reject(sourceFile: "b.csv", line: 9, column: 0, reason: "short row", raw: "1")]
        let session = try WorkspaceSession(path: dir, reads: [], writes: [Reject.fileName, HRSample.fileName],
                                           creating: true, note: { _ in })
        session.replacement = Manifest()
        let ws = Workspace(path: dir, session: session)
        try ws.write(rejects)
        try ws.write([HRSample(subject: "s", timestampMs: 0, bpm: 60, source: "t")])
        // Replaced after it was written (same size, new contents): the recorded digest is stale.
        let staged = try ws.output(HRSample.fileName)
        let changed = try String(contentsOfFile: staged, encoding: .utf8).replacingOccurrences(of: "60.0", with: "61.0")
        try Data(changed.utf8).write(to: URL(fileURLWithPath: staged), options: .atomic)
        try session.commit()
        let manifest = try Manifest.read(path: dir + "/manifest.json")
        for name in [Reject.fileName, HRSample.fileName] {
            let entry = try XCTUnwrap(manifest.table(name))
            XCTAssertEqual(entry, try TableDigest.of(file: dir + "/" + name, name: name), name)
        }
        XCTAssertEqual(manifest.table(Reject.fileName)?.rows, 2)
        XCTAssertEqual(manifest.table(HRSample.fileName)?.sha256, SHA256.hex(changed))
    }
}
