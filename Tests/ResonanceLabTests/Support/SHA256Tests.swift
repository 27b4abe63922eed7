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

    /// A copy taken mid-stream is a separate digest: "abc" and "abd" from one prefix.
    func testCopiesDigestIndependently() {
        var h = SHA256()
        h.update(Array("ab".utf8))
        var other = h
        h.update(Array("c".utf8))
        other.update(Array("d".utf8))
        XCTAssertEqual(h.finalizeHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(other.finalizeHex(), SHA256.hex("abd"))
        XCTAssertEqual(SHA256.hex("abd"), "a52d159f262b2c6ddb724a61840befc36eb30c88877a4030b65cbe86298449c9")
    }

    /// A file's digest computed beside the chunks' inspection is the same digest, and the
    /// inspection sees every byte in order.
    func testAFilesDigestBesideItsInspection() throws {
        let text = Array(String(repeating: "resonance, ", count: 250_000).utf8)  // 2.75 MB: three chunks
        let path = try makeTempDir() + "/f.txt"
        try writeFixture(String(decoding: text, as: UTF8.self), to: path)
        let expected = SHA256.hex(String(decoding: text, as: UTF8.self))
        for jobs in [1, 2] {
            var seen: [UInt8] = []
            XCTAssertEqual(try SHA256.hex(ofFile: path, jobs: jobs) { seen += $0 }, expected, "jobs \(jobs)")
            XCTAssertEqual(seen, text, "jobs \(jobs)")
        }
    }
}
