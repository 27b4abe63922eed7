import XCTest
@testable import ResonanceLab

/// Each bad input gives one clear error naming the file (and line, column) and
/// leaves no partial table behind.
final class ImportErrorsTests: XCTestCase {
    private func importError(_ sources: [String]) throws -> (String, Workspace) {
        // The workspace exists beforehand, so a table or temporary file left behind shows.
        let ws = Workspace(path: try makeTempDir() + "/ws")
        try FileManager.default.createDirectory(atPath: ws.path, withIntermediateDirectories: true)
        var message = ""
        XCTAssertThrowsError(try Importer.run(sources: sources, workspace: ws)) { message = "\($0)" }
        XCTAssertFalse(message.contains("\n"), "one line: \(message)")
        // `.lock` holds the workspace's locks (docs/workspace.md) and is no table.
        let left = try FileManager.default.contentsOfDirectory(atPath: ws.path).filter { $0 != ".lock" }
        XCTAssertEqual(left, [], "no table or temporary file left: \(left)")
        return (message, ws)
    }

    func testMissingFile() throws {
        let (message, _) = try importError(["/nonexistent/hr.csv"])
        XCTAssertEqual(message, "/nonexistent/hr.csv: no such file or folder")
    }

    func testFolderWithNoFileInAKnownFormat() throws {
        let dir = try makeTempDir()
        let (message, _) = try importError([dir + "/."])
        XCTAssertTrue(message.hasSuffix("no file in a known format"), message)
    }

    func testEmptyFile() throws {
        let path = try writeFixture("", to: try makeTempDir() + "/hr.csv")
        let (message, _) = try importError([path])
        XCTAssertEqual(message, "\(path): file is empty")
    }

    func testUnknownFormatListsColumnsAndKnownFormats() throws {
        let path = try writeFixture("alpha,beta\n1,2\n", to: try makeTempDir() + "/x.csv")
        let (message, _) = try importError([path])
        XCTAssertEqual(message, "\(path): unknown format (columns found: 'alpha', 'beta'; formats known: "
            + "csv, e4-hr, e4-ibi, e4-tags, physionet-rr, elite-hrv, apple-music, apple-health, stress-predict-labels, canonical, "
            + "polar-sensor-logger, hrv-logger, kubios-rr, spotify-extended, spotify-account, lastfm, apple-health-xml, apple-health-zip, fitbit-hr, fitbit-hrv, embrace-plus, rr-text, song-features, "
            + "youtube-music, listenbrainz, samsung-hr, withings-hr, polar-flow, whoop, health-auto-export, oura, garmin, google-fit, health-auto-export-csv, fitbit-resting-hr, daily-metrics, e4-signal, wfdb, wfdb-annotations, bidmc, polar-signal, apple-health-ecg, waveform-csv; or name the columns with --time-column and --bpm-column or --rr-column)")
    }

    func testMalformedQuoteNamesFileLineColumnAndLeavesNoTables() throws {
        let dir = try makeTempDir()
        let good = try writeFixture("time,bpm\n1709280000,60\n", to: dir + "/a/good.csv")
        let bad = try writeFixture("time,bpm\n1709280000,60\n1709280001,\"6\"1\n", to: dir + "/b/bad.csv")
        let (message, _) = try importError([good, bad])
        XCTAssertEqual(message, "\(bad):3:2: malformed quoted field")
    }

    func testBadE4HeaderNamesLine() throws {
        let path = try writeFixture("1644227584\nfast\n80\n", to: try makeTempDir() + "/S01/HR.csv")
        let (message, _) = try importError([path])
        XCTAssertEqual(message, "\(path):2:1: E4 sample rate is not a number: 'fast'")
    }

    func testFailedReimportKeepsThePreviousTables() throws {
        let dir = try makeTempDir()
        let good = try writeFixture("time,bpm\n1709280000,60\n", to: dir + "/good.csv")
        let ws = Workspace(path: dir + "/ws")
        try Importer.run(sources: [good], workspace: ws)
        let before = try String(contentsOfFile: ws.file("hr.csv"), encoding: .utf8)
        let bad = try writeFixture("time,bpm\n\"x\n", to: dir + "/bad.csv")
        XCTAssertThrowsError(try Importer.run(sources: [bad], workspace: ws))
        XCTAssertEqual(try String(contentsOfFile: ws.file("hr.csv"), encoding: .utf8), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ws.path).filter { $0.hasSuffix(".tmp") }, [])
    }
}
