/// Time-domain HRV indices (Task Force of the ESC/NASPE, 1996). Inputs are NN
/// intervals in milliseconds; outputs in ms unless named otherwise.
public enum HRVTime {
    /// RMSSD (ms): root mean square of successive NN differences. NaN below 2 beats.
    public static func rmssd(_ rrMs: [Double]) -> Double {
        guard rrMs.count > 1 else { return .nan }
        var sum = 0.0
        for i in 1..<rrMs.count {
            let d = rrMs[i] - rrMs[i - 1]
            sum += d * d
        }
        return (sum / Double(rrMs.count - 1)).squareRoot()
    }
}
