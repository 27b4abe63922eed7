import Foundation
import ResonanceLab
import XCTest

final class BreathingCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["breathing", "simulate"], usage: "resonance breathing simulate",
                       options: ["--out <dir>", "--seeds <seeds>", "--first-seed <first-seed>", "--strategies <names>",
                                 "--personas <names>", "--world <name>"])
        try assertHelp(["breathing", "assess"], usage: "resonance breathing assess", options: ["<workspace>", "--artifacts"])
        try assertHelp(["breathing", "paced"], usage: "resonance breathing paced", options: ["<workspace>", "--from <file>"])
    }

    /// The same arguments give byte-identical tables for any --jobs.
    func testSimulateIsByteIdenticalForAnyJobs() throws {
        let dir = try makeTempDir()
        for (ws, jobs) in [("a", "1"), ("b", "2")] {
            let run = try resonance("breathing", "simulate", "--out", dir + "/" + ws, "--seeds", "2", "--personas",
                                    "NewMom,SeniorFit", "--jobs", jobs)
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        }
        for table in ["breathing_sim_sessions.csv", "breathing_sim_summary.csv", "breathing_sim_wins.csv", "breathing_sim_trace.csv",
                      "breathing_sim_records.csv", "receipts.csv"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a/" + table))
            XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: dir + "/b/" + table)), table)
        }
        let sessions = try String(contentsOfFile: dir + "/a/breathing_sim_sessions.csv", encoding: .utf8)
            .split(separator: "\n")
        // Two seeds × two personas × four strategies.
        XCTAssertEqual(sessions.count, 1 + 16)
        XCTAssertEqual(sessions.first, "seed,persona,strategy,planted_rate_bpm,locked_rate_bpm,error_bpm,lock_s,coherence_reached,amplitude_share,"
                       + "recorded_peak_coherence,max_coherence")
        let records = try String(contentsOfFile: dir + "/a/breathing_sim_records.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(records.count, 1 + 16)
        XCTAssertEqual(records.first, "seed,persona,strategy,duration_s,recorded_average_rmssd_ms,mean_rmssd_ms,"
                       + "recorded_peak_coherence,peak_coherence,recorded_resonance_rate_bpm,resonance_rate_bpm,"
                       + "watch_coherence,rr_coherence,coherence_mean_abs_diff")
    }

    func testPacedThenAssess() throws {
        let ws = try importSample(into: try makeTempDir())
        let paced = ws + "/../paced.csv"
        try "subject,started_at,ended_at,rate_bpm,source\nS01,,,6,protocol\n".write(toFile: paced, atomically: true, encoding: .utf8)
        let run = try resonance("breathing", "paced", ws, "--from", paced)
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: ws + "/breathing.csv", encoding: .utf8),
                       "subject,started_at,ended_at,rate_bpm,source\nS01,,,6.0,protocol\n")
        // Its lineage names the intervals file and the digest it had.
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json")))
        XCTAssertEqual(manifest.table("breathing.csv")?.lineage?.inputs, [.source(paced, sha256: try SHA256.hex(ofFile: paced))])
        let assess = try resonance("breathing", "assess", ws)
        XCTAssertEqual(assess.status, ExitStatus.success, assess.stderr)
        let rows = try String(contentsOfFile: ws + "/breathing_assessment.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.count, 2)
        XCTAssertTrue(rows[1].hasPrefix("S01,6.0,"), String(rows[1]))
        let choices = try String(contentsOfFile: ws + "/breathing_resonance.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(choices.dropFirst().map { $0.split(separator: ",")[1] },
                       ["peak_to_trough", "lf_power", "lf_peak", "combined", "pacer_sweep", "pacer_amplitude", "pacer_robust"])
        // One trial: it is every criterion's choice and every pacer strategy's lock, with
        // no runner-up or margin, not at an edge, one rate tried.
        XCTAssertEqual(choices.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(4).joined(separator: ",") },
                       Array(repeating: ",,false,1", count: 7))
        XCTAssertEqual(choices.dropFirst().map { $0.split(separator: ",")[2] }, Array(repeating: "6.0", count: 7))
        let product = try resonance("coherence", ws, "--method", "product")
        XCTAssertEqual(product.status, ExitStatus.success, product.stderr)
        let coherence = try String(contentsOfFile: ws + "/coherence.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertFalse(coherence.isEmpty)
        // S01 is paced at 6/min by breathing.csv, S02 (no row) at the product's 5.5/min;
        // both subjects have rows, so neither check below holds vacuously.
        XCTAssertGreaterThan(coherence.filter { $0.hasPrefix("S01,") }.count, 0)
        XCTAssertGreaterThan(coherence.filter { $0.hasPrefix("S02,") }.count, 0)
        XCTAssertTrue(coherence.filter { $0.hasPrefix("S01,") }.allSatisfy { $0.contains(",product,0.1,") })
        XCTAssertTrue(coherence.filter { $0.hasPrefix("S02,") }.allSatisfy { $0.contains(",product,0.09166666666666666,") })
    }

    /// Two Elite HRV trials, each file named by its local start, imported as one subject
    /// in their zone: the beats fall on the session's clock, so the paced intervals
    /// written in local time pick each trial out.
    func testEliteHRVTrialsImportAsOneSessionAndAssess() throws {
        let dir = try makeTempDir()
        // HR 65 ± 6 bpm oscillating at the paced rate; intervals rounded to the ms, 115 s a trial.
        func trial(_ ratePerMin: Double) -> String {
            var t = 0.0, lines: [String] = []
            while t < 115 {
                let rr = (60_000 / (65 + 6 * sin(2 * Double.pi * ratePerMin / 60 * t))).rounded()
                lines.append(String(Int(rr)))
                t += rr / 1000
            }
            return lines.joined(separator: "\n") + "\n"
        }
        let first = try writeFixture(trial(6.0), to: dir + "/export/2026-03-02 07-30-00.txt")
        let second = try writeFixture(trial(5.0), to: dir + "/export/2026-03-02 07-32-00.txt")
        let ws = dir + "/rf"
        let run = try resonance("import", first, second, "--tz", "Europe/Berlin", "--subject", "session", "--out", ws)
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertFalse(run.stderr.contains("warning"), run.stderr)
        let rr = try String(contentsOfFile: ws + "/rr.csv", encoding: .utf8).split(separator: "\n")
        // 60000/65 = 923.08 → 923 ms: the first beat closes it 0.923 s after 07:30 CET = 06:30 UTC.
        XCTAssertEqual(rr[1], "session,2026-03-02T06:30:00.923Z,923.0,elite-hrv")
        XCTAssertTrue(rr.dropFirst().allSatisfy { $0.hasPrefix("session,2026-03-02T06:3") }, "\(rr.last ?? "")")
        let secondStart = rr.firstIndex { $0.hasPrefix("session,2026-03-02T06:32:00.923Z,923.0,") }
        XCTAssertNotNil(secondStart)
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json")))
        XCTAssertEqual(manifest.sources.map(\.format), ["elite-hrv", "elite-hrv"])
        XCTAssertEqual(manifest.sources.map(\.rowsRead), [try nonEmptyLines(first), try nonEmptyLines(second)])
        XCTAssertEqual(manifest.subjects.map(\.subject), ["session"])
        let paced = dir + "/trials.csv"
        try """
            subject,started_at,ended_at,rate_bpm,source
            session,2026-03-02T07:30:00+01:00,2026-03-02T07:32:00+01:00,6,protocol
            session,2026-03-02T07:32:00+01:00,2026-03-02T07:34:00+01:00,5,protocol

            """.write(toFile: paced, atomically: true, encoding: .utf8)
        XCTAssertEqual(try resonance("breathing", "paced", ws, "--from", paced).status, ExitStatus.success)
        let assess = try resonance("breathing", "assess", ws)
        XCTAssertEqual(assess.status, ExitStatus.success, assess.stderr)
        let rows = try String(contentsOfFile: ws + "/breathing_assessment.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") },
                       ["session,6.0", "session,5.0"])
        // Measured, not copied from the input: each trial's window in UTC, its LF peak at
        // the rate the HR swung at (6/60 and 5/60 Hz, within a bin of the padded spectrum),
        // and a peak-to-trough near 2 × 6 bpm.
        let header = rows[0].split(separator: ",").map(String.init)
        func column(_ row: Int, _ name: String) throws -> String {
            let fields = rows[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return fields[try XCTUnwrap(header.firstIndex(of: name), name)]
        }
        XCTAssertEqual(try column(1, "started_at"), "2026-03-02T06:30:00.000Z")
        XCTAssertEqual(try column(2, "started_at"), "2026-03-02T06:32:00.000Z")
        for (row, hz) in [(1, 6.0 / 60), (2, 5.0 / 60)] {
            XCTAssertEqual(try XCTUnwrap(Double(try column(row, "lf_peak_hz"))), hz, accuracy: 0.004, "trial \(row)")
            XCTAssertEqual(try XCTUnwrap(Double(try column(row, "peak_to_trough_bpm"))), 12, accuracy: 1.5, "trial \(row)")
            XCTAssertGreaterThan(try XCTUnwrap(Int(try column(row, "beats"))), 100, "trial \(row)")
        }
    }

    /// The README's stepped session (five Elite HRV trials, 6.5 … 4.5/min, HR amplitude a
    /// Gaussian of SD 0.85/min around 5.5/min): the amplitude strategies would have locked
    /// at the planted 5.5, as every published criterion picks; the coherence sweep at 6.1:
    /// its best trial is 6.0, the 30-s window's bin centre, moved by the log-parabola
    /// through 0.978, 1.000, 0.987 (5.5, 6.0, 6.5) 0.064/min toward 6.5 (docs/breathing.md).
    func testAssessNamesEachPacerStrategysLockOnASteppedSession() throws {
        let dir = try makeTempDir()
        var files: [String] = []
        for (i, rate) in [6.5, 6.0, 5.5, 5.0, 4.5].enumerated() {
            let amplitude = 6 * exp(-0.5 * pow((rate - 5.5) / 0.85, 2))
            var t = 0.0, lines: [String] = []
            while t < 119 {
                let rr = (60_000 / (65 + amplitude * sin(2 * Double.pi * rate / 60 * t))).rounded()
                lines.append(String(Int(rr)))
                t += rr / 1000
            }
            files.append(try writeFixture(lines.joined(separator: "\n") + "\n",
                                          to: dir + "/export/2026-03-02 07-\(30 + 2 * i)-00.txt"))
        }
        let ws = dir + "/rf"
        let run = try resonance(["import"] + files + ["--tz", "Europe/Berlin", "--subject", "session", "--out", ws])
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let paced = dir + "/trials.csv"
        try (["subject,started_at,ended_at,rate_bpm,source"] + [6.5, 6.0, 5.5, 5.0, 4.5].enumerated().map { i, rate in
            "session,2026-03-02T07:\(30 + 2 * i):00+01:00,2026-03-02T07:\(32 + 2 * i):00+01:00,\(rate),protocol"
        }).joined(separator: "\n").write(toFile: paced, atomically: true, encoding: .utf8)
        XCTAssertEqual(try resonance("breathing", "paced", ws, "--from", paced).status, ExitStatus.success)
        let assess = try resonance("breathing", "assess", ws)
        XCTAssertEqual(assess.status, ExitStatus.success, assess.stderr)
        let rows = try String(contentsOfFile: ws + "/breathing_resonance.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        let rate = Dictionary(uniqueKeysWithValues: rows.map { row -> (String, String) in
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            return (String(f[1]), String(f[2]))
        })
        XCTAssertEqual(rate["peak_to_trough"], "5.5")
        XCTAssertEqual(rate["combined"], "5.5")
        XCTAssertEqual(rate["pacer_amplitude"], "5.5")
        XCTAssertEqual(rate["pacer_robust"], "5.5")
        XCTAssertEqual(rate["pacer_sweep"], "6.1")
    }

    func testBadIntervalsNameFileLineAndColumn() throws {
        let ws = try importSample(into: try makeTempDir())
        let paced = ws + "/../paced.csv"
        try "subject,started_at,ended_at,rate_bpm,source\nS01,,,6,protocol\nS01,,,40,protocol\n"
            .write(toFile: paced, atomically: true, encoding: .utf8)
        assertFailure(try resonance("breathing", "paced", ws, "--from", paced), "paced.csv:3:4:", "rate_bpm")
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/breathing.csv"))
        assertFailure(try resonance("breathing", "assess", ws), "breathing.csv: no paced intervals")
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/breathing_assessment.csv"))
        assertUsageError(try resonance("breathing", "simulate", "--out", ws, "--strategies", "magic"),
                         "--strategies: unknown strategy 'magic' (known: hill, sweep, amplitude, robust).")
        assertUsageError(try resonance("coherence", ws, "--every-step"), "--every-step needs --method product.")
        assertUsageError(try resonance("coherence", ws, "--hr-sampling", "repeat"), "--hr-sampling needs --method product.")
        assertUsageError(try resonance("coherence", ws, "--method", "product", "--window", "30"),
                         "--window, --step and --breathing-rate apply to --method windowed")
    }
}

final class PacerTuneCommandTests: XCTestCase {
    func testPacerTuningNeedsASimulationWorkspace() throws {
        let ws = try importSample(into: try makeTempDir())
        assertFailure(try resonance("tune", ws, "--engine", "pacer", "--out", ws + "/../t.json"),
                      "breathing_sim_sessions.csv: missing", "resonance breathing simulate")
        assertUsageError(try resonance("tune", ws, "--engine", "pacer", "--objective", "auc", "--out", ws + "/../t.json"),
                         "--objective for --engine pacer must be locked-rate-error.")
    }
}
