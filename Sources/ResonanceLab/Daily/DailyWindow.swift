/// Windows of a person's daily history, addressed by calendar day. Days without a
/// value for the metric are missing, not zero.
enum DailyWindow {
    /// `(day, value)` of `metric` for every snapshot whose day lies in `days`.
    static func points<C: Collection>(_ snapshots: C, days: ClosedRange<Int>,
                                      _ metric: KeyPath<DailySnapshot, Double?>) -> [(day: Int, value: Double)]
        where C.Element == DailySnapshot {
        snapshots.compactMap { s in
            guard days.contains(s.day), let v = s[keyPath: metric], v.isFinite else { return nil }
            return (s.day, v)
        }
    }

    static func values<C: Collection>(_ snapshots: C, days: ClosedRange<Int>,
                                      _ metric: KeyPath<DailySnapshot, Double?>) -> [Double]
        where C.Element == DailySnapshot {
        points(snapshots, days: days, metric).map(\.value)
    }

    /// The `count` days ending with `day` (inclusive).
    static func ending(_ day: Int, count: Double) -> ClosedRange<Int> {
        (day - max(1, Int(count)) + 1)...day
    }

    /// The `count` days before `day` (excluding it).
    static func before(_ day: Int, count: Double) -> ClosedRange<Int> {
        ending(day - 1, count: count)
    }

    /// Ordinary least-squares slope of value on day (units per day); nil below two
    /// distinct days.
    static func slope(_ points: [(day: Int, value: Double)]) -> Double? {
        guard points.count >= 2 else { return nil }
        let mx = Stats.mean(points.map { Double($0.day) }), my = Stats.mean(points.map(\.value))
        var sxy = 0.0, sxx = 0.0
        for p in points {
            sxy += (Double(p.day) - mx) * (p.value - my)
            sxx += (Double(p.day) - mx) * (Double(p.day) - mx)
        }
        return sxx > 0 ? sxy / sxx : nil
    }
}

extension DailyWindow {
    /// t statistic of the least-squares slope: slope / SE, SE² = residual variance / Σ(x − x̄)²
    /// with n − 2 degrees of freedom; nil below three points or when it is undefined.
    /// With a perfect fit it is ±infinity.
    static func slopeT(_ points: [(day: Int, value: Double)]) -> Double? {
        guard points.count >= 3, let b = slope(points) else { return nil }
        let mx = Stats.mean(points.map { Double($0.day) }), my = Stats.mean(points.map(\.value))
        var ssr = 0.0, sxx = 0.0
        for p in points {
            let dx = Double(p.day) - mx
            let r = p.value - my - b * dx
            ssr += r * r
            sxx += dx * dx
        }
        let se = (ssr / Double(points.count - 2) / sxx).squareRoot()
        guard se > 0 else { return b == 0 ? nil : (b > 0 ? .infinity : -.infinity) }
        return b / se
    }

    /// Theil–Sen slope: the median of the slopes of every pair of points on different
    /// days (Sen 1968, JASA 63:1379); robust to up to 29 % outlying points.
    static func theilSen(_ points: [(day: Int, value: Double)]) -> Double? {
        var slopes: [Double] = []
        for i in points.indices {
            for j in points.indices where j > i && points[j].day != points[i].day {
                slopes.append((points[j].value - points[i].value) / Double(points[j].day - points[i].day))
            }
        }
        return slopes.isEmpty ? nil : Stats.median(slopes)
    }
}

/// Clamps to a closed range.
func clamp(_ x: Double, _ range: ClosedRange<Double>) -> Double {
    min(max(x, range.lowerBound), range.upperBound)
}

/// Linear interpolation of `x` from `x0 → y0` to `x1 → y1`, clamped to the ends.
func ramp(_ x: Double, from x0: Double, _ y0: Double, to x1: Double, _ y1: Double) -> Double {
    guard x1 != x0 else { return x < x0 ? y0 : y1 }
    let t = clamp((x - x0) / (x1 - x0), 0...1)
    return y0 + t * (y1 - y0)
}
