import Foundation
import XCTest

/// `resonance import` of raw waveforms as a user runs it: a waveform CSV timed by
/// `--rate`, and Polar Sensor Logger files read twice to the same bytes (docs/import.md).
final class ImportWaveformFormatsCommandTests: XCTestCase {
    /// `--rate` is in the help with its unit, is checked before anything is read, and
    /// times a CSV without a time column from `--start`; `waveforms` writes the samples back.
    func testWaveformCSVAtTheRateGiven() throws {
        let dir = try makeTempDir()
        try writeFixture("ECG [mV],Resp\n0.12,512\n0.15,515\n-0.05,519\n", to: dir + "/P1/chest.csv")
        try assertHelp(["import"], usage: "resonance import", options: ["--rate <hz>", "in Hz (samples per second)"])
        assertUsageError(try resonance("import", dir + "/P1", "--out", dir + "/bad", "--rate", "0"),
                         "--rate: a sample rate in Hz within 1/86400–1000000 Hz, got 0.0.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/bad"), "a usage error writes nothing")

        let run = try resonance("import", dir + "/P1", "--out", dir + "/ws", "--rate", "250", "--start", "2024-03-01T08:00:00Z")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let samples = try resonance("waveforms", dir + "/ws", "--channel", "ecg")
        XCTAssertEqual(samples.status, ExitStatus.success, samples.stderr)
        XCTAssertEqual(samples.stdout, "subject,channel,time_unix_s,value\nP1,ecg,1709280000.000000,0.12\n"
            + "P1,ecg,1709280000.004000,0.15\nP1,ecg,1709280000.008000,-0.05\n")
        let list = try resonance("waveforms", dir + "/ws", "--list")
        XCTAssertTrue(list.stdout.contains("P1,resp,a.u.,waveform-csv,2024-03-01T08:00:00.000Z,0,250.0,3,"), list.stdout)
    }

    /// Polar Sensor Logger ECG and accelerometer files (`;`-separated, the phone's local
    /// time in --tz): detected, read on the sensor clock, and the same bytes on a second run.
    func testPolarSensorLoggerFilesImportTheSameBytesTwice() throws {
        let dir = try makeTempDir()
        let ns0: Int64 = 599_616_050_941_733_632
        var ecg = "Phone timestamp;sensor timestamp [ns];timestamp [ms];ecg [uV]\n"
        var acc = "Phone timestamp;sensor timestamp [ns];X [mg];Y [mg];Z [mg]\n"
        for k in 0..<260 { ecg += "2024-03-01T10:15:3\(k / 73).123;\(ns0 + Int64(k) * 7_692_308);\(Double(k) * 7.692308);\(k % 13 * 40 - 200)\n" }
        for k in 0..<100 { acc += "2024-03-01T10:15:3\(k / 36).123;\(ns0 + Int64(k) * 20_000_000);-953;\(k % 5);1000\n" }
        try writeFixture(ecg, to: dir + "/P2/Polar_H10_1A2B3C4D_20240301_101530_ECG.txt")
        try writeFixture(acc, to: dir + "/P2/Polar_H10_1A2B3C4D_20240301_101530_ACC.txt")
        for ws in ["ws1", "ws2"] {
            let run = try resonance("import", dir + "/P2", "--out", dir + "/" + ws, "--tz", "Europe/Lisbon")
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        }
        let list = try resonance("waveforms", dir + "/ws1", "--list")
        XCTAssertEqual(list.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(8).joined(separator: ",") }, [
            "P2,acc_x,mg,polar-sensor-logger,2024-03-01T10:15:30.123Z,0,50.0,100",
            "P2,acc_y,mg,polar-sensor-logger,2024-03-01T10:15:30.123Z,0,50.0,100",
            "P2,acc_z,mg,polar-sensor-logger,2024-03-01T10:15:30.123Z,0,50.0,100",
            "P2,ecg,µV,polar-sensor-logger,2024-03-01T10:15:30.123Z,0,129.999995,260",
        ])
        for table in ["manifest.json", "waveforms.csv", "waveforms.bin", "rejects.csv"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/ws1/" + table)),
                           try Data(contentsOf: URL(fileURLWithPath: dir + "/ws2/" + table)), table)
        }
    }
}
