import XCTest
@testable import ResonanceLab

final class TimestampTests: XCTestCase {
    func testKnownInstants() {
        // 1644226071 s is the Stress-Predict S01 HR start: 2022-02-07 09:27:51 UTC.
        XCTAssertEqual(Timestamp.iso(1_644_226_071_000), "2022-02-07T09:27:51.000Z")
        XCTAssertEqual(Timestamp.iso(0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(Timestamp.iso(-1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp.iso(951_782_400_000), "2000-02-29T00:00:00.000Z")
    }

    func testParsingZonesFractionsAndNaiveTimes() {
        XCTAssertEqual(Timestamp.parseISO("2022-02-07T09:27:51.5Z")?.ms, 1_644_226_071_500)
        XCTAssertEqual(Timestamp.parseISO("2022-02-07T10:27:51+01:00")?.ms, 1_644_226_071_000)
        XCTAssertEqual(Timestamp.parseISO("2022-02-07 04:27:51 -0500")?.ms, 1_644_226_071_000)
        let naive = Timestamp.parseISO("2022-02-07 09:27:51")
        XCTAssertEqual(naive?.ms, 1_644_226_071_000)
        XCTAssertEqual(naive?.hasZone, false)
        XCTAssertEqual(Timestamp.parseISO("2022-02-07")?.ms, 1_644_192_000_000)
        XCTAssertNil(Timestamp.parseISO("2022-02-30T00:00:00Z"))
        XCTAssertNil(Timestamp.parseISO("2022-02-07T25:00:00Z"))
        XCTAssertNil(Timestamp.parseISO("yesterday"))
    }

    /// The canonical form is read at fixed positions; the same text with `+00:00` for `Z`
    /// goes through the general parser, and both must agree, on valid and invalid text.
    func testCanonicalFormAgreesWithTheGeneralParser() {
        func general(_ text: String) -> Int64? {
            Timestamp.parseISO(String(text.dropLast()) + "+00:00")?.ms
        }
        var rng = SeededRandom(seed: 44)
        for _ in 0..<5000 {
            let ms = Int64.random(in: -2_208_988_800_000...4_102_444_800_000, using: &rng)
            let text = Timestamp.iso(ms)
            XCTAssertEqual(Timestamp.parseISO(text)?.ms, ms, text)
            XCTAssertEqual(general(text), ms, text)
        }
        for text in ["2016-12-31T23:59:60.500Z", "2022-04-31T00:00:00.000Z", "2022-13-01T00:00:00.000Z",
                     "2022-02-07T24:00:00.000Z", "2022-02-07T09:60:00.000Z", "2022-02-07T09:27:5x.000Z",
                     "2024-02-29T12:00:00.999Z", "2023-02-29T12:00:00.000Z", "0000-01-01T00:00:00.000Z"] {
            XCTAssertEqual(Timestamp.parseISO(text)?.ms, general(text), text)
        }
        XCTAssertEqual(Timestamp.parseISO("2016-12-31T23:59:60.500Z")?.ms, 1_483_228_799_500, "a leap second is held at :59")
    }

    func testRoundTripAndWeekday() {
        for ms: Int64 in [0, 1_644_226_071_123, 4_102_444_800_000, -86_400_001] {
            XCTAssertEqual(Timestamp.parseISO(Timestamp.iso(ms))?.ms, ms)
        }
        XCTAssertEqual(Timestamp.isoWeekday(1_644_226_071_000), 1, "2022-02-07 was a Monday")
        XCTAssertEqual(Timestamp.isoWeekday(0), 4, "1970-01-01 was a Thursday")
    }
}
