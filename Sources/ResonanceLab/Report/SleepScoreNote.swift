/// The sleep-score discrepancy of the product specification, shown in every persona
/// report: its examples do not follow from its formula (see `ReadinessEngine`).
enum SleepScoreNote {
    /// (hours, the specification's example score).
    static let examples: [(hours: Double, example: Double)] = [(7, 95), (6, 75), (5, 41), (10, 75)]

    static func markdown(meanSleepHours: Double?, registry: ConstantsRegistry) -> String {
        let engine = ReadinessEngine(constants: ReadinessConstants(registry: registry))
        let c = engine.constants
        var out = "## Sleep score note\n\n"
        out += "The readiness sleep pillar is the specification's Gaussian, 100·exp(−(h − \(decimals(c.sleepTargetHours, 1)))²/(2·\(decimals(c.sleepSigmaHours, 2))²)). "
        out += "The specification's example scores do not follow from it; the formula is used:\n\n"
        out += markdownTable(["hours", "specification example", "formula", "formula − example"], examples.map { e in
            let f = engine.sleepScore(hours: e.hours)
            return [decimals(e.hours, 0), decimals(e.example, 0), decimals(f, 1), signed(f - e.example, 1)]
        }) + "\n"
        if let h = meanSleepHours {
            out += "At this persona's mean \(decimals(h, 2)) h the formula gives \(decimals(engine.sleepScore(hours: h), 1)).\n\n"
        }
        return out
    }
}
