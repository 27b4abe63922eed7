import ResonanceLab
import XCTest

final class SubjectShardTests: XCTestCase {
    /// FNV-1a 64 test vectors (Fowler/Noll/Vo, http://www.isthe.com/chongo/src/fnv/test_fnv.c).
    func testFNV1a64KnownAnswers() {
        XCTAssertEqual(SubjectShard.fnv1a64(Array("".utf8)), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(SubjectShard.fnv1a64(Array("a".utf8)), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(SubjectShard.fnv1a64(Array("foobar".utf8)), 0x8594_4171_f739_67e8)
    }

    /// Worked by hand from the hashes: S01 0x978fee19fa010ba5, S02 0x978feb19fa01068c.
    func testShardIsTheHashModuloTheCount() {
        XCTAssertEqual([2, 3, 7].map { SubjectShard.index(of: "S01", count: $0) }, [1, 0, 6])
        XCTAssertEqual([2, 3, 7].map { SubjectShard.index(of: "S02", count: $0) }, [0, 0, 4])
        XCTAssertEqual(SubjectShard.index(of: "", count: 7), 0, "dataset-wide rows go to shard 0")
        XCTAssertEqual(SubjectShard.index(of: "anyone", count: 1), 0)
    }

    func testShardFoldersListInIndexOrder() {
        XCTAssertEqual(Sharding.folderName(index: 0, count: 1), "shard-000")
        XCTAssertEqual(Sharding.folderName(index: 42, count: 100), "shard-042")
        XCTAssertEqual(Sharding.folderName(index: 7, count: 1001), "shard-0007")
    }
}
