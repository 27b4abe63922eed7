import Foundation
import XCTest
@testable import ResonanceLab

final class DJAnalysisTests: XCTestCase {
    func testNoSectionWithoutAReplayOrASimulation() throws {
        XCTAssertNil(try DJAnalysis.section(Workspace(path: try makeTempDir())))
    }

    func testTheReplaySectionGivesHitRatesAndTheDirectMethodPerNeed() throws {
        let ws = Workspace(path: try makeTempDir())
        try ws.write([DJReplaySummaryRow(need: "all", metric: "decisions", value: 40),
                      DJReplaySummaryRow(need: "all", metric: "top1_rate", value: 0.25),
                      DJReplaySummaryRow(need: "all", metric: "top5_rate", value: 0.6),
                      DJReplaySummaryRow(need: "all", metric: "top10_rate", value: 0.9),
                      DJReplaySummaryRow(need: "all", metric: "dm_decisions_hr", value: 30),
                      DJReplaySummaryRow(need: "all", metric: "dm_delta_hr_bpm", value: -1.234),
                      DJReplaySummaryRow(need: "calm", metric: "decisions", value: 0)])
        let section = try XCTUnwrap(try DJAnalysis.section(ws))
        XCTAssertEqual(section.key, "dj")
        XCTAssertTrue(section.markdown.contains("| all | 40 | 0.250 | 0.600 | 0.900 | -1.23 (30) | – (–) |"), section.markdown)
        XCTAssertFalse(section.markdown.contains("| calm |"), "a need without decisions has no row")
        XCTAssertFalse(section.markdown.contains("Closed-loop"))
        guard case let .object(json) = section.json, case let .object(replay)? = json["replay"],
              case let .object(all)? = replay["all"] else { return XCTFail("no replay.all object") }
        XCTAssertEqual(all["top1_rate"], .num(0.25))
        XCTAssertEqual(all["decisions"], .num(40))
    }

    func testTheSimulationSectionComparesPoliciesWithIntervals() throws {
        let ws = Workspace(path: try makeTempDir())
        func row(_ policy: String, _ need: String, _ metric: String, _ mean: Double, _ lo: Double?, _ hi: Double?) -> DJSummaryRow {
            DJSummaryRow(policy: policy, need: need, metric: metric, seeds: 5, mean: mean, ciLow: lo, ciHigh: hi)
        }
        try ws.write([row("dj", "calm", "mean_delta_hr_bpm", -5.5, -6, -5), row("random", "calm", "mean_delta_hr_bpm", -3, -3.5, -2.5),
                      row("most_played", "calm", "mean_delta_hr_bpm", -3.1, -3.4, -2.8), row("oracle", "calm", "mean_delta_hr_bpm", -8, -8.5, -7.5),
                      row("dj_minus_random", "calm", "mean_delta_hr_bpm", -2.5, -3.5, -1.5),
                      row("dj", "calm", "mean_regret_bpm", 2.5, 2, 3),
                      row("dj", "all", "regret_slope_bpm_per_day", -0.05, -0.08, -0.02),
                      row("dj_minus_random", "all", "shared_mean_regret_bpm", -0.8, -1.2, -0.4),
                      row("learned_effect_minus_random", "all", "shared_mean_regret_bpm", 0.1, -0.3, 0.5),
                      row("most_played_minus_random", "all", "shared_mean_regret_bpm", 0.6, 0.2, 1.0)])
        let md = try XCTUnwrap(try DJAnalysis.section(ws)).markdown
        XCTAssertTrue(md.contains("| calm | -5.50 [-6.00, -5.00] | -3.00 [-3.50, -2.50] | -3.10 [-3.40, -2.80] | – | -8.00 [-8.50, -7.50] "
                                  + "| – | – | – | -2.50 [-3.50, -1.50] | – |"), md)
        XCTAssertTrue(md.contains("| dj | calm | 2.50 [2.00, 3.00] | – | – |"), md)
        XCTAssertTrue(md.contains("| dj | -0.050 [-0.080, -0.020] |"), md)
        XCTAssertTrue(md.contains("over 5 seeds"))
        // Like for like: helps, does nothing, hurts by the interval of the difference from random.
        XCTAssertTrue(md.contains("| dj_minus_random | -0.80 [-1.20, -0.40] | helps | – | – |"), md)
        XCTAssertTrue(md.contains("| learned_effect_minus_random | 0.10 [-0.30, 0.50] | does nothing |"), md)
        XCTAssertTrue(md.contains("| most_played_minus_random | 0.60 [0.20, 1.00] | hurts |"), md)
    }
}
