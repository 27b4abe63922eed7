/// Kinds of beat artifacts, as classified by Lipponen & Tarvainen (2019).
public enum BeatArtifact: UInt8, Sendable, CaseIterable {
    case none = 0
    /// Premature (ectopic) beat: a short–long or long–short pair.
    case ectopic
    /// A beat the detector missed: the interval spans two beats.
    case missed
    /// A spurious detection: the interval is a fragment of one beat.
    case extra
    /// An interval too long or too short that fits no other class.
    case longShort
    /// Rejected by the percentage-change rule (Malik et al. 1989).
    case malik

    public var label: String {
        switch self {
        case .none: return ""
        case .ectopic: return "ectopic"
        case .missed: return "missed"
        case .extra: return "extra"
        case .longShort: return "long_short"
        case .malik: return "malik"
        }
    }
}

/// Which detector cleans the RR series.
public enum ArtifactMethod: String, Sendable, CaseIterable {
    /// Lipponen & Tarvainen (2019) adaptive thresholds (the Kubios method; default).
    case lipponen
    /// Malik et al. (1989): an interval differing by more than 20 % from the last
    /// accepted one is an artifact.
    case malik
    /// No detection: every interval is taken as NN.
    case none
}

/// Beat-artifact detectors. Both return one class per RR interval.
public enum ArtifactDetector {
    public static func detect(_ rrMs: [Double], method: ArtifactMethod) -> [BeatArtifact] {
        switch method {
        case .lipponen: return lipponenTarvainen(rrMs)
        case .malik: return malik(rrMs)
        case .none: return [BeatArtifact](repeating: .none, count: rrMs.count)
        }
    }

    /// Lipponen J.A. & Tarvainen M.P. (2019), "A robust algorithm for heart rate
    /// variability time series artefact correction using novel beat classification",
    /// J. Med. Eng. Technol. 43(3):173–181. dRR (successive differences) and mRR
    /// (deviation from an 11-beat median, negative side doubled) are normalised by
    /// time-varying thresholds 5.2 × quartile deviation over 91 beats; beats are then
    /// classified by the decision rules of the paper's Fig. 1 (c1 = 0.13, c2 = 0.17).
    public static func lipponenTarvainen(
        _ rrMs: [Double], c1: Double = 0.13, c2: Double = 0.17, alpha: Double = 5.2,
        thresholdWidth: Int = 91, medianWidth: Int = 11
    ) -> [BeatArtifact] {
        let n = rrMs.count
        var flags = [BeatArtifact](repeating: .none, count: n)
        guard n >= 4 else { return flags }
        let rr = rrMs
        var drrs = [Double](repeating: 0, count: n)
        for i in 1..<n { drrs[i] = rr[i] - rr[i - 1] }
        drrs[0] = drrs[1...].reduce(0, +) / Double(n - 1)
        let th1 = threshold(drrs, alpha: alpha, width: thresholdWidth)
        for i in 0..<n { drrs[i] = th1[i] > 0 ? drrs[i] / th1[i] : 0 }

        let medrr = RollingWindow.centredQuantiles(rr, width: medianWidth, [0.5])[0]
        var mrrs = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let d = rr[i] - medrr[i]
            mrrs[i] = d < 0 ? 2 * d : d
        }
        let th2 = threshold(mrrs, alpha: alpha, width: thresholdWidth)
        for i in 0..<n { mrrs[i] = th2[i] > 0 ? mrrs[i] / th2[i] : 0 }

        // Subspaces S12 and S22 (paper eqs. 3–4), with reflected padding at the ends.
        func d(_ k: Int) -> Double {
            var j = k
            if j < 0 { j = -j }
            if j >= n { j = 2 * (n - 1) - j }
            return drrs[min(max(j, 0), n - 1)]
        }
        func s12(_ i: Int) -> Double {
            drrs[i] > 0 ? max(d(i - 1), d(i + 1)) : (drrs[i] < 0 ? min(d(i - 1), d(i + 1)) : 0)
        }
        func s22(_ i: Int) -> Double {
            drrs[i] >= 0 ? min(d(i + 1), d(i + 2)) : max(d(i + 1), d(i + 2))
        }

        var i = 0
        while i < n - 2 {
            defer { i += 1 }
            guard abs(drrs[i]) > 1 else { continue }
            let s = s12(i)
            if (drrs[i] > 1 && s < -c1 * drrs[i] - c2) || (drrs[i] < -1 && s > -c1 * drrs[i] + c2) {
                flags[i] = .ectopic
                continue
            }
            var candidates = [i]
            if abs(drrs[i + 1]) < abs(drrs[i + 2]) { candidates.append(i + 1) }
            for j in candidates where flags[j] == .none {
                let long = drrs[j] > 1 && s22(j) < -1
                let short = drrs[j] < -1 && s22(j) > 1
                guard long || short || abs(mrrs[j]) > 3 else { continue }
                let missed = abs(rr[j] / 2 - medrr[j]) < th2[j]
                let extra = j + 1 < n && abs(rr[j] + rr[j + 1] - medrr[j]) < th2[j]
                if short && extra {
                    flags[j] = .extra
                } else if long && missed {
                    flags[j] = .missed
                } else {
                    flags[j] = .longShort
                }
            }
        }
        return flags
    }

    /// Threshold series: alpha × quartile deviation of |x| over a centred window.
    private static func threshold(_ x: [Double], alpha: Double, width: Int) -> [Double] {
        let q = RollingWindow.centredQuantiles(x.map { abs($0) }, width: width, [0.25, 0.75])
        return zip(q[0], q[1]).map { alpha * ($1 - $0) / 2 }
    }

    /// Malik M. et al. (1989): flag an interval whose change from the last accepted
    /// interval exceeds `maxChange` (default 20 %) of it. The first reference is the
    /// median of the run's first five intervals, so that an artifact opening the run
    /// (common right after a gap) is itself caught instead of becoming the yardstick.
    public static func malik(_ rrMs: [Double], maxChange: Double = 0.2) -> [BeatArtifact] {
        var flags = [BeatArtifact](repeating: .none, count: rrMs.count)
        guard !rrMs.isEmpty else { return flags }
        var reference = Stats.median(Array(rrMs.prefix(5)))
        for i in rrMs.indices {
            if abs(rrMs[i] - reference) > maxChange * reference {
                flags[i] = .malik
            } else {
                reference = rrMs[i]
            }
        }
        return flags
    }
}
