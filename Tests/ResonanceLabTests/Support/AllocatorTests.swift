import XCTest
@testable import ResonanceLab

final class AllocatorTests: XCTestCase {
    /// glibc accepts every setting (a threshold above its limit would be refused).
    func testGlibcAcceptsTheBatchSettings() {
        XCTAssertTrue(Allocator.tuneForBatchWork())
    }
}
