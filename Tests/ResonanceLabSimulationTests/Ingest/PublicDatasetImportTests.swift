import XCTest
@testable import ResonanceLab

/// Imports of the shared public datasets (skipped when RESONANCE_DATASETS is unset).
final class PublicDatasetImportTests: XCTestCase {
    func testEveryStressPredictSubjectImportsWithLabels() throws {
        let root = try datasetsRoot() + "/stress-predict"
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(m.subjects.map(\.subject), (1...26).map { $0 < 10 ? "S0\($0)" : "S\($0)" })
        let labelled = Set(try ws.read(LabelInterval.self).filter { $0.label != E4.Tags.label }.map(\.subject))
        XCTAssertEqual(labelled.count, 25, "S02…S26 carry stress/baseline labels")
        XCTAssertFalse(labelled.contains("S01"), "S01 has no labels in labels.csv")
        // Every data line of every file is accounted for: E4 HR has 2 metadata lines,
        // IBI 1, tags none; labels.csv has one header line.
        for source in m.sources {
            let lines = try nonEmptyLines(root + "/" + source.path.dropFirst("stress-predict/".count))
            let metadata = ["e4-hr": 2, "e4-ibi": 1, "e4-tags": 0, "stress-predict-labels": 1][source.format]!
            XCTAssertEqual(source.rowsRead, lines - metadata, source.path)
        }
        XCTAssertEqual(m.sources.count, 1 + 26 * 3)
        // Every other file is listed with its reason: the licence, and each subject's raw
        // E4 channels and info.txt (in byte order: upper case first).
        let unread = ["ACC.csv", "BVP.csv", "EDA.csv", "TEMP.csv", "info.txt"]
        XCTAssertEqual(m.skipped?.map(\.path), ["stress-predict/LICENSE"] + (1...26).flatMap { n in
            unread.map { "stress-predict/\(n < 10 ? "S0\(n)" : "S\(n)")/\($0)" }
        })
        XCTAssertEqual(m.skipped?.filter { $0.path.hasSuffix("/BVP.csv") }.map(\.reason),
                       Array(repeating: "Empatica E4 BVP signal (blood volume pulse, PPG): not used by the toolkit", count: 26))
        // Only S17 and S18 carry markers outside their recordings.
        XCTAssertEqual(m.subjects.filter { $0.markersOutsideRecording != nil }.map(\.subject), ["S17", "S18"])
    }

    /// S17 carries two tags about 11.2–11.5 h and S18 one about 11.8 h before their
    /// recordings start: kept in labels.csv, counted and flagged per subject, with +12 h
    /// (an AM/PM slip) as the probable repair, on stderr too; nothing moved.
    func testStressPredictMarkersBeforeTheRecordingAreFlaggedWithTheAMPMRepair() throws {
        let root = try datasetsRoot() + "/stress-predict"
        var warnings: [String] = []
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [root + "/S17", root + "/S18"], workspace: ws, options: options)
        assertAccounting(m)
        XCTAssertEqual(m.subjects.map(\.subject), ["S17", "S18"])
        XCTAssertEqual(m.skipped?.map(\.path), ["S17", "S18"].flatMap { s in
            ["ACC.csv", "BVP.csv", "EDA.csv", "TEMP.csv", "info.txt"].map { "\(s)/\($0)" }
        })
        let flags = try m.subjects.map { try XCTUnwrap($0.markersOutsideRecording, $0.subject) }
        XCTAssertEqual(flags.map(\.count), [2, 1])
        XCTAssertEqual(flags.map(\.markers), [7, 7])
        XCTAssertEqual(flags.map(\.probableOffsetHours), [12, 12])
        for (flag, hours) in zip(flags, [11.2...11.5, 11.8...11.85]) {
            let start = try XCTUnwrap(Timestamp.parseISO(flag.recordingStart)?.ms)
            for time in flag.times {
                let before = Double(start - (Timestamp.parseISO(time)?.ms ?? 0)) / 3_600_000
                XCTAssertTrue(hours.contains(before), "\(time) is \(before) h before \(flag.recordingStart)")
            }
        }
        XCTAssertEqual(warnings.map { String($0.prefix(4)) }, ["S17:", "S18:"])
        XCTAssertTrue(warnings.allSatisfy { $0.contains("+12 h puts") && $0.hasSuffix("not applied") }, "\(warnings)")
        // Kept as they were: all 14 tags in labels.csv, the three outside as recorded.
        let tags = try ws.read(LabelInterval.self).filter { $0.label == E4.Tags.label }
        XCTAssertEqual(tags.count, 14)
        XCTAssertEqual(Set(flags.flatMap(\.times)).isSubset(of: Set(tags.map { Timestamp.iso($0.startMs) })), true)
        // Their subjects' time ranges are their recordings', not stretched back by the tags.
        XCTAssertEqual(m.subjects.map { $0.start.map { $0 >= "2022-02-21T15" } }, [true, true])
    }

    func testEveryPhysioNetFileImportsAndNsr001OffsetIsRejected() throws {
        let root = try datasetsRoot() + "/physionet-rr"
        for db in ["nsr2db", "chf2db", "healthy"] {
            let (ws, m) = try importSources([root + "/" + db])
            assertAccounting(m)
            for source in m.sources {
                let lines = try nonEmptyLines(root + "/" + source.path)
                XCTAssertEqual(source.accepted + source.rejected, lines, source.path)
            }
            XCTAssertTrue(m.subjects.allSatisfy { $0.group == db })
            if db == "nsr2db" {
                XCTAssertEqual(m.subjects.count, 40)
                let first = try ws.read(Reject.self).first { $0.sourceFile == "nsr2db/nsr001_rr_secs.txt" }
                XCTAssertEqual(first?.line, 1)
                XCTAssertEqual(first.flatMap { NumberParsing.double($0.raw) }, 225.796875)
                XCTAssertEqual(first?.reason, RRConstants.defaults.rejectReason)
            }
        }
    }
}
