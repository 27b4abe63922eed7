import XCTest
@testable import ResonanceLab

/// Subject memory is bounded: an import holds at most `maxSubjects` distinct subjects
/// (about 1 KB each until it ends), and one more stops it naming the file, with
/// nothing written.
final class ImportSubjectLimitTests: XCTestCase {
    /// `subject,time,bpm` rows of `count` subjects, one row each.
    private func rows(subjects count: Int) -> String {
        "subject,time,bpm\n" + (0..<count).map { "s\($0),2024-03-01T08:00:0\($0 % 10)Z,60\n" }.joined()
    }

    private func options(maxSubjects: Int) -> Importer.Options {
        var options = Importer.Options()
        options.maxSubjects = maxSubjects
        return options
    }

    func testOneSubjectOverTheLimitStopsTheImportNamingTheFileAndWritesNothing() throws {
        let dir = try makeTempDir()
        let path = try writeFixture(rows(subjects: 5), to: dir + "/P7/rows.csv")
        let ws = Workspace(path: dir + "/ws")
        // The file's default subject (P7) is held too: P7, s0, s1 fill a limit of 3.
        XCTAssertThrowsError(try Importer.run(sources: [path], workspace: ws, options: options(maxSubjects: 3))) { error in
            XCTAssertEqual(error as? ImportError, .tooManySubjects(path: "P7/rows.csv", limit: 3))
            XCTAssertEqual("\(error)", "P7/rows.csv: more than 3 distinct subjects, each held in memory until the import ends "
                + "(about 1 KB); if its subject column is a row id, name the right one with --subject-column, else raise --max-subjects")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.file("hr.csv")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.file(Manifest.fileName)))

        let manifest = try Importer.run(sources: [path], workspace: ws, options: options(maxSubjects: 6))
        XCTAssertEqual(manifest.subjects.map(\.subject), ["s0", "s1", "s2", "s3", "s4"])
        XCTAssertEqual(try ws.read(HRSample.self).count, 5)
    }

    /// In a folder a file that cannot be read is recorded as failed and the rest
    /// imports; the subject limit holds for the whole import, so it stops it instead.
    func testTheLimitStopsAFolderImportRatherThanFailingOneFile() throws {
        let dir = try makeTempDir() + "/study"
        try writeFixture(rows(subjects: 2), to: dir + "/A/one.csv")
        try writeFixture(rows(subjects: 4).replacingOccurrences(of: ",s", with: ",t"), to: dir + "/B/two.csv")
        let ws = Workspace(path: try makeTempDir() + "/ws")
        XCTAssertThrowsError(try Importer.run(sources: [dir], workspace: ws, options: options(maxSubjects: 5))) { error in
            // A, s0, s1 from the first file, then B, t0 fill 5; t1 is one more.
            XCTAssertEqual(error as? ImportError, .tooManySubjects(path: "study/B/two.csv", limit: 5))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.file(Manifest.fileName)))
    }

    /// Rejected rows name subjects too, so they count against the limit.
    func testRejectedRowsOfNewSubjectsCountAgainstTheLimit() throws {
        let path = try writeFixture("subject,time,bpm\na,x,60\nb,x,60\nc,x,60\n", to: try makeTempDir() + "/P/rows.csv")
        XCTAssertThrowsError(try Importer.run(sources: [path], workspace: Workspace(path: try makeTempDir() + "/ws"),
                                              options: options(maxSubjects: 2))) { error in
            XCTAssertEqual(error as? ImportError, .tooManySubjects(path: "P/rows.csv", limit: 2))
        }
    }
}
