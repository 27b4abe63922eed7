import Foundation
import XCTest
import ZIPFoundation
@testable import ResonanceLab

/// Polar Sensor Logger's raw channels, Apple Health ECGs and waveform CSVs, from fixtures
/// written here in the layouts their readers cite.
final class WaveformFormatsTests: XCTestCase {
    /// Imports `sources` with the options `configure` sets.
    private func importWith(_ sources: [String], _ configure: (inout Importer.Options) -> Void) throws -> (Workspace, Manifest) {
        let ws = Workspace(path: try makeTempDir() + "/ws")
        var options = Importer.Options()
        configure(&options)
        return (ws, try Importer.run(sources: sources, workspace: ws, options: options))
    }

    /// A Polar Sensor Logger file: its header, then `phone;sensor ns;values` per row.
    private func polar(_ header: String, _ rows: [(phone: String, ns: String, values: String)]) -> String {
        ([header] + rows.map { "\($0.phone);\($0.ns);\($0.values)" }).joined(separator: "\n") + "\n"
    }

    static let ecgHeader = "Phone timestamp;sensor timestamp [ns];timestamp [ms];ecg [uV]"
    /// An H10 ECG's sensor clock: nanoseconds since 2000-01-01, 7 692 308 ns a sample.
    static let ns0: Int64 = 599_616_050_941_733_632
    static let ecgStepNs: Int64 = 7_692_308

    /// The rate comes from the sensor clock's steps, the start from the first phone
    /// timestamp read in --tz; a jump of 100 samples in the sensor clock is a gap: two
    /// segments whose sample times stay the sensor's.
    func testPolarECGTakesItsRateFromTheSensorClockAndAGapMakesTwoSegments() throws {
        let values = [-120, 35, 980, 1010, -240, 18, 22, 15, -30, 1004, 998, -210]
        let frames = Array(0..<6) + Array(106..<112)
        let rows = zip(frames, values).enumerated().map { i, fv in
            (phone: i < 3 ? "2024-03-01T10:15:30.400" : i < 6 ? "2024-03-01T10:15:30.423" : "2024-03-01T10:15:31.250",
             ns: "\(Self.ns0 + Int64(fv.0) * Self.ecgStepNs)", values: "\(Double(fv.0) * 7.692308);\(fv.1)")
        }
        let path = try writeFixture(polar(Self.ecgHeader, rows), to: try makeTempDir() + "/P1/Polar_H10_1A2B3C4D_20240301_101530_ECG.txt")
        let (ws, m) = try importWith([(path as NSString).deletingLastPathComponent]) { $0.timeZone = TimeZone(identifier: "America/New_York") }
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["polar-signal"])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [12, 12, 0])
        let store = try WaveformStore(ws)
        XCTAssertEqual(store.segments.map(\.channel), ["ecg", "ecg"])
        XCTAssertEqual(store.segments.map(\.unit), ["µV", "µV"])
        XCTAssertEqual(store.segments.map(\.source), ["polar-sensor-logger", "polar-sensor-logger"])
        // 1e9 / 7 692 308 ns, to the microhertz.
        XCTAssertEqual(store.segments.map(\.rateHz), [129.999995, 129.999995])
        XCTAssertEqual(store.segments.map(\.firstSample), [0, 106])
        XCTAssertEqual(store.segments.map(\.samples), [6, 6])
        // 10:15:30.400 in New York (UTC−5 before the March change).
        XCTAssertEqual(store.segments.map(\.startMs), [ms("2024-03-01T15:15:30.400Z"), ms("2024-03-01T15:15:30.400Z")])
        XCTAssertEqual(try store.segments.flatMap { try store.physical($0) }, values.map(Double.init))
        XCTAssertEqual(store.segments[1].secondsFromStart(5), 111 / 129.999995)
        XCTAssertEqual(m.subjects.map(\.subject), ["P1"])
        XCTAssertEqual(m.subjects.first?.start, "2024-03-01T15:15:30.400Z")
        let notes = m.sources[0].notes
        XCTAssertTrue(notes.contains { $0.hasPrefix("Polar Sensor Logger ECG: ecg in µV at 129.999995 Hz from the sensor clock") }, "\(notes)")
        XCTAssertTrue(notes.contains("recording start 2024-03-01T15:15:30.400Z: the first row's phone timestamp, a local time "
            + "(when its packet reached the phone)"), "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("1 gap in the sensor clock (a step over 3.0 sample periods)") }, "\(notes)")
        XCTAssertTrue(notes.contains("naive local times read in America/New_York (--tz)"), "\(notes)")
    }

    /// An accelerometer file with a sensor timestamp that is not a number, two bad samples
    /// and a timestamp that repeats: the bad samples are one reject counting both and keep
    /// their frames; each row rejected for its time is a reject of its own, and the next
    /// row starts a segment at its own time. Without two readable timestamps there is no
    /// rate: a one-line error naming file, line and column.
    func testPolarRowsWithBadTimesOrSamplesAreRejectedAndTheNextRowKeepsItsTime() throws {
        let header = "Phone timestamp;sensor timestamp [ns];X [mg];Y [mg];Z [mg]"
        let step: Int64 = 20_000_000
        let cells: [(String, String)] = [
            ("\(Self.ns0)", "-953;63;425"), ("\(Self.ns0 + step)", "-950;61;430"), ("abc", "-948;60;431"),
            ("\(Self.ns0 + 3 * step)", "-951;62;428"), ("\(Self.ns0 + 4 * step)", "-952;x;427"),
            ("\(Self.ns0 + 5 * step)", "-952;60;nan"), ("\(Self.ns0 + 6 * step)", "-949;64;426"),
            ("\(Self.ns0 + 6 * step)", "-949;64;426"), ("\(Self.ns0 + 8 * step)", "-955;66;420"),
        ]
        let path = try writeFixture(polar(header, cells.map { (phone: "2024-03-01T10:15:30.500", ns: $0.0, values: $0.1) }),
                                    to: try makeTempDir() + "/P2/Polar_H10_1A2B3C4D_20240301_101530_ACC.txt")
        let (ws, m) = try importSources([path])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["polar-signal"])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [9, 5, 4])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [4, 6, 9])
        XCTAssertEqual(rejects.map(\.column), [2, 4, 2])
        XCTAssertEqual(rejects.map(\.reason), ["unparsable time", "unparsable or non-finite samples: 2 rows, lines 6–7",
                                               "time not after the previous row's"])
        let store = try WaveformStore(ws)
        let x = store.segments.filter { $0.channel == "acc_x" }
        XCTAssertEqual(Set(store.segments.map(\.channel)), ["acc_x", "acc_y", "acc_z"])
        XCTAssertEqual(Set(store.segments.map(\.unit)), ["mg"])
        XCTAssertEqual(Set(store.segments.map(\.rateHz)), [50])
        XCTAssertEqual(x.map(\.firstSample), [0, 3, 6, 8])
        XCTAssertEqual(x.map(\.samples), [2, 1, 1, 1])
        XCTAssertEqual(try x.flatMap { try store.physical($0) }, [-953, -950, -951, -949, -955])
        XCTAssertEqual(x.first?.startMs, ms("2024-03-01T10:15:30.500Z"))

        let one = try writeFixture(polar(Self.ecgHeader, [(phone: "2024-03-01T10:15:30.500", ns: "\(Self.ns0)", values: "0.0;12")]),
                                   to: try makeTempDir() + "/P3/Polar_H10_1A2B3C4D_20240301_101530_ECG.txt")
        XCTAssertThrowsError(try importSources([one])) {
            XCTAssertEqual("\($0)", "\(one):2:2: Polar Sensor Logger ECG: no two rows with increasing sensor timestamps to give the rate")
        }
    }

    /// A minute of ECG (130 Hz), PPG (55 Hz, inverted and offset as Polar's raw counts) and
    /// accelerometer (50 Hz, mg) from one sensor: the beats stage finds every R peak in
    /// `ecg` and every pulse onset in `ppg0`, and reads the accelerometer's motion in g.
    func testPolarChannelsAreTheOnesTheBeatsStageReads() throws {
        let dir = try makeTempDir() + "/P4"
        let seconds = 60.0
        let beats = SyntheticBeats.times(seconds: seconds, from: 1, seed: 5)
        func write(_ name: String, _ header: String, rateHz: Double, _ row: (Int) -> String) throws {
            let stepNs = (1e9 / rateHz).rounded()
            let rows = (0..<Int(seconds * rateHz)).map { k in
                (phone: "2024-03-01T10:00:00.000", ns: "\(Self.ns0 + Int64(Double(k) * stepNs))", values: row(k))
            }
            try writeFixture(polar(header, rows), to: dir + "/Polar_H10_1A2B3C4D_20240301_100000_\(name).txt")
        }
        let ecg = SyntheticBeats.ecg(beats: beats, seconds: seconds, rateHz: 130)
        try write("ECG", Self.ecgHeader, rateHz: 130) { "\(Double($0) * 7.692);\(Int((ecg[$0] * 1000).rounded()))" }
        let pulse = SyntheticBeats.pulseWave(beats.map { $0 + 0.2 }, seconds: seconds, rateHz: 55)
        try write("PPG", "Phone timestamp;sensor timestamp [ns];channel 0;channel 1;channel 2;ambient", rateHz: 55) { k in
            let v = Int((200_000 - 5000 * pulse[k]).rounded())
            return "\(v);\(v + 11);\(v - 7);-1500"
        }
        // Still for 30 s, then the chest moves ±100 mg along z at 2 Hz.
        try write("ACC", "Phone timestamp;sensor timestamp [ns];X [mg];Y [mg];Z [mg]", rateHz: 50) { k in
            "0;0;\(k < 1500 ? 1000 : 1000 + (k % 25 < 12 ? 100 : -100))"
        }
        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["polar-signal", "polar-signal", "polar-signal"])
        try BeatsStage().runCommitted(ws, StageContext(progress: ProgressLog { _ in }))
        let rows = try ws.read(DetectedBeat.self)
        let start = Double(ms("2024-03-01T10:00:00Z")) / 1000
        let r = rows.filter { $0.fiducial == "r_peak" }, onsets = rows.filter { $0.fiducial == "pulse_onset" }
        XCTAssertEqual(Set(r.map(\.source)), ["polar-sensor-logger:pan-tompkins"])
        XCTAssertEqual(Set(r.map(\.channel)), ["ecg"])
        XCTAssertEqual(Set(onsets.map(\.source)), ["polar-sensor-logger:elgendi-foot"])
        XCTAssertEqual(Set(onsets.map(\.channel)), ["ppg0"])
        let rMatch = BeatMatch.match(detected: r.map { Double($0.timestampMs) / 1000 - start }, reference: beats, window: 0.150)
        XCTAssertEqual([rMatch.falseNegatives, rMatch.falsePositives], [0, 0])
        let pMatch = BeatMatch.match(detected: onsets.map { Double($0.timestampMs) / 1000 - start },
                                     reference: beats.map { $0 + 0.2 }, window: 0.050)
        XCTAssertEqual([pMatch.falseNegatives, pMatch.falsePositives], [0, 0])
        // Motion in g (mg / 1000): none while still, about 0.1 g once the chest moves.
        let still = r.filter { Double($0.timestampMs) / 1000 - start < 29 }, moving = r.filter { Double($0.timestampMs) / 1000 - start > 35 }
        XCTAssertEqual(Set(still.map(\.motionG)), [0])
        XCTAssertTrue(moving.allSatisfy { ($0.motionG ?? 0) > 0.05 && ($0.motionG ?? 1) < 0.2 }, "\(moving.map(\.motionG))")
    }

    // MARK: - Apple Health ECG

    /// The metadata block of an ECG as the Health app writes it in English.
    static let englishHead = "Name,Jane Doe\nDate of Birth,\"14 Jul 1975\"\nRecorded Date,2024-03-01 09:10:00 +0100\n"
        + "Classification,Sinus Rhythm\nSymptoms,\nSoftware Version,1.90\nDevice,\"Watch6,1\"\nSample Rate,512 hertz\n\n\n"
        + "Lead,Lead I\nUnit,µV\n\n\n"
    /// One in Portuguese: its voltages written with the decimal comma.
    static let portugueseHead = "Nome,Jane Doe\nData de Nascimento,\"14 Jul 1975\"\nData de Registo,2024-03-02 10:00:00 +0000\n"
        + "Classificação,Ritmo sinusal\nSintomas,\nVersão do software,1.90\nDispositivo,\"Watch6,1\"\nTaxa de amostragem,512 hertz\n\n\n"
        + "Derivação,Derivação I\nUnidade,µV\n\n\n"
    static let english = englishHead + "-265.868\n-271.819\n12\n0.5\n1203.25\n"
    /// Lines 15–20: four samples, then one written with a point and one that is no number.
    static let portuguese = portugueseHead + "-265,868\n-271,819\n12\n0,5\n12.5\nabc\n"
    /// Keys in a language the table does not hold: found by their values' shape and place.
    static let italian = "Nome,Jane Doe\nData di nascita,\"14 Jul 1975\"\nData di registrazione,2024-03-03 07:00:00 +0100\n"
        + "Classificazione,Ritmo sinusale\nSintomi,\nVersione software,1.90\nDispositivo,\"Watch6,1\"\n"
        + "Frequenza di campionamento,512 hertz\n\nDerivazione,Derivazione I\nUnità,µV\n\n1,5\n-2,25\n"

    /// No file of the workspace holds the name or the date of birth, in any table, note,
    /// reject or `waveforms.bin`.
    private func assertNothingPersonal(_ ws: Workspace, file: StaticString = #filePath, line: UInt = #line) throws {
        let files = try XCTUnwrap(FileManager.default.subpaths(atPath: ws.path))
        XCTAssertTrue(files.contains("waveforms.bin"), "\(files)", file: file, line: line)
        for name in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: ws.path + "/" + name))
            for needle in ["Jane", "Doe", "14 Jul", "1975"] {
                XCTAssertNil(data.range(of: Data(needle.utf8)), "\(name) holds '\(needle)'", file: file, line: line)
            }
        }
    }

    /// An unpacked export's ECG folder: English, Portuguese (`-265,868` is −265.868 µV)
    /// and Italian keys; each file one segment at its recorded date, the separator and the
    /// classification noted, nothing of the person in the workspace.
    func testAppleECGFolderReadsEachLocaleAndItsDecimalSeparator() throws {
        let dir = try makeTempDir() + "/apple_health_export"
        try writeFixture(Self.english, to: dir + "/electrocardiograms/ecg_2024-03-01.csv")
        try writeFixture(Self.portuguese, to: dir + "/electrocardiograms/ecg_2024-03-02.csv")
        try writeFixture(Self.italian, to: dir + "/electrocardiograms/ecg_2024-03-03.csv")
        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["apple-health-ecg", "apple-health-ecg", "apple-health-ecg"])
        XCTAssertEqual(m.sources.map(\.rowsRead), [5, 6, 2])
        XCTAssertEqual(m.sources.map(\.rejected), [0, 2, 0])
        XCTAssertEqual(m.subjects.map(\.subject), ["apple_health_export"])
        let store = try WaveformStore(ws)
        XCTAssertEqual(store.segments.map(\.channel), ["ecg", "ecg", "ecg"])
        XCTAssertEqual(store.segments.map(\.unit), ["µV", "µV", "µV"])
        XCTAssertEqual(store.segments.map(\.source), ["apple_health", "apple_health", "apple_health"])
        XCTAssertEqual(store.segments.map(\.rateHz), [512, 512, 512])
        XCTAssertEqual(store.segments.map(\.startMs),
                       [ms("2024-03-01T08:10:00Z"), ms("2024-03-02T10:00:00Z"), ms("2024-03-03T06:00:00Z")])
        XCTAssertEqual(try store.physical(store.segments[0]), [-265.868, -271.819, 12, 0.5, 1203.25])
        XCTAssertEqual(try store.physical(store.segments[1]), [-265.868, -271.819, 12, 0.5])
        XCTAssertEqual(try store.physical(store.segments[2]), [1.5, -2.25])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [19])
        XCTAssertEqual(rejects.map(\.reason), ["unparsable or non-finite samples: 2 rows, lines 19–20"])
        XCTAssertEqual(rejects.map(\.raw), ["12.5"])
        XCTAssertTrue(m.sources[0].notes.contains("apple_health_export/electrocardiograms/ecg_2024-03-01.csv: ECG recorded "
            + "2024-03-01T08:10:00.000Z, 512.0 Hz, µV, Lead I, classification 'Sinus Rhythm'; samples on lines 15–19; "
            + "decimal separator '.' (4 lines with a point, 0 such as -265,868)"), "\(m.sources[0].notes)")
        XCTAssertTrue(m.sources[1].notes.contains { $0.hasSuffix("2024-03-02T10:00:00.000Z, 512.0 Hz, µV, Derivação I, "
            + "classification 'Ritmo sinusal'; samples on lines 15–20; decimal separator ',' (3 lines such as -265,868, 1 with a point)") },
                      "\(m.sources[1].notes)")
        XCTAssertTrue(m.sources[2].notes.contains { $0.hasSuffix("2024-03-03T06:00:00.000Z, 512.0 Hz, µV, Derivazione I, "
            + "classification 'Ritmo sinusale'; samples on lines 13–14; decimal separator ',' (2 lines such as -265,868, 0 with a point)") },
                      "\(m.sources[2].notes)")
        try assertNothingPersonal(ws)
    }

    /// An ECG without its sample rate: a one-line error naming file and line, and in a
    /// folder a failed file whose first line (the name) is never shown.
    func testAppleECGWithoutASampleRateIsAnErrorThatShowsNothingOfThePerson() throws {
        let dir = try makeTempDir() + "/apple_health_export"
        let path = try writeFixture("Name,Jane Doe\nDate of Birth,\"14 Jul 1975\"\nRecorded Date,2024-03-01 09:10:00 +0100\n\n1.5\n",
                                    to: dir + "/electrocardiograms/ecg_2024-03-09.csv")
        try writeFixture(Self.english, to: dir + "/electrocardiograms/ecg_2024-03-01.csv")
        XCTAssertThrowsError(try importSources([path])) {
            XCTAssertEqual("\($0)", "\(path):1:0: Apple Health ECG: no sample rate line (e.g. 'Sample Rate,512 hertz')")
        }
        let (ws, m) = try importSources([dir])
        XCTAssertEqual(m.sources.map(\.format), ["apple-health-ecg", "apple-health-ecg"])
        XCTAssertEqual(m.sources[1].failure,
                       "\(path):1:0: Apple Health ECG: no sample rate line (e.g. 'Sample Rate,512 hertz')")
        try assertNothingPersonal(ws)
        XCTAssertThrowsError(try importSources([path], format: .e4Signal)) {
            XCTAssertTrue("\($0)".hasSuffix("found an Apple Health ECG, whose first line is not shown (it names the person)"), "\($0)")
        }
    }

    /// `export.zip` holding `export.xml` and three ECGs, one without its metadata: the
    /// archive is one source whose rows are the export's and the two readable ECGs'; the
    /// third is a warning naming its entry; nothing of the person in the workspace.
    func testAppleECGInsideExportZipIsReadWithTheExport() throws {
        let dir = try makeTempDir() + "/carla"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let zip = dir + "/export.zip"
        let archive = try Archive(url: URL(fileURLWithPath: zip), accessMode: .create)
        let folder = "apple_health_export/electrocardiograms/"
        for (name, text) in [("apple_health_export/export.xml", AppleHealthXMLTests.export), (folder + "ecg_2024-03-01.csv", Self.english),
                             (folder + "ecg_2024-03-02.csv", Self.portuguese),
                             (folder + "ecg_2024-03-09.csv", "Name,Jane Doe\nDate of Birth,\"14 Jul 1975\"\n")] {
            let data = Data(text.utf8)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { at, size in
                data.subdata(in: Int(at)..<Int(at) + size)
            }
        }
        var warnings: [String] = []
        let (ws, m) = try importWith([zip]) { $0.warning = { warnings.append($0) } }
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["apple-health-zip"])
        // export.xml: 9 read, 7 accepted, 2 rejected; the ECGs 5 + 6, two of them rejected.
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [20, 16, 4])
        let store = try WaveformStore(ws)
        XCTAssertEqual(store.segments.map(\.file), ["carla/export.zip/\(folder)ecg_2024-03-01.csv", "carla/export.zip/\(folder)ecg_2024-03-02.csv"])
        XCTAssertEqual(store.segments.map(\.subject), ["carla", "carla"])
        XCTAssertEqual(try store.physical(store.segments[1]).first, -265.868)
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [62])
        let warning = "carla/export.zip: ECG recording not read: \(folder)ecg_2024-03-09.csv:1:0: Apple Health ECG: no sample rate "
            + "line (e.g. 'Sample Rate,512 hertz')"
        XCTAssertEqual(warnings, [warning])
        XCTAssertTrue(m.sources[0].notes.contains("read 2 of 3 ECG recordings (ecg_*.csv) in the archive; the lines of their "
            + "samples are their entry's"), "\(m.sources[0].notes)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ws.path).filter { $0.hasSuffix(".tmp") }, [])
        try assertNothingPersonal(ws)
    }

    // MARK: - Waveform CSV

    /// `--rate` times a file without a time column from `--start`; units from the header
    /// (`a.u.` without one); bad rows are a counted run, a wider row a reject of its own.
    func testWaveformCSVAtAGivenRate() throws {
        let path = try writeFixture("ECG [mV],Resp\n0.12,512\n0.15,515\nnan,514\n0.11,\n0.2,520\n0.3,521,9\n0.31,522\n",
                                    to: try makeTempDir() + "/P5/chest.csv")
        let (ws, m) = try importWith([path]) {
            $0.rateHz = 250
            $0.startMs = ms("2024-03-01T08:00:00Z")
        }
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["waveform-csv"])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [7, 4, 3])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["unparsable or non-finite samples: 2 rows, lines 4–5",
                                                                "3 fields but the header names 2"])
        let store = try WaveformStore(ws)
        let ecg = store.segments.filter { $0.channel == "ecg" }
        XCTAssertEqual(Set(store.segments.map(\.channel)), ["ecg", "resp"])
        XCTAssertEqual(store.segments.first { $0.channel == "resp" }?.unit, "a.u.")
        XCTAssertEqual(ecg.map(\.unit), ["mV", "mV", "mV"])
        XCTAssertEqual(ecg.map(\.firstSample), [0, 4, 6])
        XCTAssertEqual(ecg.map(\.rateHz), [250, 250, 250])
        XCTAssertEqual(ecg.map(\.startMs), Array(repeating: ms("2024-03-01T08:00:00Z"), count: 3))
        XCTAssertEqual(try ecg.flatMap { try store.physical($0) }, [0.12, 0.15, 0.2, 0.31])
        XCTAssertTrue(m.sources[0].notes.contains("no absolute time: sample k at start + k / rate; anchored at "
            + "2024-03-01T08:00:00.000Z (--start)"), "\(m.sources[0].notes)")

        XCTAssertThrowsError(try importSources([path])) {
            XCTAssertEqual("\($0)", "\(path):1:0: waveform CSV: no time column: give the rate with --rate HZ, or name the time "
                + "column with --time-column")
        }
    }

    /// A time column in seconds since `--start` gives the rate (the mean of its steps) and
    /// its gaps; an ISO time column is read in `--tz`. A time that does not move forward,
    /// or is no time, is rejected and the next row keeps its own time.
    func testWaveformCSVTimeColumnGivesTheRateAndItsGaps() throws {
        let dir = try makeTempDir()
        let times = ["0.000", "0.004", "0.008", "0.012", "0.100", "0.104", "0.104", "0.112", "abc", "0.120"]
        try writeFixture("Time [s],PPG\n" + times.enumerated().map { "\($1),\($0 + 1)" }.joined(separator: "\n") + "\n",
                         to: dir + "/P6/finger.csv")
        try writeFixture("timestamp,ecg_ii [uV]\n" + (0..<5).map { "2024-03-01T10:00:00.\(String(format: "%03d", $0 * 4)),\($0 * 10)" }
            .joined(separator: "\n") + "\n", to: dir + "/P7/lead.csv")
        let (ws, m) = try importWith([dir + "/P6", dir + "/P7"]) {
            $0.startMs = ms("2024-03-01T08:00:00Z")
            $0.timeZone = TimeZone(identifier: "Europe/Berlin")
        }
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["waveform-csv", "waveform-csv"])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [10, 8, 2])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [8, 10])
        XCTAssertEqual(rejects.map(\.column), [1, 1])
        XCTAssertEqual(rejects.map(\.reason), ["time not after the previous row's", "unparsable time"])
        let store = try WaveformStore(ws)
        let ppg = store.segments.filter { $0.subject == "P6" }
        XCTAssertEqual(ppg.map(\.channel), ["ppg", "ppg", "ppg", "ppg"])
        XCTAssertEqual(ppg.map(\.rateHz), [250, 250, 250, 250])
        XCTAssertEqual(ppg.map(\.firstSample), [0, 25, 28, 30])
        XCTAssertEqual(ppg.map(\.samples), [4, 2, 1, 1])
        XCTAssertEqual(ppg.first?.startMs, ms("2024-03-01T08:00:00Z"))
        XCTAssertEqual(try ppg.flatMap { try store.physical($0) }, [1, 2, 3, 4, 5, 6, 8, 10])
        XCTAssertTrue(m.sources[0].notes.contains("1 gap in the time column (a step over 1.5 sample periods): a new segment after each"),
                      "\(m.sources[0].notes)")
        let lead = try XCTUnwrap(store.segments.first { $0.subject == "P7" })
        XCTAssertEqual([lead.channel, lead.unit], ["ecg_ii", "uV"])
        XCTAssertEqual(lead.rateHz, 250)
        XCTAssertEqual(lead.samples, 5)
        XCTAssertEqual(lead.startMs, ms("2024-03-01T09:00:00Z"), "10:00 in Berlin")
    }
}
