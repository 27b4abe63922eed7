import Dispatch
import Foundation

/// Order-preserving parallel map: results are in input order whatever the number of
/// jobs, so outputs are identical for `--jobs 1` and `--jobs N`.
public enum Parallel {
    public static func map<T, R>(_ items: [T], jobs: Int, _ transform: (T) throws -> R) throws -> [R] {
        let results = UnsafeMutableBufferPointer<Result<R, Error>?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let workers = max(1, min(jobs, items.count))
        withoutActuallyEscaping(transform) { transform in
            if workers == 1 {
                for i in items.indices { results[i] = Result { try transform(items[i]) } }
            } else {
                // Items are handed out one at a time, so a worker that finishes a small
                // item takes the next one instead of idling while another works through a
                // fixed share of large ones; order is restored by index.
                let queue = WorkQueue(count: items.count)
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while let i = queue.next() {
                        results[i] = Result { try transform(items[i]) }
                    }
                }
            }
        }
        return try results.map { try $0!.get() }
    }
}

/// The indices 0 ..< count, handed out once each to whichever worker asks first.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }
}
