/// Cross-validation with subjects as the unit: every window of a subject lies in the
/// same fold, so a held-out subject's windows never reach the search.
public enum CrossValidation: Equatable, Sendable, CustomStringConvertible {
    /// Leave one subject out: one fold per subject.
    case loso
    /// K folds of subjects, assigned round-robin after a seeded shuffle.
    case kfold(Int)

    /// Parses `loso` or `kfold:K` (K ≥ 2).
    public init?(argument: String) {
        if argument == "loso" { self = .loso; return }
        let parts = argument.split(separator: ":")
        guard parts.count == 2, parts[0] == "kfold", let k = Int(parts[1]), k >= 2 else { return nil }
        self = .kfold(k)
    }

    public var description: String {
        switch self {
        case .loso: "loso"
        case let .kfold(k): "kfold:\(k)"
        }
    }

    /// The held-out subjects (indices 0..<subjects) of each fold, each sorted.
    public func folds(subjects: Int, seed: UInt64) -> [[Int]] {
        switch self {
        case .loso:
            return (0..<subjects).map { [$0] }
        case let .kfold(k):
            var order = Array(0..<subjects)
            var rng = SeededRandom(seed: seed)
            // Fisher–Yates with the seeded generator.
            for i in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(i, Int(rng.next() % UInt64(i + 1)))
            }
            let count = min(k, subjects)
            return (0..<count).map { f in stride(from: f, to: subjects, by: count).map { order[$0] }.sorted() }
        }
    }
}
