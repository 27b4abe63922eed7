import XCTest
@testable import ResonanceLab

/// The one pluralisation of counts in reports and on stderr.
final class PluralTests: XCTestCase {
    func testOneTakesTheSingularEveryOtherCountThePlural() {
        XCTAssertEqual(plural(1, "subject"), "1 subject")
        XCTAssertEqual(plural(0, "subject"), "0 subjects")
        XCTAssertEqual(plural(2, "row"), "2 rows")
        XCTAssertEqual(plural(-1, "day"), "-1 days")
        XCTAssertEqual(plural(1, "analysis", "analyses"), "1 analysis")
        XCTAssertEqual(plural(3, "analysis", "analyses"), "3 analyses")
        XCTAssertEqual(plural(1, "record of a kind", "records of kinds"), "1 record of a kind")
        XCTAssertEqual(plural(1, "file", counted: false), "file")
        XCTAssertEqual(plural(4, "file", counted: false), "files")
    }
}
