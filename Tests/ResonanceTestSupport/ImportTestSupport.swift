import Foundation
import XCTest
import ResonanceLab

extension XCTestCase {
    /// Imports `sources` into a fresh workspace and returns it with its manifest.
    public func importSources(_ sources: [String], format: SourceFormat? = nil, tz: String? = nil,
                              subject: String? = nil) throws -> (Workspace, Manifest) {
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let options = Importer.Options(format: format, timeZone: tz.flatMap(TimeZone.init(identifier:)), subject: subject)
        let manifest = try Importer.run(sources: sources, workspace: ws, options: options)
        return (ws, manifest)
    }
}

/// Non-empty lines of a file: the data lines of one-value-per-line formats.
public func nonEmptyLines(_ path: String) throws -> Int {
    try String(contentsOfFile: path, encoding: .utf8)
        .split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).count
}

/// Asserts rows read = accepted + rejected for every source of the manifest.
public func assertAccounting(_ manifest: Manifest, file: StaticString = #filePath, line: UInt = #line) {
    for s in manifest.sources {
        XCTAssertEqual(s.rowsRead, s.accepted + s.rejected, s.path, file: file, line: line)
    }
}

/// An E4 Connect session folder as E4 Connect writes it: a start (unix s) and a rate
/// (Hz) line, then samples; ACC has three columns; IBI starts `<start>, IBI`; tags.csv
/// is one unix time per line; info.txt describes the files.
public func writeE4ConnectSession(_ dir: String, tags: String = "1709280030.250000\n1709280045.500000\n") throws {
    let start = "1709280000.000000"
    try writeFixture("\(start), \(start), \(start)\n32.000000, 32.000000, 32.000000\n-13,59,17\n-12,60,17\n",
                     to: dir + "/ACC.csv")
    try writeFixture("\(start)\n64.000000\n-0.00\n12.41\n25.07\n", to: dir + "/BVP.csv")
    try writeFixture("\(start)\n4.000000\n0.000000\n0.221384\n", to: dir + "/EDA.csv")
    try writeFixture("1709280010.000000\n1.000000\n" + (0..<60).map { "\(70 + $0 % 3).00\n" }.joined(), to: dir + "/HR.csv")
    try writeFixture("\(start), IBI\n12.000000,0.812500\n12.796875,0.796875\n13.609375,0.812500\n", to: dir + "/IBI.csv")
    try writeFixture("\(start)\n4.000000\n33.13\n33.13\n", to: dir + "/TEMP.csv")
    try writeFixture(tags, to: dir + "/tags.csv")
    try writeFixture("""
        .csv files in this archive are in the following format:
        The first row is the initial time of the session expressed as unix timestamp in UTC.
        The second row is the sample rate expressed in Hz.

        IBI.csv
        Time between individuals heart beats extracted from the BVP signal.

        """, to: dir + "/info.txt")
}

/// `rr.csv` of five subjects `s0`…`s4` whose runs of 1–40 intervals interleave, so that
/// subjects reappear (about `count` rows; `seed` picks the table), with its rows.
public func interleavedRRTable(seed: UInt64, count: Int = 3000) -> (text: String, rows: [RRInterval]) {
    var rng = SeededRandom(seed: seed)
    var rows: [RRInterval] = []
    var t: [Int64] = [0, 0, 0, 0, 0]
    while rows.count < count {
        let s = Int.random(in: 0..<5, using: &rng)
        for _ in 0..<Int.random(in: 1...40, using: &rng) {
            let rr = Double(Int.random(in: 500...1200, using: &rng)) + 0.25
            t[s] += Int64(rr)
            rows.append(RRInterval(subject: "s\(s)", timestampMs: t[s], rrMs: rr, source: "e4"))
        }
    }
    let text = RRInterval.header.joined(separator: ",") + "\n" + rows.map { r in
        "\(r.subject),\(Timestamp.iso(r.timestampMs)),\(r.rrMs),\(r.source)"
    }.joined(separator: "\n") + "\n"
    return (text, rows)
}
