/// Least-squares update of the context and time-slot effects and the start-value
/// slope given the music terms, from sufficient statistics: the normal equations
/// of [1, context dummies, slot dummies, x] are built from cross-counts fixed at
/// construction, so each update is one O(plays) pass plus a tiny dense solve.
struct FixedEffects {
    let contexts: Int
    let slots: Int
    let hasStart: Bool
    /// Normal matrix X'X (row-major, `size` × `size`), ridge-stabilised.
    let gram: [Double]
    let size: Int
    let contextCount: [Double]
    let slotCount: [Double]
    let total: Double

    /// Column of each parameter: 0 intercept, contexts 1…C−1, slots, then x.
    func contextColumn(_ c: Int) -> Int? { c == 0 ? nil : c }
    func slotColumn(_ t: Int) -> Int? { t == 0 ? nil : contexts - 1 + t }
    var startColumn: Int { contexts + slots - 1 }

    init(_ d: ResponseData, xc: [Double]) {
        contexts = max(1, d.contexts); slots = max(1, d.slots); hasStart = !xc.isEmpty
        size = contexts + slots - 1 + (hasStart ? 1 : 0)
        let n = size, startCol = contexts + slots - 1, slotBase = contexts - 1
        var g = [Double](repeating: 0, count: n * n)
        var nc = [Double](repeating: 0, count: contexts), nt = [Double](repeating: 0, count: slots)
        var cols = [Int](repeating: 0, count: 4), vals = [Double](repeating: 0, count: 4)
        for p in 0..<d.count {
            let c = Int(d.context[p]), t = Int(d.slot[p])
            nc[c] += 1; nt[t] += 1
            var k = 1
            cols[0] = 0; vals[0] = 1
            if c > 0 { cols[k] = c; vals[k] = 1; k += 1 }
            if t > 0 { cols[k] = slotBase + t; vals[k] = 1; k += 1 }
            if hasStart { cols[k] = startCol; vals[k] = xc[p]; k += 1 }
            for a in 0..<k { for b in 0..<k { g[cols[a] * n + cols[b]] += vals[a] * vals[b] } }
        }
        // A tiny ridge keeps the solve defined when a context and a slot coincide.
        for a in 0..<n { g[a * n + a] += 1e-9 * max(1, g[a * n + a]) }
        gram = g; contextCount = nc; slotCount = nt; total = Double(d.count)
    }

    func value(_ fit: MixedFit, _ d: ResponseData, _ xc: [Double], _ p: Int) -> Double {
        fit.context[Int(d.context[p])] + fit.slot[Int(d.slot[p])] + (hasStart ? fit.startSlope * xc[p] : 0)
    }

    /// Refits β, δ, γ to y − music; β and δ are then centred to play-weighted zero
    /// means (the intercept is left to the music term, see `MixedModel`).
    func update(_ fit: inout MixedFit, _ d: ResponseData, xc: [Double]) {
        var rhs = [Double](repeating: 0, count: size)
        for p in 0..<d.count {
            let r = d.y[p] - fit.music(d, p)
            rhs[0] += r
            let c = Int(d.context[p]), t = Int(d.slot[p])
            if c > 0 { rhs[c] += r }
            if t > 0 { rhs[contexts - 1 + t] += r }
            if hasStart { rhs[startColumn] += r * xc[p] }
        }
        let theta = FixedEffects.solve(gram, rhs, size)
        var beta = (0..<contexts).map { c in contextColumn(c).map { theta[$0] } ?? 0 }
        var delta = (0..<slots).map { t in slotColumn(t).map { theta[$0] } ?? 0 }
        let meanBeta = zip(beta, contextCount).reduce(0) { $0 + $1.0 * $1.1 } / total
        let meanDelta = zip(delta, slotCount).reduce(0) { $0 + $1.0 * $1.1 } / total
        for c in beta.indices { beta[c] -= meanBeta }
        for t in delta.indices { delta[t] -= meanDelta }
        if fit.context.count == beta.count { fit.context = beta }
        if fit.slot.count == delta.count { fit.slot = delta }
        fit.startSlope = hasStart ? theta[startColumn] : 0
    }

    /// Solves A·x = b (A `n`×`n`, row-major) by Gaussian elimination with partial pivoting.
    static func solve(_ a: [Double], _ b: [Double], _ n: Int) -> [Double] {
        var m = a, x = b
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<max(col + 1, n) where abs(m[r * n + col]) > abs(m[pivot * n + col]) { pivot = r }
            if pivot != col {
                for k in 0..<n { m.swapAt(col * n + k, pivot * n + k) }
                x.swapAt(col, pivot)
            }
            let diag = m[col * n + col]
            guard abs(diag) > 1e-300 else { continue }
            for r in (col + 1)..<max(col + 1, n) {
                let f = m[r * n + col] / diag
                guard f != 0 else { continue }
                for k in col..<n { m[r * n + k] -= f * m[col * n + k] }
                x[r] -= f * x[col]
            }
        }
        var out = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = x[row]
            for k in (row + 1)..<max(row + 1, n) { s -= m[row * n + k] * out[k] }
            let diag = m[row * n + row]
            out[row] = abs(diag) > 1e-300 ? s / diag : 0
        }
        return out
    }
}
