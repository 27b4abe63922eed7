import Foundation

/// Nonlinear HRV indices, named as in NeuroKit2 / Kubios.
public struct HRVNonlinear: Sendable {
    /// Poincaré plot SDs (Brennan, Palaniswami & Kamen 2001, eqs. 7–8): sample SDs of
    /// (NNₙ − NNₙ₊₁)/√2 and (NNₙ + NNₙ₊₁)/√2 over successive pairs, ms.
    public var sd1 = Double.nan, sd2 = Double.nan, sd1sd2 = Double.nan
    /// DFA short-term (4–16 beats) and long-term (16–64 beats) exponents (Peng et al. 1995).
    public var dfaAlpha1 = Double.nan, dfaAlpha2 = Double.nan
    /// Sample entropy, m = 2, r = 0.2·SDNN (Richman & Moorman 2000).
    public var sampEn = Double.nan
    /// Baevsky stress index AMo / (2·Mo·MxDMn), 50 ms bins (Baevsky & Chernikova 2017).
    public var stressIndex = Double.nan

    /// Longest series for which sample entropy is computed: its cost grows with n².
    public static let sampleEntropyMaxBeats = 20_000

    public init() {}

    public init(_ w: NNWindow) {
        (sd1, sd2) = HRVNonlinear.poincare(w)
        sd1sd2 = sd1 / sd2
        let nn = Array(w.nnMs)
        if nn.count > 2 * 16 {
            let profile = Profile(nn)
            dfaAlpha1 = HRVNonlinear.dfa(profile, scales: 4...16)
            dfaAlpha2 = HRVNonlinear.dfa(profile, scales: 16...64)
        }
        if nn.count <= HRVNonlinear.sampleEntropyMaxBeats {
            sampEn = HRVNonlinear.sampleEntropy(nn, m: 2, rFactor: 0.2)
        }
        stressIndex = HRVNonlinear.baevsky(nn)
    }

    static func poincare(_ w: NNWindow) -> (Double, Double) {
        var n = 0, s1 = 0.0, s2 = 0.0
        w.forEachSuccessivePair { a, b in n += 1; s1 += (a - b) / 2.0.squareRoot(); s2 += (a + b) / 2.0.squareRoot() }
        guard n > 1 else { return (.nan, .nan) }
        let m1 = s1 / Double(n), m2 = s2 / Double(n)
        var v1 = 0.0, v2 = 0.0
        w.forEachSuccessivePair { a, b in
            let x1 = (a - b) / 2.0.squareRoot() - m1, x2 = (a + b) / 2.0.squareRoot() - m2
            v1 += x1 * x1; v2 += x2 * x2
        }
        return ((v1 / Double(n - 1)).squareRoot(), (v2 / Double(n - 1)).squareRoot())
    }

    /// Detrended fluctuation analysis (Peng et al. 1995, Chaos 5:82): the profile
    /// (cumulative sum of NN − mean) is cut into segments of each scale s, here
    /// overlapping by half (starts 0, s/2, s, … < n − s, as NeuroKit2's `fractal_dfa`),
    /// a least-squares line is removed from each and F(s) = √(mean residual variance);
    /// α is the slope of log F against log s. Each segment's sums come from running sums
    /// of the profile in O(1) (`Profile`), so a scale costs O(n / s). NaN when the series
    /// is shorter than twice the largest scale.
    public static func dfa(_ x: [Double], scales: ClosedRange<Int>) -> Double {
        guard x.count > 2 * scales.upperBound else { return .nan }
        return dfa(Profile(x), scales: scales)
    }

    static func dfa(_ profile: Profile, scales: ClosedRange<Int>) -> Double {
        let n = profile.count
        guard n > 2 * scales.upperBound else { return .nan }
        var logS: [Double] = [], logF: [Double] = []
        for s in scales {
            let h = max(1, s / 2)
            let xm = Double(s - 1) / 2
            let sxx = Double(s) * Double(s * s - 1) / 12
            var total = 0.0, count = 0
            var a = 0
            while a < n - s {
                let m = profile.moments(from: a, count: s)
                let cxz = m.sxz - xm * m.sz
                let variance = (m.szz - m.sz * m.sz / Double(s) - cxz * cxz / sxx) / Double(s)
                // Flat segments carry no fluctuation (NeuroKit2 drops variance ≤ 1e-8).
                if variance > 1e-8 { total += variance; count += 1 }
                a += h
            }
            guard count > 0 else { continue }
            logS.append(log(Double(s)))
            logF.append(0.5 * log(total / Double(count)))
        }
        guard logS.count >= 2 else { return .nan }
        let ms = logS.reduce(0, +) / Double(logS.count), mf = logF.reduce(0, +) / Double(logF.count)
        var num = 0.0, den = 0.0
        for i in logS.indices { num += (logS[i] - ms) * (logF[i] - mf); den += (logS[i] - ms) * (logS[i] - ms) }
        return num / den
    }

    /// The DFA profile y (cumulative sum of x − mean) with running sums inside chunks of
    /// `chunk` points, each relative to its chunk's first point b: Σ (y_k − y_b),
    /// Σ (k − b)(y_k − y_b) and Σ (y_k − y_b)² from b through k. Any run's moments then
    /// cost O(1) per chunk it touches, and the sums never span more than a chunk, so they
    /// stay small where running sums over a whole 24-hour profile would cancel.
    struct Profile {
        static let chunk = 128
        private let y: [Double]
        private var s0: [Double], s1: [Double], s2: [Double]

        init(_ x: [Double]) {
            let n = x.count
            let mean = x.reduce(0, +) / Double(n)
            var y = [Double](repeating: 0, count: n)
            var acc = 0.0
            for i in 0..<n { acc += x[i] - mean; y[i] = acc }
            s0 = [Double](repeating: 0, count: n); s1 = s0; s2 = s0
            var a0 = 0.0, a1 = 0.0, a2 = 0.0, base = 0.0
            for i in 0..<n {
                let j = i % Self.chunk
                if j == 0 { a0 = 0; a1 = 0; a2 = 0; base = y[i] }
                let z = y[i] - base
                a0 += z; a1 += Double(j) * z; a2 += z * z
                s0[i] = a0; s1[i] = a1; s2[i] = a2
            }
            self.y = y
        }

        var count: Int { y.count }

        /// Moments of the points a ..< a + count, relative to y_a (`Moments`).
        func moments(from a: Int, count: Int) -> Moments {
            let last = a + count - 1
            var m = Moments()
            var start = a
            while start <= last {
                let b = start - start % Self.chunk
                let end = min(last, b + Self.chunk - 1)
                let part = chunkMoments(from: start, through: end, base: b)
                if start == a { m = part } else { m.append(part, at: start - a, offset: y[start] - y[a]) }
                start = end + 1
            }
            return m
        }

        /// Moments of the points start … end of the chunk that begins at `b`, relative to
        /// y_start: the chunk's sums over them, moved from (b, y_b) to (start, y_start).
        private func chunkMoments(from start: Int, through end: Int, base b: Int) -> Moments {
            var t0 = s0[end], t1 = s1[end], t2 = s2[end]
            if start > b { t0 -= s0[start - 1]; t1 -= s1[start - 1]; t2 -= s2[start - 1] }
            let c = Double(end - start + 1), d = y[start] - y[b], shift = Double(start - b)
            var m = Moments()
            m.count = c
            m.sz = t0 - c * d
            m.sxz = t1 - shift * t0 - d * c * (c - 1) / 2
            m.szz = t2 - 2 * d * t0 + c * d * d
            return m
        }
    }

    /// Sums over a run of profile points z_j = y[start + j] − y[start], j = 0 … count − 1:
    /// Σz, Σj·z, Σz², and the run length.
    struct Moments {
        var count = 0.0, sz = 0.0, sxz = 0.0, szz = 0.0

        /// Appends the moments of a run that starts `at` points later and whose first point
        /// lies `offset` above this run's first point.
        mutating func append(_ other: Moments, at position: Int, offset c: Double) {
            let l = other.count, p = Double(position)
            sxz += other.sxz + c * l * (l - 1) / 2 + p * (other.sz + l * c)
            szz += other.szz + 2 * c * other.sz + l * c * c
            sz += other.sz + l * c
            count += l
        }
    }

    /// Sample entropy (Richman & Moorman 2000, Am J Physiol 278:H2039): −ln(A/B), B the
    /// pairs of length-m templates within r (Chebyshev), A those still within r at m + 1,
    /// over the same n − m templates, self-matches excluded. Templates are sorted by
    /// their first value (stored column by column in that order) so each one scans only the
    /// candidates within r of it.
    public static func sampleEntropy(_ x: [Double], m: Int, rFactor: Double) -> Double {
        let n = x.count
        guard n > m + 2 else { return .nan }
        let r = rFactor * Stats.sd(x)
        let count = n - m
        // Sorted by first value. The counts do not depend on the order of equal values:
        // whichever of two tied templates comes first counts the pair.
        var order = (0..<count).map { (x[$0], $0) }
        order.sort { $0.0 < $1.0 }
        // Column-major templates in sorted order: t[k·count + p] = x[order[p].1 + k], k = 0 … m.
        var templates = [Double](repeating: 0, count: (m + 1) * count)
        x.withUnsafeBufferPointer { x in
            order.withUnsafeBufferPointer { order in
                templates.withUnsafeMutableBufferPointer { t in
                    for k in 0...m { for p in 0..<count { t[k * count + p] = x[order[p].1 + k] } }
                }
            }
        }
        // Candidates of template p are q in p + 1 ..< end, those whose first value is within
        // r above it; `end` only moves forward as p's value grows. Their remaining values are
        // compared column by column over the whole run of candidates, loops without branches
        // that the compiler vectorises.
        var a = 0, b = 0
        var within = [UInt8](repeating: 0, count: count)
        templates.withUnsafeBufferPointer { t in
            within.withUnsafeMutableBufferPointer { f in
                var end = 0
                for p in 0..<count {
                    let limit = t[p] + r
                    end = max(end, p + 1)
                    while end < count && t[end] <= limit { end += 1 }
                    let first = p + 1
                    guard end > first else { continue }
                    for q in first..<end { f[q] = 1 }
                    for k in 1..<m {
                        let column = k * count, v = t[column + p]
                        for q in first..<end { f[q] &= abs(v - t[column + q]) <= r ? 1 : 0 }
                    }
                    let column = m * count, v = t[column + p]
                    var bp = 0, ap = 0
                    for q in first..<end {
                        let matched = Int(f[q])
                        bp &+= matched
                        ap &+= matched & (abs(v - t[column + q]) <= r ? 1 : 0)
                    }
                    b += bp
                    a += ap
                }
            }
        }
        guard a > 0, b > 0 else { return .nan }
        return -log(Double(a) / Double(b))
    }

    /// Baevsky's stress index SI = AMo / (2·Mo·MxDMn): AMo the % of intervals in the
    /// modal 50 ms bin, Mo its centre (s), MxDMn the NN range (s).
    static func baevsky(_ nn: [Double]) -> Double {
        guard nn.count >= 2, let lo = nn.min(), let hi = nn.max(), hi > lo else { return .nan }
        let bin = 50.0
        let k0 = Int((lo / bin).rounded(.down))
        var counts = [Int](repeating: 0, count: Int((hi / bin).rounded(.down)) - k0 + 1)
        for v in nn { counts[Int((v / bin).rounded(.down)) - k0] += 1 }
        var mode = 0
        for k in counts.indices where counts[k] > counts[mode] { mode = k }
        let amo = 100 * Double(counts[mode]) / Double(nn.count)
        let mo = (Double(k0 + mode) + 0.5) * bin / 1000
        return amo / (2 * mo * (hi - lo) / 1000)
    }
}
