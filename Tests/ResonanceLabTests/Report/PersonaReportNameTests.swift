import XCTest
@testable import ResonanceLab

/// Report file names encode the subject id reversibly.
final class PersonaReportNameTests: XCTestCase {
    /// Decodes a report file name (the test's own inverse of the encoding).
    private func decode(_ fileName: String) -> String? {
        guard fileName.hasSuffix(".md"), fileName != "_.md" else { return fileName == "_.md" ? "" : nil }
        var bytes: [UInt8] = []
        var chars = Array(fileName.dropLast(3).utf8)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            if c == UInt8(ascii: "_") {
                guard chars.count >= 2, let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(b)
                chars = chars.dropFirst(2)
            } else {
                bytes.append(c)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testDistinctSubjectsGetDistinctFilesAndIndexIsReserved() {
        let subjects = ["New.Mom", "New_Mom", "New Mom", "NewMom", "index", "Index", "", "_", "_2E", "ü", "a/b", "..", "CardiacRehab"]
        let names = subjects.map(PersonaReports.fileName)
        XCTAssertEqual(Set(names).count, subjects.count, "\(names)")
        XCTAssertFalse(names.contains("index.md"))
        XCTAssertEqual(PersonaReports.fileName("New.Mom"), "New_2EMom.md")
        XCTAssertEqual(PersonaReports.fileName("New_Mom"), "New_5FMom.md")
        XCTAssertEqual(PersonaReports.fileName("index"), "_69ndex.md")
        XCTAssertEqual(PersonaReports.fileName("NewMom"), "NewMom.md")
        XCTAssertEqual(PersonaReports.fileName("ü"), "_C3_BC.md")
        for (subject, name) in zip(subjects, names) {
            XCTAssertEqual(decode(name), subject, name)
            XCTAssertFalse(name.contains("/"))
        }
    }
}
