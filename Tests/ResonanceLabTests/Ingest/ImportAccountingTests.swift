import Foundation
import XCTest
@testable import ResonanceLab

/// An import accounts for every file it saw (read, skipped with a reason, or failed),
/// says when a file gave no accepted row, and flags event markers outside the recording
/// (docs/import.md, Folders and subjects; Event markers).
final class ImportAccountingTests: XCTestCase {
    func testE4ConnectFolderListsEveryFileAndReadsTags() throws {
        let root = try makeTempDir() + "/study"
        try writeE4ConnectSession(root + "/P1")
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.path), ["study/P1/ACC.csv", "study/P1/BVP.csv", "study/P1/EDA.csv", "study/P1/HR.csv",
                                               "study/P1/IBI.csv", "study/P1/TEMP.csv", "study/P1/tags.csv"])
        XCTAssertEqual(m.sources.map(\.format), ["e4-signal", "e4-signal", "e4-signal", "e4-hr", "e4-ibi", "e4-signal", "e4-tags"])
        let skipped = try XCTUnwrap(m.skipped)
        XCTAssertEqual(skipped.map(\.path), ["study/P1/info.txt"])
        XCTAssertEqual(skipped.map(\.reason), ["Empatica E4 session description (info.txt): no measurements"])
        // All 8 files accounted for: 7 read (the raw channels as waveforms), 1 skipped.
        XCTAssertEqual(m.sources.count + skipped.count, 8)
        // tags.csv is read as tags_*.csv is: zero-length e4_tag labels at the press times.
        XCTAssertEqual(try ws.read(LabelInterval.self), [
            LabelInterval(subject: "P1", startMs: 1_709_280_030_250, endMs: 1_709_280_030_250, label: E4.Tags.label),
            LabelInterval(subject: "P1", startMs: 1_709_280_045_500, endMs: 1_709_280_045_500, label: E4.Tags.label),
        ])
        XCTAssertNil(m.subjects[0].markersOutsideRecording)
        // An E4 Connect tags.csv with no press is empty: read, no rows, no complaint.
        try writeFixture("", to: root + "/P1/tags.csv")
        let (_, again) = try importSources([root])
        XCTAssertEqual(again.sources.last.map { [$0.path, $0.format] }, ["study/P1/tags.csv", "e4-tags"])
        XCTAssertFalse(again.sources.contains(where: Importer.gaveNoRows))
    }

    func testOtherFilesOfAFolderAreListedSkippedWithTheirReason() throws {
        let root = try makeTempDir() + "/study"
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n", to: root + "/P1/hr_log.csv")
        try writeFixture("PK\u{3}\u{4}\u{14}\u{0}\u{6}\u{0}\"binary", to: root + "/P1/notes.docx")
        try writeFixture("x", to: root + "/P1/.DS_Store")
        try writeFixture("", to: root + "/P1/empty.csv")
        try writeFixture("colour,size\nred,3\n", to: root + "/P1/things.csv")
        try writeFixture("v", to: root + "/P1/deeper/more.csv")
        try writeFixture("y", to: root + "/.hidden/x.csv")
        try writeFixture("MIT License\n", to: root + "/LICENSE")
        let (_, m) = try importSources([root])
        XCTAssertEqual(m.sources.map(\.path), ["study/P1/hr_log.csv"])
        XCTAssertEqual(m.skipped, [
            SkippedFile(path: "study/.hidden", reason: "hidden folder"),
            SkippedFile(path: "study/LICENSE", reason: "not in a known format (first line: 'MIT License')"),
            SkippedFile(path: "study/P1/.DS_Store", reason: "hidden file"),
            SkippedFile(path: "study/P1/deeper/more.csv", reason: "not in a known format (first line: 'v')"),
            SkippedFile(path: "study/P1/empty.csv", reason: "empty file"),
            SkippedFile(path: "study/P1/notes.docx", reason: "unknown extension .docx"),
            SkippedFile(path: "study/P1/things.csv", reason: "not in a known format (first line: 'colour,size')"),
        ])
        // A file named on the command line is no folder listing: nothing is skipped.
        let (_, single) = try importSources([root + "/P1/hr_log.csv"])
        XCTAssertNil(single.skipped)
        let encoded = String(decoding: try single.encoded(), as: UTF8.self)
        XCTAssertFalse(encoded.contains("skipped"), "a manifest without skipped files has no such key")
    }

    /// Every bpm out of range: the file is read, all its rows rejected, and the account
    /// names the rows read and the top rejection reason (also a manifest note).
    func testAFileWithoutAcceptedRowsIsAccountedFor() throws {
        let root = try makeTempDir() + "/study"
        try writeFixture("time,bpm\n2024-03-01T08:00:00Z,300\n2024-03-01T08:00:01Z,310\n2024-03-01T08:00:02Z,fast\n",
                         to: root + "/P1/hr.csv")
        try writeFixture("time,bpm\n2024-03-01T09:00:00Z,60\n", to: root + "/P2/hr.csv")
        try writeFixture("time,bpm\n", to: root + "/P3/hr.csv")
        var warnings: [String] = []
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        let m = try Importer.run(sources: [root], workspace: Workspace(path: try makeTempDir() + "/ws"), options: options)
        XCTAssertEqual(m.sources.map(Importer.gaveNoRows), [true, false, true])
        let expected = "no rows accepted: 3 rows read, all rejected (top reason: bpm outside 20–250, 2 rows; "
            + "the first, line 2: 2024-03-01T08:00:00Z,300; see rejects.csv)"
        XCTAssertEqual(warnings, ["study/P1/hr.csv: " + expected, "study/P3/hr.csv: no rows accepted: 0 rows read"])
        XCTAssertTrue(m.sources[0].notes.contains(expected), "\(m.sources[0].notes)")
        // The stage commits the rest and ends with the partial-failure error, unless allowEmpty.
        let ws = Workspace(path: try makeTempDir() + "/ws")
        XCTAssertThrowsError(try ImportStage(sources: [root]).runCommitted(ws, StageContext())) {
            XCTAssertEqual("\($0)", "2 of 3 files gave no accepted row (see manifest.json; --allow-empty accepts them)")
        }
        XCTAssertEqual(try ws.read(HRSample.self).count, 1, "the other file is imported")
        var allow = Importer.Options()
        allow.allowEmpty = true
        XCTAssertNoThrow(try ImportStage(sources: [root], options: allow)
            .runCommitted(Workspace(path: try makeTempDir() + "/ws"), StageContext()))
    }

    /// A file forced into a format it does not have says what that format expects and
    /// what the file holds.
    func testForcedFormatMismatchNamesTheExpectedLayout() throws {
        let dir = try makeTempDir()
        let rr = try writeFixture("time,rr_ms\n2024-03-01T08:00:00Z,812\n", to: dir + "/P1/rr.txt")
        XCTAssertThrowsError(try importSources([rr], format: .kubiosRR)) {
            XCTAssertEqual("\($0)", "\(rr): not in --format kubios-rr, which expects a header of two columns 'Time(s)' "
                + "and 'RR(s)' (tab-separated, as Kubios exports R-R); found first line 'time,rr_ms'")
        }
        XCTAssertThrowsError(try importSources([rr], format: .e4HR)) {
            XCTAssertTrue("\($0)".contains("expects Empatica E4 HR.csv: line 1 the session start"), "\($0)")
        }
        let things = try writeFixture("colour;size\nred;3\n", to: dir + "/P1/things.csv")
        XCTAssertThrowsError(try importSources([things], format: .stressPredictLabels)) {
            XCTAssertEqual("\($0)", "\(things): not in --format stress-predict-labels, which expects a header with "
                + "'Participant', 'Time(sec)' and 'Label'; found first line 'colour;size'")
        }
        // A file that has the layout reads as before.
        let kubios = try writeFixture("Time(s)\tRR(s)\n0.812\t0.812\n1.602\t0.790\n", to: dir + "/P1/kubios.txt")
        XCTAssertEqual(try importSources([kubios], format: .kubiosRR).1.sources[0].accepted, 2)
    }
}

/// R-R text without a header: Polar Flow's elapsed seconds and R-R in ms, and the other
/// common layouts, with units from the values (docs/import.md, R-R text).
final class RRTextTests: XCTestCase {
    private func importText(_ text: String, name: String, start: Bool = true) throws -> (Workspace, SourceFile) {
        let path = try writeFixture(text, to: try makeTempDir() + "/P1/" + name)
        var options = Importer.Options()
        if start { options.startMs = 1_709_280_000_000 }
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [path], workspace: ws, options: options)
        assertAccounting(m)
        return (ws, m.sources[0])
    }

    func testPolarFlowRRTextIsDetectedByItsContent() throws {
        let (ws, s) = try importText("0.812\t812\n1.602\t790\n2.447\t845\n3.277\t830\n4.077\t800\n4.277\t200\n4.897\t820\n",
                                     name: "Training_session_RR.txt")
        XCTAssertEqual(s.format, "rr-text")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [7, 6, 1])
        XCTAssertEqual(s.rrStamp, "end")
        XCTAssertEqual(Array(s.notes.prefix(3)), [
            "layout: elapsed time and R-R interval per line, no header (Polar Flow's R-R export: elapsed seconds, R-R in ms)",
            "elapsed time in seconds (from the values: its median step, 0.795 s, is closest to the median interval, 812 ms)",
            "rr values in milliseconds (from the values' magnitude: median 812; below 10 is seconds)",
        ])
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(rows.first, RRInterval(subject: "P1", timestampMs: 1_709_280_000_812, rrMs: 812, source: "rr-text"))
        XCTAssertEqual(rows.last, RRInterval(subject: "P1", timestampMs: 1_709_280_004_897, rrMs: 820, source: "rr-text"))
        XCTAssertEqual(rows.count, 6)
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), [RRConstants.defaults.rejectReason])
    }

    /// A header-less two-column text in seconds, space separated: two columns, not one
    /// (which would reject every row), both units from the values.
    func testTwoColumnsInSecondsSpaceSeparated() throws {
        let (ws, s) = try importText("0.812  0.812\n1.602 0.790\n2.447 0.845\n3.277 0.830\n4.077 0.800\n4.897 0.820\n",
                                     name: "beats.txt")
        XCTAssertEqual(s.format, "rr-text")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [6, 6, 0])
        XCTAssertTrue(s.notes.contains("rr values in seconds (from the values' magnitude: median 0.816; below 10 is seconds)"), "\(s.notes)")
        XCTAssertTrue(s.notes.contains { $0.hasPrefix("elapsed time in seconds (from the values") }, "\(s.notes)")
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(rows.map(\.rrMs), [812, 790, 845, 830, 800, 820])
        XCTAssertEqual(rows.map { $0.timestampMs - 1_709_280_000_000 }, [812, 1602, 2447, 3277, 4077, 4897])
    }

    /// Elapsed milliseconds and R-R in ms, `;`-separated; comma- and tab-separated read alike.
    func testElapsedMillisecondsAreToldFromTheSteps() throws {
        for separator in [";", ",", "\t"] {
            let text = ["812 812", "1602 790", "2447 845", "3277 830", "4077 800", "4897 820"]
                .map { $0.replacingOccurrences(of: " ", with: separator) }.joined(separator: "\n") + "\n"
            let (ws, s) = try importText(text, name: "P1_rr.csv")
            XCTAssertEqual(s.format, "rr-text", separator)
            XCTAssertEqual(s.notes[1], "elapsed time in milliseconds (from the values: its median step, 820 ms, is closest to "
                + "the median interval, 816 ms)", separator)
            XCTAssertEqual(s.notes[0], "layout: elapsed time and R-R interval per line, no header", separator)
            XCTAssertEqual(try ws.read(RRInterval.self).map { $0.timestampMs - 1_709_280_000_000 },
                           [812, 1602, 2447, 3277, 4077, 4897], separator)
        }
    }

    /// `--format physionet-rr` on a two-column file reads two columns, and one-column text
    /// stays `physionet-rr` with its unit noted.
    func testTwoColumnsAreNeverReadAsOne() throws {
        let path = try writeFixture("0.812,812\n1.602,790\n", to: try makeTempDir() + "/P1/beats.txt")
        let (ws, m) = try importSources([path], format: .physionetRR)
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted], [2, 2])
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.rrMs), [812, 790])
        let (_, one) = try importText("812\n790\n", name: "one.txt")
        XCTAssertEqual(one.format, "physionet-rr")
        XCTAssertTrue(one.notes.contains("rr values in milliseconds (from the values' magnitude)"), "\(one.notes)")
        XCTAssertEqual([one.rowsRead, one.accepted], [2, 2])
    }

    /// Polar Sensor Logger's `_RR.txt` has a header and stays its own format.
    func testPolarSensorLoggerRRTextKeepsItsFormat() throws {
        let (_, s) = try importText("Phone timestamp;RR-interval [ms]\n2024-03-01T08:00:00.812;812\n",
                                    name: "Polar_H10_1A2B3C4D_20240301_080000_RR.txt")
        XCTAssertEqual(s.format, "polar-sensor-logger")
    }

    func testALineOfAnotherShapeIsARejectedRow() throws {
        let (_, s) = try importText("0.812\t812\n1.602\t790\t3\n2.447\tx\n", name: "P1_RR.txt")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [3, 1, 2])
    }
}

/// Event markers outside the subject's recording: kept, counted and flagged, the one
/// offset that would repair them reported and never applied, and no window cut by them.
final class OutsideMarkersTests: XCTestCase {
    /// An E4 session 2024-03-01 08:00:00–08:01:09 (HR from 08:00:10) with markers at
    /// `tags` (unix seconds).
    private func importSession(tags: [Double]) throws -> (Workspace, Manifest, [String]) {
        let root = try makeTempDir() + "/study"
        try writeE4ConnectSession(root + "/P1", tags: tags.map { "\($0)\n" }.joined())
        var warnings: [String] = []
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [root], workspace: ws, options: options)
        return (ws, m, warnings)
    }

    func testAnAMPMSlipIsFlaggedWithItsRepairNotApplied() throws {
        let start = 1_709_280_000.0
        let (ws, m, warnings) = try importSession(tags: [start + 20, start + 30 - 43_200, start + 40])
        let subject = m.subjects[0]
        let flag = try XCTUnwrap(subject.markersOutsideRecording)
        XCTAssertEqual(flag.count, 1)
        XCTAssertEqual(flag.markers, 3)
        XCTAssertEqual(flag.times, ["2024-02-29T20:00:30.000Z"])
        XCTAssertEqual(flag.recordingStart, "2024-03-01T08:00:00.000Z")
        XCTAssertEqual(flag.recordingEnd, "2024-03-01T08:01:09.000Z")
        XCTAssertEqual(flag.probableOffsetHours, 12)
        let note = "1 of 3 event markers (e4_tag) lies outside the recording 2024-03-01T08:00:00.000Z–2024-03-01T08:01:09.000Z "
            + "(at 2024-02-29T20:00:30.000Z): kept in labels.csv, never used; +12 h puts it inside the recording in sequence "
            + "with the other markers (probable AM/PM slip), not applied"
        XCTAssertEqual(flag.note, note)
        XCTAssertEqual(warnings, ["P1: " + note])
        // Kept, as it was: not moved.
        XCTAssertEqual(try ws.read(LabelInterval.self).map(\.startMs),
                       [1_709_236_830_000, 1_709_280_020_000, 1_709_280_040_000])
        // The subject's time range is its recording's, not stretched 12 h back by the marker.
        XCTAssertEqual(subject.start, "2024-03-01T08:00:10.000Z")
        // The data inventory of validation counts it.
        let inventory = try XCTUnwrap(try Inventory.section(ws))
        XCTAssertTrue(inventory.markdown.contains("Event markers outside the subject's recording (kept in labels.csv, used by "
            + "no window; manifest.json says more): P1 1 of 3, probable repair +12 h, not applied."), inventory.markdown)
    }

    func testNoRepairWhenNoOffsetPutsThemInSequence() throws {
        let start = 1_709_280_000.0
        // 12 h later would be inside the recording but before the marker that precedes it.
        let (_, m, _) = try importSession(tags: [start + 50, start + 20 - 43_200, start + 60])
        let flag = try XCTUnwrap(m.subjects[0].markersOutsideRecording)
        XCTAssertNil(flag.probableOffsetHours)
        XCTAssertTrue(flag.note.hasSuffix("no offset of ±12 h puts them inside the recording in sequence with the other markers"),
                      flag.note)
        // Three days off: no repair either; a marker after the recording counts too.
        let (_, far, _) = try importSession(tags: [start - 3 * 86_400, start + 3_600])
        XCTAssertEqual(far.subjects[0].markersOutsideRecording?.count, 2)
        XCTAssertNil(far.subjects[0].markersOutsideRecording?.probableOffsetHours)
    }

    func testMarkersInsideTheRecordingAreNotFlagged() throws {
        let (_, m, warnings) = try importSession(tags: [1_709_280_000.0, 1_709_280_069.0])
        XCTAssertNil(m.subjects[0].markersOutsideRecording, "the session start and the last sample are inside")
        XCTAssertEqual(warnings, [])
    }

    /// Stress windows are cut from stress and baseline intervals only: a marker, inside or
    /// outside the recording, changes no window.
    func testNoWindowIsCutByAMarker() {
        let hr = MeasurementSeries(subject: "A", timestampsMs: (0..<600).map { Int64($0) * 1000 },
                                   values: (0..<600).map { 60 + Double($0 % 7) })
        let intervals = [
            LabelInterval(subject: "A", startMs: 0, endMs: 300_000, label: StressWindows.baselineLabel),
            LabelInterval(subject: "A", startMs: 300_000, endMs: 600_000, label: StressWindows.stressLabel),
        ]
        let markers = [
            LabelInterval(subject: "A", startMs: -43_000_000, endMs: -43_000_000, label: E4.Tags.label),
            LabelInterval(subject: "A", startMs: 400_000, endMs: 400_000, label: E4.Tags.label),
        ]
        let without = StressWindows.cut(subject: "A", labels: intervals, hr: hr, rr: nil, protocolTasks: [], options: .init())
        let with = StressWindows.cut(subject: "A", labels: intervals + markers, hr: hr, rr: nil, protocolTasks: [],
                                     options: .init())
        XCTAssertEqual(with, without)
        XCTAssertFalse(with.windows.isEmpty)
    }
}
