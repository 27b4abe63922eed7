/// Heart-rate zones: Karvonen heart-rate reserve (Karvonen et al., Ann Med Exp Biol
/// Fenn 1957) with Tanaka's age-predicted maximum (Tanaka, Monahan & Seals, JACC 2001);
/// the zone distribution of workout heart rate, its 80/20 check and the weekly summary
/// against the AHA targets (docs/engines/heart-coach.md, Zones).
public struct ZoneConstants: EngineConstants {
    public static let spec = EngineSpec(name: "zones", version: "2.0.0", constants: [
        ConstantSpec("max_hr_intercept", 208, unit: "bpm", range: 100...300, source: "Tanaka 2001: HRmax = 208 − 0.7·age"),
        ConstantSpec("max_hr_age_slope", 0.7, unit: "bpm/year", range: 0...5, source: "Tanaka 2001: HRmax = 208 − 0.7·age"),
        ConstantSpec("female_max_hr_adjustment_bpm", -1, unit: "bpm", range: -10...10, source: "product specification: ±1 bpm female adjustment; choice: −1, women's maximum lower (Gulati et al. 2010, Circulation 122:130: 206 − 0.88·age); none without a sex, as Tanaka's pooled equation"),
        ConstantSpec("zone1_from", 0.5, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone2_from", 0.6, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone3_from", 0.7, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone4_from", 0.8, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone5_from", 0.9, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone5_to", 1.0, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("weight_zone1", 0.10, unit: "weight", range: 0...1, source: "product specification: zone distribution weights 0.10/0.15/0.35/0.25/0.15"),
        ConstantSpec("weight_zone2", 0.15, unit: "weight", range: 0...1, source: "product specification: zone distribution weights 0.10/0.15/0.35/0.25/0.15"),
        ConstantSpec("weight_zone3", 0.35, unit: "weight", range: 0...1, source: "product specification: zone distribution weights 0.10/0.15/0.35/0.25/0.15"),
        ConstantSpec("weight_zone4", 0.25, unit: "weight", range: 0...1, source: "product specification: zone distribution weights 0.10/0.15/0.35/0.25/0.15"),
        ConstantSpec("weight_zone5", 0.15, unit: "weight", range: 0...1, source: "product specification: zone distribution weights 0.10/0.15/0.35/0.25/0.15"),
        ConstantSpec("target_zone1_minutes", 10, unit: "min/day", range: 0.1...1440, source: "choice: 30 min/day (150 min/week over 5 days) split 80/20: zones 1–2 24 min"),
        ConstantSpec("target_zone2_minutes", 14, unit: "min/day", range: 0.1...1440, source: "choice: 30 min/day (150 min/week over 5 days) split 80/20: zones 1–2 24 min"),
        ConstantSpec("target_zone3_minutes", 4, unit: "min/day", range: 0.1...1440, source: "choice: 30 min/day split 80/20: zones 3–5 6 min"),
        ConstantSpec("target_zone4_minutes", 1.5, unit: "min/day", range: 0.1...1440, source: "choice: 30 min/day split 80/20: zones 3–5 6 min"),
        ConstantSpec("target_zone5_minutes", 0.5, unit: "min/day", range: 0.1...1440, source: "choice: 30 min/day split 80/20: zones 3–5 6 min"),
        ConstantSpec("easy_share_min", 0.8, unit: "fraction", range: 0...1, source: "product specification: 80/20 rule, 80 % easy (choice: easy = zones 1–2, below 70 % of reserve)"),
        ConstantSpec("moderate_from_hrr", 0.4, unit: "fraction of HRR", range: 0...1, source: "ACSM (Garber et al. 2011, Med Sci Sports Exerc 43:1334): moderate 40–59 % of heart-rate reserve"),
        ConstantSpec("vigorous_from_hrr", 0.6, unit: "fraction of HRR", range: 0...1, source: "ACSM (Garber et al. 2011): vigorous from 60 % of heart-rate reserve"),
        ConstantSpec("aha_moderate_week_minutes", 150, unit: "min/week", range: 1...10080, source: "AHA: 150 min/week of moderate activity"),
        ConstantSpec("aha_vigorous_week_minutes", 75, unit: "min/week", range: 1...10080, source: "AHA: or 75 min/week of vigorous activity (or an equivalent combination)"),
        ConstantSpec("week_days", 7, unit: "days", range: 1...60, source: "product specification: weekly zone summary over 7 days (the 7 days ending the day)"),
    ], weightGroups: [["weight_zone1", "weight_zone2", "weight_zone3", "weight_zone4", "weight_zone5"]], orderRules: [
        OrderRule(["zone1_from", "zone2_from", "zone3_from", "zone4_from", "zone5_from", "zone5_to"], strict: true),
        OrderRule(["moderate_from_hrr", "vigorous_from_hrr"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.zones }

    /// `max_hr_intercept`, bpm.
    public let maxHRIntercept: Double
    /// `max_hr_age_slope`, bpm/year.
    public let maxHRAgeSlope: Double
    /// `female_max_hr_adjustment_bpm`, bpm.
    public let femaleMaxHRAdjustmentBpm: Double
    /// `weight_zone1` … `weight_zone5`.
    public let weightZone1, weightZone2, weightZone3, weightZone4, weightZone5: Double
    /// `target_zone1_minutes` … `target_zone5_minutes`, min/day.
    public let targetZone1Minutes, targetZone2Minutes, targetZone3Minutes, targetZone4Minutes, targetZone5Minutes: Double
    /// The zone weights, zones 1–5.
    public var zoneWeights: [Double] { [weightZone1, weightZone2, weightZone3, weightZone4, weightZone5] }
    /// The daily target minutes, zones 1–5.
    public var zoneTargetMinutes: [Double] {
        [targetZone1Minutes, targetZone2Minutes, targetZone3Minutes, targetZone4Minutes, targetZone5Minutes]
    }
    /// `easy_share_min`, fraction.
    public let easyShareMin: Double
    /// `moderate_from_hrr`, `vigorous_from_hrr`, fraction of HRR.
    public let moderateFromHRR, vigorousFromHRR: Double
    /// `aha_moderate_week_minutes`, `aha_vigorous_week_minutes`, min/week.
    public let ahaModerateWeekMinutes, ahaVigorousWeekMinutes: Double
    /// `week_days`, days.
    public let weekDays: Double
    /// `zone1_from`, fraction of HRR.
    public let zone1From: Double
    /// `zone2_from`, fraction of HRR.
    public let zone2From: Double
    /// `zone3_from`, fraction of HRR.
    public let zone3From: Double
    /// `zone4_from`, fraction of HRR.
    public let zone4From: Double
    /// `zone5_from`, fraction of HRR.
    public let zone5From: Double
    /// `zone5_to`, fraction of HRR.
    public let zone5To: Double

    public init(_ c: ConstantReader) throws {
        maxHRIntercept = try c["max_hr_intercept"]
        maxHRAgeSlope = try c["max_hr_age_slope"]
        femaleMaxHRAdjustmentBpm = try c["female_max_hr_adjustment_bpm"]
        weightZone1 = try c["weight_zone1"]
        weightZone2 = try c["weight_zone2"]
        weightZone3 = try c["weight_zone3"]
        weightZone4 = try c["weight_zone4"]
        weightZone5 = try c["weight_zone5"]
        targetZone1Minutes = try c["target_zone1_minutes"]
        targetZone2Minutes = try c["target_zone2_minutes"]
        targetZone3Minutes = try c["target_zone3_minutes"]
        targetZone4Minutes = try c["target_zone4_minutes"]
        targetZone5Minutes = try c["target_zone5_minutes"]
        easyShareMin = try c["easy_share_min"]
        moderateFromHRR = try c["moderate_from_hrr"]
        vigorousFromHRR = try c["vigorous_from_hrr"]
        ahaModerateWeekMinutes = try c["aha_moderate_week_minutes"]
        ahaVigorousWeekMinutes = try c["aha_vigorous_week_minutes"]
        weekDays = try c["week_days"]
        zone1From = try c["zone1_from"]
        zone2From = try c["zone2_from"]
        zone3From = try c["zone3_from"]
        zone4From = try c["zone4_from"]
        zone5From = try c["zone5_from"]
        zone5To = try c["zone5_to"]
    }
}
