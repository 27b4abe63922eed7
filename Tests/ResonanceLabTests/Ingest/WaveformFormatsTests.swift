import Foundation
import XCTest
@testable import ResonanceLab

/// Polar Sensor Logger's raw channels, from fixtures
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
}
