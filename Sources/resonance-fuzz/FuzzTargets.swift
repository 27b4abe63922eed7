import Foundation
import ResonanceLab

/// libFuzzer targets for the input parsers. Built with `-sanitize=fuzzer` and
/// `-D FUZZING` (see `mk/fuzz.mk`), `main` hands over to libFuzzer's driver and the
/// target is chosen by the `FUZZ_TARGET` environment variable. Built plainly (as by
/// `swift build`), `resonance-fuzz TARGET FILE…` runs files through a target once,
/// which replays a corpus or a crash without the sanitizer toolchain. `list` (as
/// `FUZZ_TARGET` or as the argument) prints the target names.
///
/// Every target only feeds bytes to public entry points and checks invariants that
/// hold for any input; an error thrown for bad input is a pass, a trap is a crash.
enum FuzzTarget: Equatable {
    /// `CSVReader` on arbitrary bytes: the same records whatever the chunk size.
    case csv
    /// `NumberParsing.double`: finite whenever it returns a value.
    case number
    /// `Timestamp.parseISO`: inside years 0000–9999, and the canonical text round-trips.
    case timestamp
    /// `ConstantsRegistry(contentsOf:)`: a loaded registry respects every range.
    case constants
    /// Format detection on the file name and bytes, then that format's adapter; the
    /// first byte picks the file name.
    case detect
    /// `format-NAME`: one import format's adapter, forced (as `--format NAME`). Every
    /// format `resonance import` knows has its target.
    case format(SourceFormat)

    static let allCases: [FuzzTarget] = [.csv, .number, .timestamp, .constants, .detect]
        + SourceFormat.allCases.filter { !formatsWithoutTarget.contains($0) }.map(FuzzTarget.format)

    /// Import formats without a target of their own (each target costs `make test` its
    /// seconds): a WFDB signal file is fixed-width binary in which every byte pattern is
    /// a sample, and the rows of BIDMC, Polar Sensor Logger signals, Apple Health ECGs
    /// and waveform CSVs go through the sample reader `format-e4-signal` fuzzes; all are
    /// covered by unit tests and by the detect target.
    static let formatsWithoutTarget: Set<SourceFormat> = [.wfdb, .bidmc, .polarSignal, .appleHealthECG, .waveformCSV]

    var rawValue: String {
        switch self {
        case .csv: return "csv"
        case .number: return "number"
        case .timestamp: return "timestamp"
        case .constants: return "constants"
        case .detect: return "detect"
        case let .format(format): return "format-" + format.rawValue
        }
    }

    init?(rawValue: String) {
        guard let target = FuzzTarget.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = target
    }

    /// The file name each format is read under: one that detection maps to it (a
    /// format missing here is read as `input.csv`).
    static let fileNames: [SourceFormat: String] = [
        .genericCSV: "input.csv", .e4HR: "HR.csv", .e4IBI: "IBI.csv", .e4Tags: "tags_S01.csv",
        .physionetRR: "nsr001_rr_secs.txt", .eliteHRV: "2026-03-02 07-30-00.txt", .appleMusic: "Apple Music Play Activity.csv", .appleHealth: "health.csv",
        .stressPredictLabels: "labels.csv", .canonical: "hr.csv",
        .polarSensorLogger: "Polar_H10_1A2B3C4D_20240301_080000_RR.txt", .hrvLogger: "rr.csv",
        .kubiosRR: "kubios_rr.txt", .spotifyExtended: "Streaming_History_Audio_2023.json",
        .spotifyAccount: "StreamingHistory0.json", .lastfm: "scrobbles.csv", .appleHealthXML: "export.xml",
        .appleHealthZip: "export.zip", .fitbitHR: "heart_rate-2024-03-01.json",
        .fitbitHRV: "Heart Rate Variability Details - 2024-03-01.csv", .embracePlus: "1-1-001_2024-03-01_pulse-rate.csv",
        .rrText: "P1_RR.txt", .songFeatures: "song_features.csv",
        .youtubeMusic: "watch-history.json", .listenbrainz: "1.jsonl",
        .samsungHeartRate: "com.samsung.shealth.tracker.heart_rate.20240301120000.csv", .withingsHR: "raw_hr_hr.csv",
        .polarFlow: "Jane_Doe_2024-03-01_08-00-00.csv", .whoop: "physiological_cycles.csv",
        .healthAutoExport: "HealthAutoExport-20240301-20240310.json",
        .oura: "oura_heartrate.json", .garmin: "2024-03-01_2024-06-09_123_sleepData.json",
        .googleFit: "2024-03-01.csv", .healthAutoExportCSV: "HealthAutoExport-2024-03-01-2024-03-31.csv",
        .fitbitRestingHR: "resting_heart_rate-2024-03-01.json", .dailyMetrics: "daily_metrics.csv",
        .e4Signal: "BVP.csv", .wfdb: "100.dat", .wfdbAnnotations: "100.atr", .bidmc: "bidmc_01_Signals.csv",
        .polarSignal: "Polar_H10_1A2B3C4D_20240301_080000_ECG.txt", .appleHealthECG: "ecg_2024-03-01.csv",
        .waveformCSV: "waveform.csv",
    ]

    static func fileName(_ format: SourceFormat) -> String { fileNames[format] ?? "input.csv" }

    /// File names the detect target chooses from (every format's, and a PhysioNet
    /// text file without the `_rr_secs` suffix).
    static let detectNames = SourceFormat.allCases.map(fileName) + ["000.txt"]
}

/// Runs one input through one target; traps (a crash for libFuzzer) when an
/// invariant fails. Inputs are parsed in memory: the bytes go to one file on tmpfs
/// (the parsers read paths) and format targets read it into an in-memory import
/// (`Importer.readInMemory`), so no workspace, table or manifest is written per input.
struct FuzzRunner {
    /// The header written beside a WFDB input: two 12-bit signals at 360 Hz (MIT-BIH's layout).
    static let wfdbHeader = "100 2 360\n100.dat 212 200 11 1024 0 0 0 MLII\n100.dat 212 200 11 1024 0 0 0 V5\n"

    let target: FuzzTarget
    /// Private scratch folder for the input file: `$FUZZ_SCRATCH`, else one on tmpfs
    /// when available.
    let scratch: String

    init(target: FuzzTarget) {
        self.target = target
        let base = ProcessInfo.processInfo.environment["FUZZ_SCRATCH"]
            ?? (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
        scratch = (base as NSString).appendingPathComponent("resonance-fuzz-\(target.rawValue)-\(getpid())")
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    func run(_ data: [UInt8]) {
        switch target {
        case .csv: csv(data)
        case .number: number(data)
        case .timestamp: timestamp(data)
        case .constants: constants(data)
        case .detect:
            guard let first = data.first else { return }
            let name = FuzzTarget.detectNames[Int(first) % FuzzTarget.detectNames.count]
            read(Array(data.dropFirst()), name: name, format: nil)
        case let .format(format): read(data, name: FuzzTarget.fileName(format), format: format)
        }
    }

    /// Writes the input to `scratch/name` with plain system calls (truncating the
    /// previous input) and returns its path.
    private func write(_ data: [UInt8], name: String) -> String {
        let path = scratch + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot write the fuzz input \(path)")
        data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
                precondition(n > 0, "cannot write the fuzz input \(path)")
                done += n
            }
        }
        close(fd)
        return path
    }

    private func records(_ path: String, chunkSize: Int) -> [[String]]? {
        var out: [[String]] = []
        do {
            try CSVReader(path: path, chunkSize: chunkSize).forEachRecord { out.append($0.strings + ["@\($0.line)"]) }
        } catch {
            return nil
        }
        return out
    }

    /// The records of `path` read range by range (`RecordRanges`, ranges of `bytes`), each
    /// range's lines numbered on from the last, as a parallel import reads them; nil when
    /// the file is not cut (UTF-16) or a range cannot be read.
    private func recordsInRanges(_ path: String, bytes: Int) -> [[String]]? {
        guard let ranges = try? RecordRanges.split(path: path, bytes: bytes) else { return nil }
        var out: [[String]] = [], before = 0
        do {
            for range in ranges {
                let reader = CSVReader(path: path, byteRange: range, rangeFirstLine: before + 1)
                try reader.forEachRecord { out.append($0.strings + ["@\($0.line)"]) }
                before += reader.lineEnds
            }
        } catch {
            return nil
        }
        return out
    }

    private func csv(_ data: [UInt8]) {
        let path = write(data, name: "input.csv")
        let whole = records(path, chunkSize: 1 << 20)
        let small = records(path, chunkSize: 7)
        precondition(whole == small, "CSVReader: records depend on the chunk size")
        if (try? RecordRanges.split(path: path, bytes: 1)) != nil {
            precondition(recordsInRanges(path, bytes: 1 + Int(data.first ?? 0) % 16) == whole,
                         "CSVReader: records read in ranges differ from one pass")
        }
    }

    private func number(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        if let value = NumberParsing.double(text) { precondition(value.isFinite, "non-finite number accepted") }
    }

    private func timestamp(_ data: [UInt8]) {
        let parsed = data.withUnsafeBufferPointer { Timestamp.parseISO(bytes: $0) }
        guard let (ms, _) = parsed else { return }
        precondition(Timestamp.representable.contains(ms), "instant outside years 0000–9999")
        let text = Timestamp.iso(ms)
        precondition(Timestamp.parseISO(text).map { $0.ms } == ms, "canonical text does not round-trip: \(text)")
    }

    private func constants(_ data: [UInt8]) {
        let path = write(data, name: "constants.json")
        guard let registry = try? ConstantsRegistry(contentsOf: path) else { return }
        for spec in ConstantsRegistry.specs {
            let values = registry.values(of: spec.name)
            for c in spec.constants {
                precondition(values[c.name].map(c.range.contains) == true, "\(spec.name).\(c.name) outside its range")
            }
        }
    }

    /// Detects (unless forced) and reads one file in memory. Bad input may throw; an
    /// accounting error (rows read ≠ accepted + rejected) is a defect, so it traps.
    private func read(_ data: [UInt8], name: String, format: SourceFormat?) {
        let path = write(data, name: name)
        // A WFDB record's files are read with their header: a fixed one beside them.
        if name.hasSuffix(".atr") || name.hasSuffix(".dat") {
            _ = write(Array(FuzzRunner.wfdbHeader.utf8), name: (name as NSString).deletingPathExtension + ".hea")
        }
        let serial = Result { try Importer.readInMemory(path, options: .init(format: format)) }
        switch serial {
        case let .success(file):
            precondition(file.rowsRead == file.accepted + file.rejected, "rows read != accepted + rejected")
        case let .failure(error as ImportError):
            if case .accounting = error { preconditionFailure("\(error)") }
        case .failure: break
        }
        // A generic CSV read again on two workers in ranges of a few bytes (a large
        // heart-rate CSV's path) must account for the file as one pass does, or fail the
        // same way. (Other readers do not read in ranges.)
        let generic = SourceFormat.genericCSV
        guard format == generic || (format == nil && (try? serial.get())?.format == generic.rawValue) else { return }
        var options = Importer.Options(format: format)
        options.jobs = 2
        options.rangeBytes = 1 + Int(data.first ?? 0) % 32
        let ranged = Result { try Importer.readInMemory(path, options: options) }
        precondition(FuzzRunner.outcome(ranged) == FuzzRunner.outcome(serial), "a read in ranges differs from one pass")
    }

    /// A read's manifest entry, or its error's text.
    private static func outcome(_ result: Result<SourceFile, Error>) -> String {
        switch result {
        case let .success(file): return "\(file)"
        case let .failure(error): return "error: \(error)"
        }
    }
}

#if FUZZING
/// libFuzzer's entry when the program has its own `main` (SwiftPM gives every
/// executable one): runs the fuzzing loop with the arguments and the callback.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

nonisolated(unsafe) private var runner: FuzzRunner?

/// One input, as libFuzzer calls it: the driver's callback below, and the symbol
/// libFuzzer's runtime refers to (a debug build links it, a release build strips it).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    runner?.run(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    return 0
}

@main
struct FuzzMain {
    static func main() {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        if name == "list" {
            print(FuzzTarget.allCases.map(\.rawValue).joined(separator: "\n"))
            exit(0)
        }
        guard let target = FuzzTarget(rawValue: name) else {
            let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("resonance-fuzz: set FUZZ_TARGET to one of: \(known) (or list)\n".utf8))
            exit(2)
        }
        runner = FuzzRunner(target: target)
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
@main
struct ReplayFuzzInputs {
    static func main() {
        let args = CommandLine.arguments.dropFirst()
        if args.first == "list" {
            print(FuzzTarget.allCases.map(\.rawValue).joined(separator: "\n"))
            return
        }
        guard let name = args.first, let target = FuzzTarget(rawValue: name) else {
            let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("usage: resonance-fuzz TARGET FILE… (targets: \(known))\n".utf8))
            exit(2)
        }
        let runner = FuzzRunner(target: target)
        defer { try? FileManager.default.removeItem(atPath: runner.scratch) }
        for path in args.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("resonance-fuzz: \(path): cannot read\n".utf8))
                exit(1)
            }
            runner.run(Array(data))
        }
    }
}
#endif
