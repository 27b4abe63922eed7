/// Derivative-free maximisation over the unit cube by Nelder–Mead (Nelder & Mead 1965,
/// with the standard coefficients: reflection 1, expansion 2, contraction ½, shrink ½),
/// restarted alternately from the best point and from seeded random points until the evaluation budget is spent. Points are
/// clamped to [0, 1] in every coordinate; the caller maps them onto its parameters.
/// Deterministic for a given seed.
public struct NelderMead {
    public var budget: Int
    public var seed: UInt64
    /// Initial simplex edge, in unit-cube coordinates.
    public var step = 0.15
    /// A restart begins when the simplex's objective values agree within this.
    public var tolerance = 1e-7

    public init(budget: Int, seed: UInt64) {
        self.budget = budget; self.seed = seed
    }

    /// The best point found and its value; the first run starts at `start`, restarts at
    /// uniform random points. `objective` returns a value to maximise (non-finite = worst).
    public func maximise(start: [Double], _ objective: ([Double]) -> Double) -> (point: [Double], value: Double, evaluations: Int) {
        var rng = SeededRandom(seed: seed)
        var evaluations = 0
        var best = (point: start.map { clamp($0, 0...1) }, value: -Double.infinity)
        func f(_ x: [Double]) -> Double {
            evaluations += 1
            let v = objective(x)
            let value = v.isFinite ? v : -Double.infinity
            if value > best.value { best = (x, value) }
            return value
        }
        let d = start.count
        var origin = best.point
        var restarts = 0
        while evaluations < budget {
            // Simplex: the origin and one step along each axis (inwards at the upper edge).
            var simplex = [origin]
            for i in 0..<d {
                var p = origin
                p[i] = p[i] + step <= 1 ? p[i] + step : p[i] - step
                simplex.append(p)
            }
            var values: [Double] = []
            for p in simplex where evaluations < budget { values.append(f(p)) }
            guard values.count == simplex.count else { break }
            while evaluations < budget {
                let order = simplex.indices.sorted { values[$0] > values[$1] }
                simplex = order.map { simplex[$0] }
                values = order.map { values[$0] }
                if values[0] - values[d] <= tolerance { break }
                var centroid = [Double](repeating: 0, count: d)
                for p in simplex.dropLast() { for i in 0..<d { centroid[i] += p[i] / Double(d) } }
                func toward(_ t: Double) -> [Double] {
                    (0..<d).map { clamp(centroid[$0] + t * (simplex[d][$0] - centroid[$0]), 0...1) }
                }
                let reflected = toward(-1), fr = f(reflected)
                if fr > values[0], evaluations < budget {
                    let expanded = toward(-2), fe = f(expanded)
                    (simplex[d], values[d]) = fe > fr ? (expanded, fe) : (reflected, fr)
                } else if fr > values[d - 1] {
                    (simplex[d], values[d]) = (reflected, fr)
                } else if evaluations < budget {
                    let contracted = fr > values[d] ? toward(-0.5) : toward(0.5), fc = f(contracted)
                    if fc > max(fr, values[d]) {
                        (simplex[d], values[d]) = (contracted, fc)
                    } else {
                        for k in 1...d where evaluations < budget {
                            simplex[k] = (0..<d).map { simplex[0][$0] + 0.5 * (simplex[k][$0] - simplex[0][$0]) }
                            values[k] = f(simplex[k])
                        }
                    }
                }
            }
            // Alternate restarts: from the best point so far, then from a random point.
            restarts += 1
            origin = restarts % 2 == 1 ? best.point : (0..<d).map { _ in rng.uniform() }
        }
        return (best.point, best.value, evaluations)
    }
}
