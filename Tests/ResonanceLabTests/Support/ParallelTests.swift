import XCTest
@testable import ResonanceLab

final class ParallelTests: XCTestCase {
    private struct Failure: Error, Equatable { let item: Int }

    /// Items of uneven cost (the later ones finish first), so results complete out of order.
    private func work(_ i: Int) -> Int {
        var x = UInt64(i)
        for _ in 0..<((40 - i % 40) * 2_000) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        return i * i + Int(x & 1) - Int(x & 1)
    }

    func testMapKeepsInputOrderForAnyJobs() throws {
        let items = Array(0..<200)
        for jobs in [1, 2, 3, 8] {
            XCTAssertEqual(try Parallel.map(items, jobs: jobs, work), items.map { $0 * $0 }, "jobs \(jobs)")
        }
    }

    func testForEachConsumesEveryResultOnceInInputOrder() throws {
        let items = Array(0..<200)
        for jobs in [1, 2, 3, 8] {
            var consumed: [Int] = []
            try Parallel.forEach(items, jobs: jobs, work, inOrder: { consumed.append($0) })
            XCTAssertEqual(consumed, items.map { $0 * $0 }, "jobs \(jobs)")
        }
    }

    /// With a window, no item starts while `window` items before it are started and not
    /// consumed, even when the consumer is the slow part; results stay in order.
    func testForEachWindowBoundsTheItemsStartedAndNotConsumed() throws {
        let items = Array(0..<60)
        for (jobs, window) in [(2, 2), (4, 2), (4, 3)] {
            let lock = NSLock()
            var started = 0, consumedCount = 0, most = 0
            var consumed: [Int] = []
            try Parallel.forEach(items, jobs: jobs, window: window, { i -> Int in
                lock.lock(); started += 1; most = max(most, started - consumedCount); lock.unlock()
                return i * i
            }, inOrder: { r in
                _ = self.work(r % 40)
                consumed.append(r)
                lock.lock(); consumedCount += 1; lock.unlock()
            })
            XCTAssertEqual(consumed, items.map { $0 * $0 }, "jobs \(jobs)")
            XCTAssertEqual(most, window, "jobs \(jobs), window \(window)")
        }
    }

    /// The failure thrown is the first in input order, as with one job, and nothing after
    /// it is consumed, whether `transform` or `consume` fails.
    func testForEachThrowsTheFirstFailureInInputOrder() {
        let items = Array(0..<120)
        for jobs in [1, 2, 4] {
            var consumed: [Int] = []
            let error = Result {
                try Parallel.forEach(items, jobs: jobs, { i -> Int in
                    if i == 37 || i == 90 { throw Failure(item: i) }
                    return self.work(i)
                }, inOrder: { consumed.append($0) })
            }
            XCTAssertEqual(error.failure as? Failure, Failure(item: 37), "jobs \(jobs)")
            XCTAssertEqual(consumed, (0..<37).map { $0 * $0 }, "jobs \(jobs)")

            var seen = 0
            let consumerError = Result {
                try Parallel.forEach(items, jobs: jobs, work, inOrder: { _ in
                    seen += 1
                    if seen == 50 { throw Failure(item: seen) }
                })
            }
            XCTAssertEqual(consumerError.failure as? Failure, Failure(item: 50), "jobs \(jobs)")
            XCTAssertEqual(seen, 50, "jobs \(jobs)")
        }
    }

    /// A slow item holds back the work after it: no item starts more than 2 × jobs places
    /// after the next one to consume, so that the results held stay bounded.
    func testForEachStartsNoItemBeyondItsWindow() throws {
        for jobs in [2, 3] {
            let lock = NSLock()
            var consumed = 0, furthest = 0
            try Parallel.forEach(Array(0..<60), jobs: jobs, { i -> Int in
                lock.lock()
                furthest = max(furthest, i - consumed)
                lock.unlock()
                if i == 0 { usleep(200_000) }
                return i
            }, inOrder: { i in
                lock.lock()
                consumed = i + 1
                lock.unlock()
            })
            XCTAssertEqual(consumed, 60)
            XCTAssertLessThan(furthest, 2 * jobs, "jobs \(jobs)")
            XCTAssertGreaterThanOrEqual(furthest, jobs - 1, "jobs \(jobs)")
        }
    }

    func testBothRunsEachOnceAndThrowsTheFirstFailureInOrder() throws {
        struct Failure: Error, Equatable { let which: Int }
        for jobs in [1, 2] {
            let (a, b) = try Parallel.both(jobs: jobs, { (1...1000).reduce(0, +) }, { "two" })
            XCTAssertEqual(a, 500_500)
            XCTAssertEqual(b, "two")
            XCTAssertThrowsError(try Parallel.both(jobs: jobs, { throw Failure(which: 1) }, { throw Failure(which: 2) })) {
                XCTAssertEqual($0 as? Failure, Failure(which: 1))
            }
            XCTAssertThrowsError(try Parallel.both(jobs: jobs, { 1 }, { throw Failure(which: 2) })) {
                XCTAssertEqual($0 as? Failure, Failure(which: 2))
            }
        }
    }
}
