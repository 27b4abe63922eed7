import Foundation

/// Ridge-penalised logistic regression (le Cessie & van Houwelingen 1992): minimises the
/// mean log-loss + λ/2 · ‖w‖² over features standardised by the training rows' mean and
/// SD (the intercept unpenalised), by Newton–Raphson. Deterministic; the learned
/// reference of the stress section.
struct PenalisedLogistic {
    var means: [Double]
    var sds: [Double]
    /// Intercept first, then one weight per standardised feature.
    var weights: [Double]

    /// Newton steps at most, and the step size (max |Δw|) that ends them.
    static let maxIterations = 50, tolerance = 1e-8

    init(x: [[Double]], y: [Bool], lambda: Double) {
        let p = x.first?.count ?? 0, n = Double(x.count)
        let mean = (0..<p).map { j in x.isEmpty ? 0 : x.reduce(0) { $0 + $1[j] } / n }
        means = mean
        sds = (0..<p).map { j in
            let v = x.isEmpty ? 0 : x.reduce(0) { $0 + ($1[j] - mean[j]) * ($1[j] - mean[j]) } / n
            return v > 0 ? v.squareRoot() : 1
        }
        weights = [Double](repeating: 0, count: p + 1)
        guard !x.isEmpty else { return }
        let z = x.map { standardised($0) }
        for _ in 0..<Self.maxIterations {
            var gradient = [Double](repeating: 0, count: p + 1)
            var hessian = [[Double]](repeating: [Double](repeating: 0, count: p + 1), count: p + 1)
            for (row, label) in zip(z, y) {
                let mu = Self.logistic(linear(row))
                let r = mu - (label ? 1 : 0), w = mu * (1 - mu)
                for a in 0...p {
                    let xa = a == 0 ? 1 : row[a - 1]
                    gradient[a] += r * xa / n
                    for b in a...p { hessian[a][b] += w * xa * (b == 0 ? 1 : row[b - 1]) / n }
                }
            }
            for a in 0...p { for b in 0..<a { hessian[a][b] = hessian[b][a] } }
            for a in 1..<(p + 1) {
                gradient[a] += lambda * weights[a]
                hessian[a][a] += lambda
            }
            hessian[0][0] += 1e-9
            guard let step = Self.solve(hessian, gradient) else { break }
            for a in weights.indices { weights[a] -= step[a] }
            if step.map(abs).max() ?? 0 < Self.tolerance { break }
        }
    }

    func standardised(_ row: [Double]) -> [Double] {
        zip(row, zip(means, sds)).map { ($0 - $1.0) / $1.1 }
    }

    func linear(_ z: [Double]) -> Double {
        var s = weights[0]
        for (w, v) in zip(weights.dropFirst(), z) { s += w * v }
        return s
    }

    /// The modelled probability of the positive class for one row of raw features.
    func probability(_ row: [Double]) -> Double {
        Self.logistic(linear(standardised(row)))
    }

    static func logistic(_ t: Double) -> Double { 1 / (1 + exp(-t)) }

    /// Solution of a·x = b by Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a, v = b
        let n = v.count
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-300 else { return nil }
            m.swapAt(col, pivot); v.swapAt(col, pivot)
            for r in (col + 1)..<n where m[r][col] != 0 {
                let f = m[r][col] / m[col][col]
                for k in col..<n { m[r][k] -= f * m[col][k] }
                v[r] -= f * v[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = v[r]
            for k in (r + 1)..<n { s -= m[r][k] * x[k] }
            x[r] = s / m[r][r]
        }
        return x
    }
}
