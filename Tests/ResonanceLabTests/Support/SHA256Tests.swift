import XCTest
@testable import ResonanceLab

final class SHA256Tests: XCTestCase {
    func testFIPSVectors() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testIncrementalUpdatesMatchOneShot() {
        let text = Array(String(repeating: "resonance-", count: 1000).utf8)
        var h = SHA256()
        for chunk in stride(from: 0, to: text.count, by: 37) {
            h.update(text[chunk..<min(chunk + 37, text.count)])
        }
        XCTAssertEqual(h.finalizeHex(), SHA256.hex(String(decoding: text, as: UTF8.self)))
    }
}
