import Foundation
import XCTest
@testable import ResonanceLab

final class NumberParsingTests: XCTestCase {
    func testPlainDecimalFastPathAgreesWithStrtod() {
        var rng = SeededRandom(seed: 11)
        var texts = ["0", "-0", "72", "72.5", "0.1", "0.3", "859.375", "999999999999999", "123456.789012345",
                     "-3.14159", "1e3", "1.", ".5", "1,5", "+7", "00012.50"]
        for _ in 0..<20_000 {
            let digits = Int(rng.next() % 15) + 1
            var s = String(rng.next() % 1_000_000_000_000_000).prefix(digits)
            let point = Int(rng.next() % UInt64(digits + 1))
            if point < s.count { s.insert(".", at: s.index(s.startIndex, offsetBy: point)) }
            texts.append(String(s))
        }
        for text in texts {
            let expected = strtod(text, nil)
            let got = NumberParsing.double(text)
            if text == "1,5" { XCTAssertNil(got); continue }
            XCTAssertEqual(got?.bitPattern, expected.bitPattern, text)
        }
    }
}

final class StrictNumberTests: XCTestCase {
    /// strtod reads hexadecimal floats and the words nan/inf; a data file's number is
    /// decimal only, so each of these is not a number.
    func testOnlyDecimalNotationIsANumber() {
        for text in ["0x3C", "0X3c", "0x1p4", "nan", "NaN", "inf", "-infinity", "1e", "e5", ".", "-", "1.5.2", "12abc",
                     "1e+", "0x", "1_000"] {
            XCTAssertNil(NumberParsing.double(text), text)
        }
        let decimals: [(String, Double)] = [("60", 60), (" 60 ", 60), ("+7", 7), ("1e3", 1000), ("2.5E-1", 0.25),
                                            (".5", 0.5), ("1.", 1), ("-0.125", -0.125), ("1234567890123456789", 1234567890123456789)]
        for (text, value) in decimals {
            XCTAssertEqual(NumberParsing.double(text), value, text)
        }
    }
}
