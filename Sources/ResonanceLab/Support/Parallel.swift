import Dispatch

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
                // Static striding keeps each worker's share fixed; order is restored by index.
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    var i = w
                    while i < items.count {
                        results[i] = Result { try transform(items[i]) }
                        i += workers
                    }
                }
            }
        }
        return try results.map { try $0!.get() }
    }
}
