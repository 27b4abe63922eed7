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
