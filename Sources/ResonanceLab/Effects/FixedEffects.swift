/// Least-squares update of the context and time-slot effects and the start-value
/// slope given the music terms, from sufficient statistics: the normal equations
/// of [1, context dummies, slot dummies, x] come from cross-counts fixed at
/// construction plus the x sums of each pass, so an update is one O(plays) pass
/// plus a tiny dense solve.
struct FixedEffects {
    let contexts: Int
    let slots: Int
    /// Normal matrix X'X of the dummies (row-major, `size` × `size`); the start-value
    /// row and column change with x and are filled in by `update`.
    let gram: [Double]
    let size: Int
    let contextCount: [Double]
    let slotCount: [Double]
    let total: Double

    /// Columns: 0 intercept, contexts 1…C−1, slots C…C+T−2, then x (when present).
    var slotBase: Int { contexts - 1 }
    var startColumn: Int { contexts + slots - 1 }

    init(_ d: ResponseData) {
        contexts = max(1, d.contexts); slots = max(1, d.slots)
        size = contexts + slots - 1 + (d.start.isEmpty ? 0 : 1)
        let n = size, slotBase = contexts - 1
        var g = [Double](repeating: 0, count: n * n)
        var nc = [Double](repeating: 0, count: contexts), nt = [Double](repeating: 0, count: slots)
        var cross = [Double](repeating: 0, count: contexts * slots)
        for p in 0..<d.count {
            let c = Int(d.context[p]), t = Int(d.slot[p])
            nc[c] += 1; nt[t] += 1; cross[c * slots + t] += 1
        }
        g[0] = Double(d.count)
        for c in 1..<max(1, contexts) { g[c] = nc[c]; g[c * n] = nc[c]; g[c * n + c] = nc[c] }
        for t in 1..<max(1, slots) {
            let k = slotBase + t
            g[k] = nt[t]; g[k * n] = nt[t]; g[k * n + k] = nt[t]
            for c in 1..<max(1, contexts) { g[c * n + k] = cross[c * slots + t]; g[k * n + c] = cross[c * slots + t] }
        }
        gram = g; contextCount = nc; slotCount = nt; total = Double(d.count)
    }

    /// Refits β, δ, γ to `residual` (y − the music term) with covariate `x` in one
    /// pass (right-hand side and the x row of the normal matrix); β and δ are then
    /// centred to play-weighted zero means (the intercept is left to the music term,
    /// see `MixedModel`).
    func update(_ fit: inout MixedFit, _ d: ResponseData, x xc: [Double], residual: [Double]) {
        var rhs = [Double](repeating: 0, count: size)
        var g = gram
        let hasStart = !xc.isEmpty, x = startColumn, n = size
        for p in 0..<d.count {
            let r = residual[p]
            let c = Int(d.context[p]), t = Int(d.slot[p])
            rhs[0] += r
            if c > 0 { rhs[c] += r }
            if t > 0 { rhs[slotBase + t] += r }
            if hasStart {
                let v = xc[p]
                rhs[x] += r * v
                g[x] += v; g[x * n + x] += v * v
                if c > 0 { g[c * n + x] += v }
                if t > 0 { g[(slotBase + t) * n + x] += v }
            }
        }
        if hasStart { for k in 0..<x { g[x * n + k] = g[k * n + x] } }
        // A tiny ridge keeps the solve defined when a context and a slot coincide.
        for a in 0..<n { g[a * n + a] += 1e-9 * max(1, g[a * n + a]) }
        let theta = FixedEffects.solve(g, rhs, n)
        var beta = (0..<contexts).map { $0 == 0 ? 0 : theta[$0] }
        var delta = (0..<slots).map { $0 == 0 ? 0 : theta[slotBase + $0] }
        let meanBeta = zip(beta, contextCount).reduce(0) { $0 + $1.0 * $1.1 } / total
        let meanDelta = zip(delta, slotCount).reduce(0) { $0 + $1.0 * $1.1 } / total
        for c in beta.indices { beta[c] -= meanBeta }
        for t in delta.indices { delta[t] -= meanDelta }
        if fit.context.count == beta.count { fit.context = beta }
        if fit.slot.count == delta.count { fit.slot = delta }
        fit.startSlope = hasStart ? theta[x] : 0
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
