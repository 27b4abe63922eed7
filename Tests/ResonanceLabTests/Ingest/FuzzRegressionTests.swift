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
}
