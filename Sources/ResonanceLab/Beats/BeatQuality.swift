/// Each beat's quality (docs/methods.md, Beat quality): the Pearson correlation of its
/// shape with the template of the beats in the `template_s` up to it (itself included),
/// each shape the signal from `beat_before_s` before its fiducial point to `beat_after_s`
/// after it, read at the point's fractional position one sample apart, mean-removed and
/// scaled to unit RMS (Orphanidou et al. 2015);
/// 0 where fewer than `template_min_beats` beats make the template.
public enum BeatQuality {
    /// Correlations of the beats at fractional sample positions `at` in `x`.
    public static func templateCorrelation(_ x: [Double], rateHz: Double, at positions: [Double],
                                           constants c: BeatQualityConstants) -> [Double] {
        let before = Int((c.beatBeforeS * rateHz).rounded()), after = Int((c.beatAfterS * rateHz).rounded())
        let width = before + after + 1
        let window = c.templateS * rateHz
        // Each shape read at the beat's fractional position (linear interpolation), so
        // that beats align to a fraction of a sample.
        let shapes: [[Double]?] = positions.map { p in
            let k = Int(p.rounded(.down))
            let f = p - Double(k)
            guard k - before >= 0, k + after + 1 < x.count else { return nil }
            return standardised((-before...after).map { j in x[k + j] + f * (x[k + j + 1] - x[k + j]) })
        }
        var out = [Double](repeating: 0, count: positions.count)
        var first = 0
        var sum = [Double](repeating: 0, count: width)
        var held = 0
        for i in positions.indices {
            if let s = shapes[i] {
                for j in 0..<width { sum[j] += s[j] }
                held += 1
            }
            while positions[first] <= positions[i] - window {
                if let s = shapes[first] {
                    for j in 0..<width { sum[j] -= s[j] }
                    held -= 1
                }
                first += 1
            }
            guard let s = shapes[i], Double(held) >= c.templateMinBeats.rounded() else { continue }
            out[i] = correlation(s, sum)
        }
        return out
    }

    /// Mean removed, unit root mean square; nil for a flat stretch.
    static func standardised(_ v: [Double]) -> [Double]? {
        let mean = v.reduce(0, +) / Double(v.count)
        let centred = v.map { $0 - mean }
        let rms = (centred.reduce(0) { $0 + $1 * $1 } / Double(v.count)).squareRoot()
        return rms > 0 ? centred.map { $0 / rms } : nil
    }

    /// Pearson correlation of two equal-length series.
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(a.count)
        let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in a.indices {
            let da = a[i] - ma, db = b[i] - mb
            sab += da * db; saa += da * da; sbb += db * db
        }
        return saa > 0 && sbb > 0 ? sab / (saa * sbb).squareRoot() : 0
    }

    /// Which intervals are reliable: interval `i` (from beat `i − 1` to beat `i`, s)
    /// when both its beats are of good quality and still enough, it lies within
    /// `interval_min_s`–`interval_max_s`, and within `interval_tolerance` of the median of
    /// the last `interval_median_beats` intervals. The first beat of a segment has none.
    public static func reliable(times: [Double], quality: [Double], motion: [Double?],
                                constants c: BeatQualityConstants) -> [Bool] {
        var out = [Bool](repeating: false, count: times.count)
        var recent: [Double] = []
        func good(_ i: Int) -> Bool { quality[i] >= c.correlationMin && (motion[i].map { $0 <= c.motionMaxG } ?? true) }
        for i in times.indices.dropFirst() {
            let interval = times[i] - times[i - 1]
            recent.append(interval)
            if Double(recent.count) > c.intervalMedianBeats.rounded() { recent.removeFirst() }
            let sorted = recent.sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            out[i] = good(i) && good(i - 1) && interval >= c.intervalMinS && interval <= c.intervalMaxS
                && abs(interval - median) <= c.intervalTolerance * median
        }
        return out
    }
}
