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
        // Every data line of every file is accounted for: E4 HR and the raw channels have 2
        // metadata lines, IBI 1, tags none; labels.csv has one header line.
        for source in m.sources {
            let lines = try nonEmptyLines(root + "/" + source.path.dropFirst("stress-predict/".count))
            let metadata = try XCTUnwrap(["e4-hr": 2, "e4-signal": 2, "e4-ibi": 1, "e4-tags": 0,
                                          "stress-predict-labels": 1][source.format], source.format)
            XCTAssertEqual(source.rowsRead, lines - metadata, source.path)
        }
        XCTAssertEqual(m.sources.count, 1 + 26 * 7)
        // Every other file is listed with its reason: the licence and each subject's info.txt.
        XCTAssertEqual(m.skipped?.map(\.path), ["stress-predict/LICENSE"] + (1...26).map {
            "stress-predict/\($0 < 10 ? "S0\($0)" : "S\($0)")/info.txt"
        })
        // Each subject's pulse wave at 64 Hz, motion at 32 Hz, skin conductance and
        // temperature at 4 Hz, every sample kept (no line of them is unreadable).
        let segments = try WaveformStore(ws).segments
        XCTAssertEqual(segments.count, 26 * 6)
        XCTAssertEqual(Set(segments.filter { $0.channel == "bvp" }.map(\.rateHz)), [64])
        XCTAssertEqual(Set(segments.filter { $0.channel.hasPrefix("acc_") }.map(\.rateHz)), [32])
        XCTAssertEqual(Set(segments.filter { ["eda", "temp"].contains($0.channel) }.map(\.rateHz)), [4])
        XCTAssertEqual(m.sources.filter { $0.format == "e4-signal" }.map(\.rejected).reduce(0, +), 0)
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
        XCTAssertEqual(m.skipped?.map(\.path), ["S17/info.txt", "S18/info.txt"])
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

    /// MIT-BIH record 100: both leads, every frame, and its 2,273 reference beats
    /// (2,239 N, 33 A, 1 V as the database's directory lists them).
    func testMITBIHRecord100ImportsBothLeadsAndItsReferenceBeats() throws {
        let root = try datasetsRoot() + "/mitdb"
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.path), ["mitdb/100.atr", "mitdb/100.dat"])
        XCTAssertEqual(m.skipped?.map(\.path), ["mitdb/100.hea"])
        XCTAssertEqual(m.sources[1].rowsRead, 650_000)
        XCTAssertEqual(m.sources[1].rejected, 0)
        XCTAssertEqual(m.subjects.map(\.subject), ["100"])
        let store = try WaveformStore(ws)
        XCTAssertEqual(store.segments.map(\.channel), ["mlii", "v5"])
        XCTAssertEqual(store.segments.map(\.samples), [650_000, 650_000])
        XCTAssertEqual(store.segments.map(\.gain), [200, 200])
        XCTAssertEqual(store.segments.map(\.baseline), [1024, 1024])
        // The header's first values of each signal (995 and 1011 ADC units).
        var firsts: [Int64] = []
        for s in store.segments {
            var first: Int64?
            try store.forEachSample(of: s) { if first == nil { first = $0.whole } }
            firsts.append(first ?? -1)
        }
        XCTAssertEqual(firsts, [995, 1011])
        let beats = try ws.read(ReferenceAnnotation.self).filter(\.beat)
        XCTAssertEqual(beats.count, 2273)
        XCTAssertEqual(Dictionary(grouping: beats, by: \.label).mapValues(\.count), ["N": 2239, "A": 33, "V": 1])
        // The encoding is smaller than the source's 3 bytes a frame.
        XCTAssertLessThan(store.segments.map(\.bytes).reduce(0, +), 1_950_000)
    }

    /// BIDMC record 01: 8 minutes at 125 Hz of five signals, times from the rate.
    func testBIDMCRecord01ImportsFiveSignalsAt125Hz() throws {
        let root = try datasetsRoot() + "/bidmc"
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["bidmc"])
        XCTAssertEqual(m.sources[0].rowsRead, try nonEmptyLines(root + "/bidmc_01_Signals.csv") - 1)
        XCTAssertEqual(m.subjects.map(\.subject), ["bidmc_01"])
        let store = try WaveformStore(ws)
        XCTAssertEqual(store.segments.map(\.channel), ["resp", "pleth", "v", "avr", "ii"])
        XCTAssertEqual(Set(store.segments.map(\.rateHz)), [125])
        XCTAssertEqual(Set(store.segments.map(\.samples)), [m.sources[0].accepted])
        XCTAssertFalse(m.sources[0].notes.contains { $0.contains("samples may be missing") }, "\(m.sources[0].notes)")
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
