import XCTest
@testable import ResonanceLab

/// Inputs the fuzz targets (`make fuzz`) found crashing a reader, each now a one-line
/// error naming the file, or rows accounted for.
final class FuzzRegressionTests: XCTestCase {
    /// A second `<!DOCTYPE … [<!ATTLIST … #REQUIRED>]>` after the export's own (found by
    /// `format-apple-health-xml`): Foundation's XMLParser crashed on its attribute
    /// declaration, and with the export's DTD blanked libxml2 read the second one as the
    /// document's (entities and all). It is malformed XML, reported with its line.
    func testASecondDoctypeInAnAppleHealthExportIsAnError() throws {
        let path = try writeFixture("""
            <?xml version="1.0"?>
            <!DOCTYPE a [<!ATTLIST HealthData locale CDATA #REQUIRED>]>
            <!DOCTYPE HealthData [<!ATTLIST HealthData locale CDATA #REQUIRED>]>
            <HealthData></HealthData>

            """, to: try makeTempDir() + "/p/export.xml")
        XCTAssertThrowsError(try importSources([path])) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path):3:"), "\(error)")
        }
        XCTAssertThrowsError(try Importer.readInMemory(path))
    }

    /// The three archives `format-apple-health-zip` found hanging ZIPFoundation's inflate
    /// loop: a corrupt deflate stream that inflates past the 2774 bytes the archive
    /// declares. Each read stops there with one line; a hang fails the test after a
    /// minute instead of stalling the suite.
    func testCorruptDeflateStreamsOfTheZipFuzzTargetFailAtOnce() throws {
        for (k, archive) in AppleHealthZipFuzzInputs.timeouts.indices.map(AppleHealthZipFuzzInputs.archive).enumerated() {
            let path = try makeTempDir() + "/p/export.zip"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try archive.write(to: URL(fileURLWithPath: path))
            let done = expectation(description: "input \(k) read")
            nonisolated(unsafe) var errors: [String] = []
            DispatchQueue.global().async {
                do { _ = try Importer.readInMemory(path) } catch { errors.append("\(error)") }
                do { _ = try self.importSources([path], format: .appleHealthZip) } catch { errors.append("\(error)") }
                done.fulfill()
            }
            wait(for: [done], timeout: 60)
            let line = "\(path):0:0: cannot decompress apple_health_export/export.xml: it holds more than the 2774 bytes the archive declares"
            XCTAssertEqual(errors, [line, line], "input \(k)")
        }
    }

    /// An E4 raw channel whose rate line is 2111e39 Hz (found by `format-e4-signal`): the
    /// flat-stretch length in samples overflowed. A rate outside 1/86400–1000000 Hz is
    /// one line naming the file and line.
    func testAnE4ChannelWithAnAbsurdRateIsAnError() throws {
        let path = try writeFixture("163\r\n\r2111e39, ", to: try makeTempDir() + "/p/BVP.csv")
        XCTAssertThrowsError(try Importer.readInMemory(path)) { error in
            XCTAssertEqual("\(error)", "\(path):2:1: E4 sample rate 2111e39 is outside 1/86400–1000000 Hz")
        }
    }

    /// Headers that once reached a trap in review: a WFDB record declaring −5 frames, and
    /// signals forced as BIDMC's layout with nothing after the time column. Each is one
    /// line naming the file and line.
    func testANegativeWFDBFrameCountAndABIDMCFileWithoutSignalsAreErrors() throws {
        let dir = try makeTempDir() + "/db"
        try writeFixture("r 1 360 -5\nr.dat 16 200 16 0 0 0 0 ECG\n", to: dir + "/r.hea")
        try Data([1, 0, 2, 0]).write(to: URL(fileURLWithPath: dir + "/r.dat"))
        XCTAssertThrowsError(try importSources([dir + "/r.dat"], format: .wfdb)) { error in
            XCTAssertEqual("\(error)", "\(dir)/r.hea:1:4: WFDB sample count '-5' is not a whole number ≥ 0")
        }
        let csv = try writeFixture("Time [s]\n0\n0.008\n0.016\n", to: try makeTempDir() + "/b/bidmc_09_Signals.csv")
        XCTAssertThrowsError(try importSources([csv], format: .bidmc)) { error in
            XCTAssertEqual("\(error)", "\(csv):1:2: BIDMC signals need a column after the time column")
        }
    }
}
