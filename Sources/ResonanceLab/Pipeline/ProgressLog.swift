import Foundation

/// ProgressLog notes for people (stderr in the CLI, nowhere in tests): one-line notes and,
/// for per-subject work, a count with the time left. Thread-safe; outputs never depend
/// on it.
public final class ProgressLog: @unchecked Sendable {
    private let sink: (@Sendable (String) -> Void)?
    private let lock = NSLock()

    public static let silent = ProgressLog(nil)

    public init(_ sink: (@Sendable (String) -> Void)?) {
        self.sink = sink
    }

    public var isEnabled: Bool { sink != nil }

    public func note(_ message: String) {
        guard let sink else { return }
        lock.lock(); defer { lock.unlock() }
        sink(message)
    }

    /// A counter of `total` items (`unit`, e.g. "subjects") for `label`: each `tick()`
    /// prints `label: done/total unit, elapsed, ETA` at most every half second (and
    /// always for the last item), the ETA extrapolated from the mean time per item.
    public func counter(_ label: String, total: Int, unit: String = "subjects") -> Counter {
        Counter(progress: self, label: label, total: total, unit: unit)
    }

    public final class Counter: @unchecked Sendable {
        let progress: ProgressLog
        let label: String
        let total: Int
        let unit: String
        private let started = DispatchTime.now().uptimeNanoseconds
        private var done = 0
        private var lastPrintNs: UInt64 = 0
        private let lock = NSLock()

        init(progress: ProgressLog, label: String, total: Int, unit: String) {
            self.progress = progress; self.label = label; self.total = total; self.unit = unit
        }

        public func tick() {
            guard progress.isEnabled else { return }
            lock.lock()
            done += 1
            let now = DispatchTime.now().uptimeNanoseconds
            let due = done == total || now - lastPrintNs >= 500_000_000
            if due { lastPrintNs = now }
            let count = done
            lock.unlock()
            guard due else { return }
            let elapsed = Double(now - started) / 1e9
            let left = count < total ? elapsed / Double(count) * Double(total - count) : 0
            progress.note(String(format: "%@: %d/%d %@, %.1f s elapsed, ETA %.0f s", label, count, total, unit, elapsed, left))
        }
    }
}
