import XCTest
@testable import ResonanceLab

final class LineEncoderTests: XCTestCase {
    private func encoded(_ v: Double) -> String {
        var line: [UInt8] = []
        LineEncoder.appendNumber(v, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    func testNumbersMatchCSVWriterText() {
        var rng = SeededRandom(seed: 20_221_107)
        var values: [Double] = [0, 1, -1, 72, 72.5, 812.5, 859.375, 1e14, 123456789012345.6, 0.5, 1e-7,
                                1e15, 2.675, 60.05, -3.125, 1000.001, 9.999, 999_999.999,
                                0.1, 0.078125, 0.00390625, 0.001, 0.0009999, 0.00099, 0.999999999, 0.123456789,
                                0.3, 1.0 / 3, -0.0625, 0.00012207031250, 1e12, 999_999_999_999.999, 1e12 + 0.5,
                                0.32043477355041156, 0.07421875, 1e-3 + 1e-11]
        for _ in 0..<20_000 {
            values.append(Double(Int.random(in: 0...2_500_000, using: &rng)) / 1000)
            values.append(Double.random(in: -1e6...1e6, using: &rng))
            // Below 1: grid frequencies (k/256, k/1024), short decimals, and arbitrary values.
            values.append(Double(Int.random(in: 1...255, using: &rng)) / 256)
            values.append(Double(Int.random(in: 1...1023, using: &rng)) / 1024)
            values.append(Double(Int.random(in: 1...99_999_999, using: &rng)) / 100_000_000)
            values.append(Double.random(in: 0.0005...1, using: &rng))
            // Around the fast path's upper bound 10¹², and above it up to 10¹⁵.
            values.append(Double(Int64.random(in: 999_000_000_000_000...1_001_000_000_000_000, using: &rng)) / 1000)
            values.append(Double(Int64.random(in: 1...999_999_999_999_999, using: &rng)) / 1000)
        }
        for v in values { XCTAssertEqual(encoded(v), CSVWriter.format(v), "\(v)") }
    }

    func testIntegersMatchStringText() {
        var rng = SeededRandom(seed: 20_261_123)
        var values = [0, 1, -1, 9, 10, -10, 256, Int.max, Int.min, Int.min + 1]
        for _ in 0..<5_000 { values.append(Int.random(in: Int.min...Int.max, using: &rng) >> Int.random(in: 0...62, using: &rng)) }
        for v in values {
            var line: [UInt8] = []
            LineEncoder.appendInteger(v, to: &line)
            XCTAssertEqual(String(decoding: line, as: UTF8.self), String(v))
        }
    }

    func testFieldQuotingAndTimestamp() {
        var line: [UInt8] = []
        LineEncoder.appendField("a,\"b\"", to: &line)
        line.append(44)
        LineEncoder.appendTimestamp(1_644_226_071_123, to: &line)
        XCTAssertEqual(String(decoding: line, as: UTF8.self), "\"a,\"\"b\"\"\",2022-02-07T09:27:51.123Z")
    }
}

final class TimestampCacheTests: XCTestCase {
    func testCachedDatePrefixMatchesFullFormatting() {
        var cache = LineEncoder.TimestampCache()
        // Across midnight, a leap day, a year end and before 1970.
        let instants: [Int64] = [0, 86_399_999, 86_400_000, 951_782_400_000 - 1, 951_782_400_000,
                                 951_868_799_999, 1_704_067_199_999, 1_704_067_200_000, -1, -86_400_001]
        for ms in instants {
            var line: [UInt8] = []
            cache.append(ms, to: &line)
            XCTAssertEqual(String(decoding: line, as: UTF8.self), Timestamp.iso(ms), "\(ms)")
        }
    }
}
