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

    /// Template length m of sample entropy.
    public static let sampleEntropyM = 2

    /// The indices of a window whose sample entropy is computed: its templates' first
    /// beats (all but the last m); nil when sample entropy is not computed for it.
    public static func sampleEntropyTemplates(_ beats: Range<Int>) -> Range<Int>? {
        guard beats.count <= sampleEntropyMaxBeats, beats.count > sampleEntropyM + 2 else { return nil }
        return beats.lowerBound..<(beats.upperBound - sampleEntropyM)
    }

    /// Every index of the window `w`; `ascending`, when given, holds the window's template
    /// indices (0-based within it, see `sampleEntropyTemplates`) in ascending order of value.
    public init<Beats: NNBeats>(_ w: Beats, ascending: [Int]? = nil) {
        (sd1, sd2) = HRVNonlinear.poincare(w)
        sd1sd2 = sd1 / sd2
        let alphas = HRVNonlinear.dfa(w.intervals, count: w.count, ranges: [4...16, 16...64])
        (dfaAlpha1, dfaAlpha2) = (alphas[0], alphas[1])
        if w.count <= HRVNonlinear.sampleEntropyMaxBeats {
            sampEn = HRVNonlinear.sampleEntropy(Array(w.intervals), m: HRVNonlinear.sampleEntropyM, rFactor: 0.2,
                                                ascending: ascending)
        }
        stressIndex = HRVNonlinear.baevsky(w.intervals, count: w.count)
    }

    static func poincare<Beats: NNBeats>(_ w: Beats) -> (Double, Double) {
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
    /// α is the slope of log F against log s. Each segment's fit is one pass, so a scale
    /// costs O(n). NaN when the series is shorter than twice the largest scale.
    public static func dfa(_ x: [Double], scales: ClosedRange<Int>) -> Double {
        dfa(x, ranges: [scales])[0]
    }

    /// α over each range of scales, from one profile: the scales s = 2h and 2h + 1 share
    /// the block moments of half-length h, so each h is summed once for all the ranges.
    /// Blocks are stored for series up to `storedBlocksUpTo` beats, else formed as needed
    /// from a profile formed `stretch` points at a time.
    public static func dfa(_ x: [Double], ranges: [ClosedRange<Int>], storedBlocksUpTo: Int = dfaStoredBlocksUpTo,
                           stretch: Int = profileStretch) -> [Double] {
        dfa(x, count: x.count, ranges: ranges, storedBlocksUpTo: storedBlocksUpTo, stretch: stretch)
    }

    /// α over each range of scales of the `n` values of `x`, which is read twice in order
    /// (for the mean, then for the profile), so that it may be a whole recording's
    /// intervals waiting on disk.
    static func dfa<Values: Sequence>(_ x: Values, count n: Int, ranges: [ClosedRange<Int>],
                                      storedBlocksUpTo: Int = dfaStoredBlocksUpTo,
                                      stretch: Int = profileStretch) -> [Double] where Values.Element == Double {
        let usable = ranges.filter { n > 2 * $0.upperBound }
        guard let lowest = usable.map(\.lowerBound).min(), let highest = usable.map(\.upperBound).max() else {
            return ranges.map { _ in .nan }
        }
        let mean = x.reduce(0, +) / Double(n)
        // log F(s) of every scale some usable range holds; nil when no segment fluctuates.
        var logF = [Double?](repeating: nil, count: highest + 1)
        var needed = [Bool](repeating: false, count: highest + 1)
        for r in usable { for s in r { needed[s] = true } }
        guard highest >= 2 else { return ranges.map { _ in .nan } }
        let halves = max(1, lowest / 2)...(highest / 2)
        func used(_ h: Int) -> Bool {
            (2 * h >= lowest && needed[2 * h]) || (2 * h + 1 <= highest && needed[2 * h + 1])
        }
        // The blocks of each length live from their computation until their own half-length
        // is done and the blocks of twice their length, built from them, exist: a few
        // lengths at a time, not all of them (a year of beats is millions of blocks each).
        var computeAt = [Int](repeating: Int.max, count: highest / 2 + 1)
        for h in halves where used(h) {
            var l = h
            while true {
                computeAt[l] = min(computeAt[l], h)
                guard l % 2 == 0, l >= 4 else { break }
                l /= 2
            }
        }
        var release = [Int](repeating: 0, count: highest / 2 + 1)
        for l in 1...(highest / 2) where computeAt[l] != Int.max {
            let parent = 2 * l <= highest / 2 && 2 * l >= 4 && computeAt[2 * l] != Int.max ? computeAt[2 * l] : 0
            release[l] = max(halves.contains(l) && used(l) ? l : computeAt[l], parent)
        }
        var slots = [UnsafeMutableBufferPointer<Moments>?](repeating: nil, count: highest / 2 + 1)
        defer { for case let slot? in slots { slot.deallocate() } }
        // The profile y (the cumulative sum of NN − mean) is formed a stretch at a time, and
        // held from the earliest segment start still to come: past `storedBlocksUpTo` beats
        // (a whole recording) a stretch of `profileStretch` points, not the series. Each
        // scale sums its segments in order of their start, from the same profile values,
        // whatever the stretches: the same α to the bit.
        let stream = n > storedBlocksUpTo
        let stretch = stream ? max(1, stretch) : n
        var profile: [Double] = []  // y[lo ..< lo + profile.count]
        profile.reserveCapacity(min(n, stretch + 2 * highest + 2))
        var lo = 0, acc = 0.0
        var values = x.makeIterator()
        var progress: [DFAProgress] = halves.compactMap { h in
            let even = 2 * h >= lowest && needed[2 * h], odd = 2 * h + 1 <= highest && needed[2 * h + 1]
            return even || odd ? DFAProgress(h: h, even: even, odd: odd) : nil
        }
        while true {
            let end = min(n, lo + profile.count + stretch)
            while lo + profile.count < end, let v = values.next() {
                acc += v - mean
                profile.append(acc)
            }
            let hi = lo + profile.count
            profile.withUnsafeBufferPointer { y in
                /// The blocks of length h: a block of even length is two blocks of h/2
                /// (which start at multiples of h/2), so only odd lengths touch every point.
                /// Each length is always computed the same way, whichever ranges are asked for.
                /// Stored only when the profile is held whole (`lo` is 0).
                func blocks(ofLength h: Int) -> UnsafeMutableBufferPointer<Moments> {
                    if let done = slots[h] { return done }
                    // Every block is written before it is read, so the storage is not zeroed first.
                    let out = UnsafeMutableBufferPointer<Moments>.allocate(capacity: (n - h) / h + 1)
                    if h % 2 == 0, h >= 4 {
                        let g = h / 2
                        let parts = blocks(ofLength: g)
                        for k in out.indices {
                            out[k] = Moments(parts[2 * k], then: parts[2 * k + 1], length: g,
                                             offset: y[(2 * k + 1) * g] - y[2 * k * g])
                        }
                    } else {
                        Moments.blocks(y, length: h, into: out)
                    }
                    slots[h] = out
                    return out
                }
                // Segments start every h = ⌊s/2⌋ points: each is two consecutive blocks of h
                // points (plus one point when s is odd), so the blocks' moments are computed
                // once per h and combined; the scales 2h and 2h + 1 start their segments at
                // the same points and share the two blocks' sum.
                /// Block k of length h formed as `blocks(ofLength:)` forms it, without storing
                /// any: for a long series (a whole recording), whose stored blocks would cost
                /// more than the series. Positions are the series' (the profile held starts at `lo`).
                func block(_ h: Int, _ k: Int) -> Moments {
                    guard h % 2 == 0, h >= 4 else { return Moments(y, from: k * h - lo, count: h) }
                    let g = h / 2
                    return Moments(block(g, 2 * k), then: block(g, 2 * k + 1), length: g,
                                   offset: y[(2 * k + 1) * g - lo] - y[2 * k * g - lo])
                }
                for p in progress.indices {
                    let h = progress[p].h, even = progress[p].even, odd = progress[p].odd
                    let blocks = stream ? UnsafeMutableBufferPointer<Moments>(start: nil, count: 0) : blocks(ofLength: h)
                    if stream, !progress[p].started {
                        // The first block waits for the profile to reach its end, as every segment does.
                        guard h <= hi else { continue }
                        progress[p].next = block(h, 0)
                        progress[p].started = true
                    }
                    var next = progress[p].next
                    let last = Double(2 * h)
                    // Per scale: x̄, Σ(x − x̄)² and reciprocals, once (three divisions per
                    // segment were most of its cost).
                    let sEven = 2 * h, sOdd = 2 * h + 1
                    let xmEven = Double(sEven - 1) / 2, xmOdd = Double(sOdd - 1) / 2
                    let perPointEven = 1 / Double(sEven), perPointOdd = 1 / Double(sOdd)
                    let perSxxEven = 1 / (Double(sEven) * Double(sEven * sEven - 1) / 12)
                    let perSxxOdd = 1 / (Double(sOdd) * Double(sOdd * sOdd - 1) / 12)
                    var totalEven = progress[p].totalEven, countEven = progress[p].countEven
                    var totalOdd = progress[p].totalOdd, countOdd = progress[p].countOdd
                    // Segment k starts at a = k·h: block k, then block k + 1 (its sums shifted to
                    // position h and offset c = y[a + h] − y[a]), then for odd s the point a + 2h,
                    // the last a segment reads: it waits until the profile reaches it.
                    var k = progress[p].k, a = progress[p].a
                    while a < n - sEven, a + 2 * h < hi {
                        let joined: Moments
                        if stream {
                            let first = next
                            next = block(h, k + 1)
                            joined = Moments(first, then: next, length: h, offset: y[a + h - lo] - y[a - lo])
                        } else {
                            joined = Moments(blocks[k], then: blocks[k + 1], length: h, offset: y[a + h] - y[a])
                        }
                        let sz = joined.sz, sxz = joined.sxz, szz = joined.szz
                        // Flat segments carry no fluctuation (NeuroKit2 drops variance ≤ 1e-8).
                        if even {
                            let cxz = sxz - xmEven * sz
                            var variance = (szz - sz * sz * perPointEven - cxz * cxz * perSxxEven) * perPointEven
                            if variance < residualCheckBelow + momentRounding * szz {
                                variance = residualVariance(y, from: a - lo, count: sEven)
                            }
                            if variance > flatVariance { totalEven += variance; countEven += 1 }
                        }
                        if odd, a < n - sOdd {
                            let z = y[a + 2 * h - lo] - y[a - lo]
                            let szOdd = sz + z, sxzOdd = sxz + last * z, szzOdd = szz + z * z
                            let cxz = sxzOdd - xmOdd * szOdd
                            var variance = (szzOdd - szOdd * szOdd * perPointOdd - cxz * cxz * perSxxOdd) * perPointOdd
                            if variance < residualCheckBelow + momentRounding * szzOdd {
                                variance = residualVariance(y, from: a - lo, count: sOdd)
                            }
                            if variance > flatVariance { totalOdd += variance; countOdd += 1 }
                        }
                        k += 1; a += h
                    }
                    progress[p].k = k; progress[p].a = a; progress[p].next = next
                    progress[p].totalEven = totalEven; progress[p].countEven = countEven
                    progress[p].totalOdd = totalOdd; progress[p].countOdd = countOdd
                    for l in slots.indices where release[l] <= h {
                        slots[l]?.deallocate()
                        slots[l] = nil
                    }
                }
            }
            guard hi < n else { break }
            // What no segment still to come reads is let go of.
            let earliest = progress.map(\.a).min() ?? hi
            if earliest - lo > profile.count / 2 {
                profile.removeFirst(earliest - lo)
                lo = earliest
            }
        }
        for p in progress {
            if p.even, p.countEven > 0 { logF[2 * p.h] = 0.5 * log(p.totalEven / Double(p.countEven)) }
            if p.odd, p.countOdd > 0 { logF[2 * p.h + 1] = 0.5 * log(p.totalOdd / Double(p.countOdd)) }
        }
        return ranges.map { r in
            guard n > 2 * r.upperBound else { return .nan }
            var logS: [Double] = [], logFs: [Double] = []
            for s in r { if let f = logF[s] { logS.append(log(Double(s))); logFs.append(f) } }
            return slope(logS, logFs)
        }
    }

    /// One DFA scale pair's progress along the profile: segment k starts at a = k·h.
    private struct DFAProgress {
        let h: Int, even: Bool, odd: Bool
        var k = 0, a = 0, next = Moments(), started = false
        var totalEven = 0.0, countEven = 0, totalOdd = 0.0, countOdd = 0
    }

    /// Series longer than this (beats) have their DFA blocks formed as each segment needs
    /// them instead of stored, from the profile a stretch at a time: the same values, about
    /// twice the work, no memory beyond a stretch of the profile (docs/scaling.md). A
    /// 5-minute window stores its blocks.
    public static let dfaStoredBlocksUpTo = 1 << 16

    /// Profile points formed at a time for a series past `dfaStoredBlocksUpTo` beats
    /// (512 KiB of them, however long the recording).
    public static let profileStretch = 1 << 16

    /// A segment whose residual variance is at most this (ms²) is flat and left out, as
    /// NeuroKit2's `fractal_dfa` leaves it out.
    static let flatVariance = 1e-8

    /// A variance from the moments below `residualCheckBelow` ms² plus `momentRounding`
    /// times the segment's Σz² is taken again from the residuals. The moments of a long
    /// or steep segment are large (Σz² reaches 10¹⁰ for 64 beats), so a straight
    /// segment's variance comes out as their rounding (about 10⁻¹⁶ of Σz²) instead of 0,
    /// which would count it; residuals formed one by one are exact to far below 1e-8.
    static let residualCheckBelow = 1e-6
    static let momentRounding = 1e-13

    /// Mean squared residual of the least-squares line through the profile points
    /// y[start] … y[start + count − 1] against their positions, residuals formed one
    /// by one (as NeuroKit2's polynomial fit does).
    static func residualVariance(_ y: UnsafeBufferPointer<Double>, from start: Int, count: Int) -> Double {
        let m = Moments(y, from: start, count: count)
        let s = Double(count), xm = (s - 1) / 2
        let slope = (m.sxz - xm * m.sz) / (s * (s * s - 1) / 12)
        let intercept = m.sz / s - slope * xm
        var sum = 0.0
        for j in 0..<count {
            let r = (y[start + j] - y[start]) - (intercept + slope * Double(j))
            sum += r * r
        }
        return sum / s
    }

    /// Least-squares slope of `f` against `s`; NaN with fewer than two points.
    private static func slope(_ s: [Double], _ f: [Double]) -> Double {
        guard s.count >= 2 else { return .nan }
        let ms = s.reduce(0, +) / Double(s.count), mf = f.reduce(0, +) / Double(f.count)
        var num = 0.0, den = 0.0
        for i in s.indices { num += (s[i] - ms) * (f[i] - mf); den += (s[i] - ms) * (s[i] - ms) }
        return num / den
    }

    /// Sums over a run of profile points z_j = y[start + j] − y[start], j = 0 … count − 1:
    /// Σz, Σj·z and Σz²; relative to the run's first point, so sums stay
    /// small and the residual variance is free of cancellation.
    struct Moments {
        var sz = 0.0, sxz = 0.0, szz = 0.0

        init() {}

        /// The moments of a run of `length` points followed by another of `length`
        /// points whose first point lies `offset` above the first run's: the second's
        /// sums shifted to position `length` and offset, as a segment joins its blocks.
        init(_ a: Moments, then b: Moments, length: Int, offset c: Double) {
            let l = Double(length), triangle = l * (l - 1) / 2
            sz = a.sz + (b.sz + l * c)
            sxz = a.sxz + (b.sxz + c * triangle + l * (b.sz + l * c))
            szz = a.szz + (b.szz + 2 * c * b.sz + l * c * c)
        }

        init(_ y: UnsafeBufferPointer<Double>, from start: Int, count: Int) {
            let y0 = y[start]
            var j = 0.0
            for i in start..<(start + count) {
                let z = y[i] - y0
                sz += z; sxz += j * z; szz += z * z
                j += 1
            }
        }

        /// The moments of the consecutive blocks of `length` points starting at 0, length,
        /// 2·length, … while a whole block fits, into `out[0]`, `out[1]`, …. Four blocks are
        /// summed side by side: each block's sums are one chain of dependent additions, so
        /// interleaving four keeps the floating-point units busy, and every sum is formed in
        /// the same order as `init(_:from:count:)` forms it, so the results are identical.
        static func blocks(_ y: UnsafeBufferPointer<Double>, length h: Int, into out: UnsafeMutableBufferPointer<Moments>) {
            let count = y.count >= h ? (y.count - h) / h + 1 : 0
            var k = 0
            while k + 4 <= count {
                let b0 = k * h, b1 = b0 + h, b2 = b1 + h, b3 = b2 + h
                let y0 = y[b0], y1 = y[b1], y2 = y[b2], y3 = y[b3]
                var m0 = Moments(), m1 = Moments(), m2 = Moments(), m3 = Moments()
                var j = 0.0
                for i in 0..<h {
                    let z0 = y[b0 + i] - y0, z1 = y[b1 + i] - y1, z2 = y[b2 + i] - y2, z3 = y[b3 + i] - y3
                    m0.sz += z0; m0.sxz += j * z0; m0.szz += z0 * z0
                    m1.sz += z1; m1.sxz += j * z1; m1.szz += z1 * z1
                    m2.sz += z2; m2.sxz += j * z2; m2.szz += z2 * z2
                    m3.sz += z3; m3.sxz += j * z3; m3.szz += z3 * z3
                    j += 1
                }
                out[k] = m0; out[k + 1] = m1; out[k + 2] = m2; out[k + 3] = m3
                k += 4
            }
            while k < count {
                out[k] = Moments(y, from: k * h, count: h)
                k += 1
            }
        }
    }

    /// Sample entropy (Richman & Moorman 2000, Am J Physiol 278:H2039): −ln(A/B), B the
    /// pairs of length-m templates within r (Chebyshev), A those still within r at m + 1,
    /// over the same n − m templates, self-matches excluded. Templates are sorted by
    /// their first value (stored column by column in that order) so each one scans only the
    /// candidates within r of it. `ascending`, when given, is that order already (the
    /// indices 0 ..< n − m by ascending value), as `AscendingOrder` carries it between
    /// overlapping windows.
    public static func sampleEntropy(_ x: [Double], m: Int, rFactor: Double, ascending: [Int]? = nil) -> Double {
        let n = x.count
        guard n > m + 2, x.allSatisfy(\.isFinite) else { return .nan }
        let r = rFactor * Stats.sd(x)
        let count = n - m
        // Sorted by first value. The counts do not depend on the order of equal values:
        // whichever of two tied templates comes first counts the pair.
        let order: [Int]
        if let ascending {
            precondition(ascending.count == count, "sampleEntropy: the order must hold the n − m templates")
            order = ascending
        } else {
            order = (0..<count).sorted { x[$0] < x[$1] }
        }
        // Column-major templates in sorted order: t[k·count + p] = x[order[p] + k], k = 0 … m.
        var templates = [Double](repeating: 0, count: (m + 1) * count)
        x.withUnsafeBufferPointer { x in
            order.withUnsafeBufferPointer { order in
                templates.withUnsafeMutableBufferPointer { t in
                    for k in 0...m { for p in 0..<count { t[k * count + p] = x[order[p] + k] } }
                }
            }
        }
        // Candidates of template p are q in p + 1 ..< end, those whose first value is within
        // r above it; `end` only moves forward as p's value grows. Runs of candidates are
        // short (about a tenth of the templates for r = 0.2·SD), so each candidate's
        // remaining values are compared in one pass.
        var a = 0, b = 0
        var values = [Double](repeating: 0, count: m + 1)
        templates.withUnsafeBufferPointer { t in
            values.withUnsafeMutableBufferPointer { v in
                var end = 0
                for p in 0..<count {
                    let limit = t[p] + r
                    end = max(end, p + 1)
                    while end < count && t[end] <= limit { end += 1 }
                    guard end > p + 1 else { continue }
                    for k in 1...m { v[k] = t[k * count + p] }
                    let last = m * count, vm = v[m]
                    var bp = 0, ap = 0
                    if m == 2 {
                        // The usual m = 2 without the loop over k, which lets the compiler
                        // compare several candidates per instruction.
                        let v1 = v[1], t1 = UnsafeBufferPointer(rebasing: t[count..<(2 * count)])
                        let t2 = UnsafeBufferPointer(rebasing: t[last..<(last + count)])
                        for q in (p + 1)..<end {
                            let matched = abs(v1 - t1[q]) <= r ? 1 : 0
                            bp &+= matched
                            ap &+= matched & (abs(vm - t2[q]) <= r ? 1 : 0)
                        }
                    } else {
                        for q in (p + 1)..<end {
                            var matched = 1
                            for k in 1..<m { matched &= abs(v[k] - t[k * count + q]) <= r ? 1 : 0 }
                            bp &+= matched
                            ap &+= matched & (abs(vm - t[last + q]) <= r ? 1 : 0)
                        }
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
    static func baevsky<Intervals: Sequence>(_ nn: Intervals, count: Int) -> Double where Intervals.Element == Double {
        guard count >= 2, let lo = nn.min(), let hi = nn.max(), hi > lo else { return .nan }
        let bin = 50.0
        let k0 = Int((lo / bin).rounded(.down))
        var counts = [Int](repeating: 0, count: Int((hi / bin).rounded(.down)) - k0 + 1)
        for v in nn { counts[Int((v / bin).rounded(.down)) - k0] += 1 }
        var mode = 0
        for k in counts.indices where counts[k] > counts[mode] { mode = k }
        let amo = 100 * Double(counts[mode]) / Double(count)
        let mo = (Double(k0 + mode) + 0.5) * bin / 1000
        return amo / (2 * mo * (hi - lo) / 1000)
    }
}

/// Indices of one series in ascending order of value over a range that slides along it:
/// moving to a range that overlaps the last one keeps the order of the shared indices,
/// drops those that left and merges in the new ones, sorted on their own. A 300 s window
/// stepping by 60 s thus sorts a fifth of its beats instead of all of them. Equal values
/// may come in any order.
public struct AscendingOrder {
    private var held: Range<Int> = 0..<0
    private var order: [Int] = []

    public init() {}

    /// Renumbers the indices held by `offset`, for a series whose first beats were let
    /// go (negative) or that is numbered from an earlier beat again (positive).
    mutating func shift(by offset: Int) {
        guard offset != 0 else { return }
        held = (held.lowerBound + offset)..<(held.upperBound + offset)
        for k in order.indices { order[k] += offset }
    }

    /// The indices of `range` ascending by `values`, relative to `range.lowerBound`.
    public mutating func update(to range: Range<Int>, values: [Double]) -> [Int] {
        let shared = range.clamped(to: held)
        var kept: [Int] = []
        kept.reserveCapacity(range.count)
        if !shared.isEmpty { for i in order where shared.contains(i) { kept.append(i) } }
        var added = Array(range.lowerBound..<max(range.lowerBound, shared.isEmpty ? range.upperBound : shared.lowerBound))
        if !shared.isEmpty { added += Array(shared.upperBound..<range.upperBound) }
        added.sort { values[$0] < values[$1] }
        var merged: [Int] = []
        merged.reserveCapacity(range.count)
        var a = 0, b = 0
        while a < kept.count && b < added.count {
            if values[added[b]] < values[kept[a]] { merged.append(added[b]); b += 1 } else { merged.append(kept[a]); a += 1 }
        }
        merged += kept[a...]
        merged += added[b...]
        held = range
        order = merged
        return merged.map { $0 - range.lowerBound }
    }
}
