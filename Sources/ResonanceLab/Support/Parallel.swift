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

    /// `first()` and `second()` side by side when `jobs` allows (one after the other
    /// otherwise): a stage indexes two of its tables at once. The first failure, in that
    /// order, is thrown.
    public static func both<A, B>(jobs: Int, _ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
        guard jobs >= 2 else { return (try first(), try second()) }
        let a = UnsafeMutablePointer<Result<A, Error>?>.allocate(capacity: 1)
        let b = UnsafeMutablePointer<Result<B, Error>?>.allocate(capacity: 1)
        a.initialize(to: nil)
        b.initialize(to: nil)
        defer {
            a.deinitialize(count: 1); a.deallocate()
            b.deinitialize(count: 1); b.deallocate()
        }
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                // Each iteration writes only its own result.
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    if i == 0 { a.pointee = Result { try first() } } else { b.pointee = Result { try second() } }
                }
            }
        }
        guard let x = a.pointee, let y = b.pointee else { throw CancellationError() }
        return (try x.get(), try y.get())
    }

    /// Transforms the items in parallel and hands each result to `consume` in input
    /// order as soon as it and every result before it are done, on whichever worker
    /// completed that prefix, one call at a time. A stage's table is so written and
    /// digested while later subjects are still computed. An item is started only when
    /// fewer than `window` items from the next one to consume on are started and not
    /// consumed (a worker waits meanwhile; default 2 × `jobs`), so that at most that many
    /// results (one subject's rows each, for a stage) are held at once, however slow one
    /// item or the consumer is. The first failure in input order (of `transform` or
    /// `consume`) stops the work and is thrown, whatever `jobs` is.
    public static func forEach<T, R>(_ items: [T], jobs: Int, window: Int? = nil, _ transform: (T) throws -> R,
                                     inOrder consume: (R) throws -> Void) throws {
        let workers = max(1, min(jobs, items.count))
        if workers == 1 {
            for item in items { try consume(try transform(item)) }
            return
        }
        let queue = OrderedHandOff<R>(count: items.count, window: window ?? 2 * workers)
        withoutActuallyEscaping(transform) { transform in
            withoutActuallyEscaping(consume) { consume in
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while let i = queue.next() {
                        queue.finish(i, Result { try transform(items[i]) }, consume: consume)
                    }
                }
            }
        }
        if let failure = queue.failure { throw failure }
    }
}

/// Results of `Parallel.forEach` waiting for an earlier one, and the index of the next
/// result to consume. The worker that completes the next result consumes it and every
/// waiting result after it; the others go on computing meanwhile, up to `window` items
/// ahead of the next one to consume.
private final class OrderedHandOff<R>: @unchecked Sendable {
    /// Guards the state below; signalled when a result is consumed or the work fails.
    private let lock = NSCondition()
    private let count: Int, window: Int
    private var nextIndex = 0
    private var waiting: [Int: Result<R, Error>] = [:]
    private var nextToConsume = 0
    private var consuming = false
    private(set) var failure: Error?

    init(count: Int, window: Int) { self.count = count; self.window = max(1, window) }

    /// The next item to transform, once it is within `window` of the next to consume
    /// (which is always handed out, so the work never waits on itself); nil once all
    /// are handed out or a failure stopped the work.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        while failure == nil, nextIndex < count, nextIndex - nextToConsume >= window { lock.wait() }
        guard failure == nil, nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    func finish(_ index: Int, _ result: Result<R, Error>, consume: (R) throws -> Void) {
        lock.lock()
        waiting[index] = result
        guard !consuming else { lock.unlock(); return }
        consuming = true
        while failure == nil, let ready = waiting.removeValue(forKey: nextToConsume) {
            lock.unlock()
            let outcome = Result { try consume(ready.get()) }
            lock.lock()
            if case let .failure(error) = outcome { failure = error }
            nextToConsume += 1
            lock.broadcast()
        }
        consuming = false
        lock.unlock()
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
