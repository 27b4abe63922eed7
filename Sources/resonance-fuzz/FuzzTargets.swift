import Foundation
import ResonanceLab

/// libFuzzer targets for the input parsers. Built with `-sanitize=fuzzer` and
/// `-D FUZZING` (see `mk/fuzz.mk`), `main` hands over to libFuzzer's driver and the
/// target is chosen by the `FUZZ_TARGET` environment variable. Built plainly (as by
/// `swift build`), `resonance-fuzz TARGET FILE…` runs files through a target once,
/// which replays a corpus or a crash without the sanitizer toolchain.
///
/// Every target only feeds bytes to public entry points and checks invariants that
/// hold for any input; an error thrown for bad input is a pass, a trap is a crash.
enum FuzzTarget: String, CaseIterable {
    /// `CSVReader` on arbitrary bytes: the same records whatever the chunk size.
    case csv
    /// `NumberParsing.double`: finite whenever it returns a value.
    case number
    /// `Timestamp.parseISO`: inside years 0000–9999, and the canonical text round-trips.
    case timestamp
    /// `ConstantsRegistry(contentsOf:)`: a loaded registry respects every range.
    case constants
    /// `resonance import` with format detection; the first byte picks the file name.
    case detect
    /// `resonance import` with one forced format per target.
    case csvFormat = "format-csv"
    case e4HR = "format-e4-hr"
    case e4IBI = "format-e4-ibi"
    case e4Tags = "format-e4-tags"
    case physionetRR = "format-physionet-rr"
    case appleMusic = "format-apple-music"
    case appleHealth = "format-apple-health"
    case stressPredictLabels = "format-stress-predict-labels"
    case canonical = "format-canonical"

    /// File names that lead detection to each format (and name forced inputs).
    static let detectNames = [
        "input.csv", "HR.csv", "IBI.csv", "tags_S01.csv", "nsr001_rr_secs.txt", "000.txt",
        "Apple Music Play Activity.csv", "health.csv", "labels.csv", "hr.csv", "rr.csv", "plays.csv",
    ]

    var forced: (format: SourceFormat, fileName: String)? {
        switch self {
        case .csvFormat: return (.genericCSV, "input.csv")
        case .e4HR: return (.e4HR, "HR.csv")
        case .e4IBI: return (.e4IBI, "IBI.csv")
        case .e4Tags: return (.e4Tags, "tags_S01.csv")
        case .physionetRR: return (.physionetRR, "nsr001_rr_secs.txt")
        case .appleMusic: return (.appleMusic, "Apple Music Play Activity.csv")
        case .appleHealth: return (.appleHealth, "health.csv")
        case .stressPredictLabels: return (.stressPredictLabels, "labels.csv")
        case .canonical: return (.canonical, "hr.csv")
        case .csv, .number, .timestamp, .constants, .detect: return nil
        }
    }
}

/// Runs one input through one target; traps (a crash for libFuzzer) when an
/// invariant fails.
struct FuzzRunner {
    let target: FuzzTarget
    /// Private scratch folder (inputs and workspaces): `$FUZZ_SCRATCH`, else one on
    /// tmpfs when available.
    let scratch: String

    init(target: FuzzTarget) {
        self.target = target
        let base = ProcessInfo.processInfo.environment["FUZZ_SCRATCH"]
            ?? (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
        scratch = (base as NSString).appendingPathComponent("resonance-fuzz-\(target.rawValue)-\(getpid())")
        try? FileManager.default.createDirectory(atPath: scratch + "/in", withIntermediateDirectories: true)
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
            importFile(Array(data.dropFirst()), name: name, format: nil)
        default:
            if let (format, name) = target.forced { importFile(data, name: name, format: format) }
        }
    }

    private func write(_ data: [UInt8], name: String) -> String {
        let path = scratch + "/in/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(data))
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

    private func csv(_ data: [UInt8]) {
        let path = write(data, name: "input.csv")
        let whole = records(path, chunkSize: 1 << 20)
        let small = records(path, chunkSize: 7)
        precondition(whole == small, "CSVReader: records depend on the chunk size")
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

    private func importFile(_ data: [UInt8], name: String, format: SourceFormat?) {
        let path = write(data, name: name)
        let workspace = Workspace(path: scratch + "/ws")
        _ = try? Importer.run(sources: [path], workspace: workspace, options: .init(format: format))
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

@main
struct FuzzMain {
    static func main() {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("resonance-fuzz: set FUZZ_TARGET to one of: \(known)\n".utf8))
            exit(2)
        }
        runner = FuzzRunner(target: target)
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { start, count in
            let data = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
            runner?.run(data)
            return 0
        })
    }
}
#else
@main
struct ReplayFuzzInputs {
    static func main() {
        let args = CommandLine.arguments.dropFirst()
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
