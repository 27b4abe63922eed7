@testable import ResonanceLab
import XCTest

/// The zone that the countries of a subject's plays propose (docs/import.md, Time zones).
final class CountryZonesTests: XCTestCase {
    /// 2024-01-15 and 2024-07-15, 00:00 UTC: winter and summer time.
    static let days = [1_705_276_800_000, 1_721_001_600_000].map { Date(timeIntervalSince1970: Double($0) / 1000) }

    func testACountryWhoseZonesKeepOneClockHasThatZone() {
        XCTAssertEqual(CountryZones.single("IN", on: Self.days)?.identifier, "Asia/Kolkata")
        // Büsingen keeps Berlin's clock, winter and summer: Germany has one.
        XCTAssertEqual(CountryZones.zones("DE"), ["Europe/Berlin", "Europe/Busingen"])
        XCTAssertEqual(CountryZones.single("DE", on: Self.days)?.identifier, "Europe/Berlin")
        // The Canaries are an hour behind Madrid; the United States span many clocks.
        XCTAssertNil(CountryZones.single("ES", on: Self.days))
        XCTAssertNil(CountryZones.single("US", on: Self.days))
        XCTAssertNil(CountryZones.single("ZZ", on: Self.days))
    }

    func testAdviceFollowsTheMostFrequentCountryAndKeepsQuietWhenTzKeepsItsClock() {
        var india = CountryPlays(), britain = CountryPlays(), unknown = CountryPlays()
        for ms: Int64 in [1_705_276_800_000, 1_705_280_400_000, 1_721_001_600_000] { india.add(ms) }
        britain.add(1_721_001_600_000)
        unknown.add(1_721_001_600_000)
        XCTAssertEqual(india.plays, 3)
        XCTAssertEqual(india.days, [1_705_276_800_000, 1_721_001_600_000])
        let unsaid = "session contexts, time slots and days are read in UTC"
        XCTAssertEqual(CountryZones.advice(subject: "P1", countries: ["IN": india, "GB": britain], given: nil),
                       "P1: conn_country IN on 3 of 4 plays proposes --tz Asia/Kolkata; without it, \(unsaid)")
        // Colombo keeps Kolkata's clock: nothing to say; Berlin does not.
        XCTAssertNil(CountryZones.advice(subject: "P1", countries: ["IN": india], given: TimeZone(identifier: "Asia/Colombo")))
        XCTAssertEqual(CountryZones.advice(subject: "P1", countries: ["IN": india], given: TimeZone(identifier: "Europe/Berlin")),
                       "P1: conn_country IN on all 3 plays proposes Asia/Kolkata, not --tz Europe/Berlin, which is kept")
        XCTAssertEqual(CountryZones.advice(subject: "P2", countries: ["ZZ": unknown], given: nil),
                       "P2: conn_country ZZ on its one play, a code without a zone in tzdata: no zone to propose; "
                       + "without --tz, \(unsaid)")
        XCTAssertNil(CountryZones.advice(subject: "P2", countries: [:], given: nil))
    }
}
