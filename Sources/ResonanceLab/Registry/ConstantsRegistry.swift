import Foundation

/// One named engine constant: its default, unit, allowed range and where the
/// default comes from.
public struct ConstantSpec: Sendable, Equatable {
    public let name: String
    public let value: Double
    public let unit: String
    public let range: ClosedRange<Double>
    public let source: String

    public init(_ name: String, _ value: Double, unit: String, range: ClosedRange<Double>, source: String) {
        self.name = name; self.value = value; self.unit = unit; self.range = range; self.source = source
    }
}

/// Constants whose values must increase in the order given: band edges, thresholds,
/// a minimum count against its window. `strict` where equal values would divide by
/// zero or leave an empty band.
public struct OrderRule: Sendable {
    public let names: [String]
    public let strict: Bool

    public init(_ names: [String], strict: Bool = false) {
        self.names = names; self.strict = strict
    }
}

/// An engine's constants: semantic version, constants, groups of weights that must
/// sum to 1, and orderings between constants. Changing a coefficient is a minor
/// version bump, changing a formula a major one (docs/engines.md, Registry).
public struct EngineSpec: Sendable {
    public let name: String
    public let version: String
    public let constants: [ConstantSpec]
    public let weightGroups: [[String]]
    public let orderRules: [OrderRule]

    public init(name: String, version: String, constants: [ConstantSpec], weightGroups: [[String]] = [],
                orderRules: [OrderRule] = []) {
        self.name = name; self.version = version; self.constants = constants; self.weightGroups = weightGroups
        self.orderRules = orderRules
    }

    /// The constant named `name`, if the engine has one.
    public func constant(_ name: String) -> ConstantSpec? {
        constants.first { $0.name == name }
    }
}

/// One engine's constants as stored properties, built once when the registry is
/// loaded: a name the engine reads that its spec lacks is an error at load, and no
/// engine looks a constant up by name while it runs.
public protocol EngineConstants: Sendable {
    static var spec: EngineSpec { get }
    /// Where the registry keeps this engine's constants.
    static var inRegistry: KeyPath<ConstantsRegistry, Self> { get }
    /// Reads every constant of the engine from `c`.
    init(_ c: ConstantReader) throws
}

extension EngineConstants {
    /// The constants in force in `registry`.
    public init(registry: ConstantsRegistry) {
        self = registry[keyPath: Self.inRegistry]
    }

    /// The defaults of the product specification.
    public static var defaults: Self { Self(registry: .defaults) }

    /// The defaults with the constants named in `values` replaced, validated as a
    /// constants file is (names, ranges, weight sums, orderings).
    public init(replacing values: [String: Double]) throws {
        self = try ConstantsRegistry.defaults.replacing(Self.spec.name, with: values)[keyPath: Self.inRegistry]
    }
}

/// The values of one engine's constants while its typed constants are built. Records
/// the names read, so that a test can check that every constant of the spec is used.
public final class ConstantReader {
    public let engine: String
    private let values: [String: Double]
    private let origin: String
    /// The names read so far.
    public private(set) var names: Set<String> = []

    init(engine: String, values: [String: Double], origin: String) {
        self.engine = engine; self.values = values; self.origin = origin
    }

    public subscript(_ name: String) -> Double {
        get throws {
            guard let v = values[name] else {
                throw ConstantsError(path: origin, message: "engine '\(engine)' has no constant '\(name)'")
            }
            names.insert(name)
            return v
        }
    }
}

/// Error in a constants file: names the file and what is wrong.
public struct ConstantsError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }
}

/// A constant the product specification defines that none of its formulas uses: listed
/// by the registry so that its absence from every engine is a statement, not an oversight.
public struct ConstantWithoutFormula: Sendable, Equatable {
    public let name: String
    public let value: Double
    public let unit: String
    /// Where the product defines it and why no engine reads it.
    public let note: String
}

/// The one versioned registry of every engine constant (docs/engines.md, Registry).
public struct ConstantsRegistry: Sendable, Equatable {
    /// Every engine the toolkit runs, in the order `constants show` lists them.
    public static let engineTypes: [any EngineConstants.Type] = [
        HRConstants.self, RRConstants.self, HRVConstants.self, SessionConstants.self, ImpactConstants.self, SongEffectConstants.self,
        MixedModelConstants.self, DailyInputConstants.self, StressConstants.self, StateConstants.self, RankingConstants.self,
        ReadinessConstants.self, TrendConstants.self, ZoneConstants.self, CoherenceConstants.self,
        PacerConstants.self, MorningRecoveryConstants.self, CoachingConstants.self,
        BioAgeConstants.self, ECGBeatConstants.self, PPGBeatConstants.self, BeatQualityConstants.self, OPEConstants.self,
        LearningConstants.self,
    ]

    public static let specs: [EngineSpec] = engineTypes.map { $0.spec }

    /// The product's constants with no formula (docs/engines.md, Constants without a formula).
    public static let withoutFormula: [ConstantWithoutFormula] = [
        ConstantWithoutFormula(name: "skip_penalty_weight", value: 0.5, unit: "weight", note:
            "product specification: a learning-sensitivity preference; the impact score penalises skips by the fixed −0.3 / −0.15 (impact skip_penalty_early, skip_penalty_late) and no formula reads this weight"),
        ConstantWithoutFormula(name: "hrv_response_weight", value: 0.3, unit: "weight", note:
            "product specification: a learning-sensitivity preference; the impact score weights ΔHRV by 0.5 (0.8 without HR) and no formula reads this weight"),
    ]

    /// Engine name → (version, name → value).
    public private(set) var engines: [String: (version: String, values: [String: Double])]

    public private(set) var hr: HRConstants
    public private(set) var rr: RRConstants
    public private(set) var hrv: HRVConstants
    public private(set) var dailyInputs: DailyInputConstants
    public private(set) var sessions: SessionConstants
    public private(set) var impact: ImpactConstants
    public private(set) var songEffect: SongEffectConstants
    public private(set) var mixedModel: MixedModelConstants
    public private(set) var stress: StressConstants
    public private(set) var state: StateConstants
    public private(set) var ranking: RankingConstants
    public private(set) var readiness: ReadinessConstants
    public private(set) var trend: TrendConstants
    public private(set) var zones: ZoneConstants
    public private(set) var coherence: CoherenceConstants
    public private(set) var pacer: PacerConstants
    public private(set) var morningRecovery: MorningRecoveryConstants
    public private(set) var coaching: CoachingConstants
    public private(set) var bioAge: BioAgeConstants
    public private(set) var ecgBeats: ECGBeatConstants
    public private(set) var ppgBeats: PPGBeatConstants
    public private(set) var beatQuality: BeatQualityConstants
    public private(set) var ope: OPEConstants
    public private(set) var learning: LearningConstants

    /// The built-in defaults. Every test run loads them, so a spec whose engine reads
    /// a name it does not declare fails there.
    public static let defaults: ConstantsRegistry = {
        do {
            return try builtIn()
        } catch {
            preconditionFailure("built-in constants: \(error)")
        }
    }()

    /// The defaults of every spec, loaded as a constants file is.
    static func builtIn() throws -> ConstantsRegistry {
        var engines: [String: (String, [String: Double])] = [:]
        for spec in specs {
            engines[spec.name] = (spec.version, Dictionary(uniqueKeysWithValues: spec.constants.map { ($0.name, $0.value) }))
        }
        return try ConstantsRegistry(engines: engines, origin: "built-in constants")
    }

    /// Builds every engine's typed constants from `engines`.
    private init(engines: [String: (version: String, values: [String: Double])], origin: String) throws {
        func typed<C: EngineConstants>(_: C.Type) throws -> C {
            try C(ConstantReader(engine: C.spec.name, values: engines[C.spec.name]?.values ?? [:], origin: origin))
        }
        self.engines = engines
        hr = try typed(HRConstants.self)
        rr = try typed(RRConstants.self)
        hrv = try typed(HRVConstants.self)
        dailyInputs = try typed(DailyInputConstants.self)
        sessions = try typed(SessionConstants.self)
        impact = try typed(ImpactConstants.self)
        songEffect = try typed(SongEffectConstants.self)
        mixedModel = try typed(MixedModelConstants.self)
        stress = try typed(StressConstants.self)
        state = try typed(StateConstants.self)
        ranking = try typed(RankingConstants.self)
        readiness = try typed(ReadinessConstants.self)
        trend = try typed(TrendConstants.self)
        zones = try typed(ZoneConstants.self)
        coherence = try typed(CoherenceConstants.self)
        pacer = try typed(PacerConstants.self)
        morningRecovery = try typed(MorningRecoveryConstants.self)
        coaching = try typed(CoachingConstants.self)
        bioAge = try typed(BioAgeConstants.self)
        ecgBeats = try typed(ECGBeatConstants.self)
        ppgBeats = try typed(PPGBeatConstants.self)
        beatQuality = try typed(BeatQualityConstants.self)
        ope = try typed(OPEConstants.self)
        learning = try typed(LearningConstants.self)
    }

    public static func == (a: ConstantsRegistry, b: ConstantsRegistry) -> Bool {
        a.canonicalJSON == b.canonicalJSON
    }

    public static func spec(_ engine: String) -> EngineSpec? {
        specs.first { $0.name == engine }
    }

    /// The values in force of `engine`'s constants by name (empty for an unknown
    /// engine), for tools that vary constants; engines read their typed constants.
    public func values(of engine: String) -> [String: Double] {
        engines[engine]?.values ?? [:]
    }

    /// A copy with the constants named in `values` of `engine` replaced, and its
    /// version set to `version` when given; validated as a constants file is (known
    /// engine and names, finite values in range, weight groups summing to 1,
    /// orderings), so a tuner gets the same errors as a user editing a file.
    public func replacing(_ engine: String, with values: [String: Double], version: String? = nil) throws -> ConstantsRegistry {
        let origin = "constants replacing \(engine)"
        guard let spec = Self.spec(engine) else {
            throw ConstantsError(path: origin, message: "unknown engine '\(engine)' (known: \(Self.specs.map(\.name).joined(separator: ", ")))")
        }
        var engines = self.engines
        let current = engines[engine] ?? (spec.version, [:])
        if let version { try Self.checkVersion(version, engine: engine, origin: origin) }
        engines[engine] = (version ?? current.version,
                           try Self.validated(spec, current.values, replacing: values, origin: origin))
        return try ConstantsRegistry(engines: engines, origin: origin)
    }

    /// Loads a constants JSON of the shape `constants show` prints. Engines and
    /// constants it omits keep their defaults; unknown names, non-numbers, values
    /// out of range and weight groups not summing to 1 are errors.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConstantsError(path: path, message: "cannot read file: \(error.localizedDescription)")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Self.jsonError(error, data: data, path: path)
        }
        guard let top = root as? [String: Any], let engines = top["engines"] as? [String: Any] else {
            throw ConstantsError(path: path, message: "expected an object with an \"engines\" object")
        }
        // Besides `engines`: the provenance a tuned file records, and how it was tuned
        // (`resonance tune`); both describe the file and do not change any value.
        // `without_formula` is the list `constants show` prints of the product's constants no
        // formula uses; it sets nothing.
        try Self.checkKeys(top, known: ["engines", "constants_version", "constants_digest", "tuning", "without_formula"],
                           in: "the file", path: path)
        var loaded = Self.defaults.engines
        for engineName in engines.keys.sorted() {
            guard let spec = Self.spec(engineName) else {
                throw ConstantsError(path: path, message: "unknown engine '\(engineName)' (known: \(Self.specs.map(\.name).joined(separator: ", ")))")
            }
            guard let entry = engines[engineName] as? [String: Any] else {
                throw ConstantsError(path: path, message: "engine '\(engineName)' must be an object")
            }
            try Self.checkKeys(entry, known: ["version", "constants"], in: "engine '\(engineName)'", path: path)
            var version = spec.version
            if let v = entry["version"] {
                guard let s = v as? String else {
                    throw ConstantsError(path: path, message: "engine '\(engineName)': version must be a semantic version like \"1.2.0\"")
                }
                try Self.checkVersion(s, engine: engineName, origin: path)
                version = s
            }
            let constants: [String: Any]
            switch entry["constants"] {
            case nil: constants = [:]
            case let object as [String: Any]: constants = object
            default: throw ConstantsError(path: path, message: "engine '\(engineName)': \"constants\" must be an object")
            }
            var replaced: [String: Double] = [:]
            for name in constants.keys.sorted() {
                if let described = constants[name] as? [String: Any] {
                    // The shape `constants show` prints: value with its unit, range and source.
                    try Self.checkKeys(described, known: ["value", "unit", "min", "max", "source"],
                                       in: "engine '\(engineName)': constant '\(name)'", path: path)
                }
                let raw = (constants[name] as? [String: Any])?["value"] ?? constants[name]
                // JSON booleans arrive as NSNumber with the ObjC type code 'c'.
                guard let number = raw as? NSNumber, number.objCType.pointee != CChar(UInt8(ascii: "c")) else {
                    guard spec.constants.contains(where: { $0.name == name }) else {
                        throw ConstantsError(path: path, message: "engine '\(engineName)': unknown constant '\(name)'")
                    }
                    throw ConstantsError(path: path, message: "engine '\(engineName)': constant '\(name)' must be a number")
                }
                replaced[name] = number.doubleValue
            }
            loaded[engineName] = (version, try Self.validated(spec, loaded[engineName]?.values ?? [:], replacing: replaced, origin: path))
        }
        self = try ConstantsRegistry(engines: loaded, origin: path)
    }

    /// An unknown key is an error, so that a misspelt name (`constnats`) cannot leave
    /// the defaults silently in force.
    private static func checkKeys(_ object: [String: Any], known: [String], in place: String, path: String) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConstantsError(path: path, message: "\(place): unknown key '\(unknown)' (known: \(known.joined(separator: ", ")))")
        }
    }

    /// A JSON syntax error as `path:LINE:COLUMN: not valid JSON: …`. Foundation reports
    /// the offending character's offset ("around character N"), or the end of the file.
    private static func jsonError(_ error: Error, data: Data, path: String) -> ConstantsError {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        var offset = data.count
        if let range = detail.range(of: "character ") {
            offset = min(Int(detail[range.upperBound...].prefix { $0.isNumber }) ?? offset, data.count)
        }
        var line = 1, column = 1
        for byte in data.prefix(offset) where byte & 0xC0 != 0x80 {
            if byte == 10 { line += 1; column = 1 } else { column += 1 }
        }
        return ConstantsError(path: "\(path):\(line):\(column)", message: "not valid JSON: \(detail)")
    }

    private static func checkVersion(_ version: String, engine: String, origin: String) throws {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ Int($0) != nil }) else {
            throw ConstantsError(path: origin, message: "engine '\(engine)': version must be a semantic version like \"1.2.0\"")
        }
    }

    /// `values` with `replacements` applied, checked against `spec`: every name known,
    /// every value finite and in range, weight groups summing to 1, orderings holding.
    private static func validated(_ spec: EngineSpec, _ values: [String: Double], replacing replacements: [String: Double],
                                  origin: String) throws -> [String: Double] {
        var values = values
        for name in replacements.keys.sorted() {
            guard let c = spec.constant(name) else {
                throw ConstantsError(path: origin, message: "engine '\(spec.name)': unknown constant '\(name)'")
            }
            let v = replacements[name] ?? .nan
            guard v.isFinite else {
                throw ConstantsError(path: origin, message: "engine '\(spec.name)': constant '\(name)' must be a number")
            }
            guard c.range.contains(v) else {
                throw ConstantsError(path: origin, message: "engine '\(spec.name)': constant '\(name)' = \(v) is outside \(c.range.lowerBound)…\(c.range.upperBound) \(c.unit)")
            }
            values[name] = v
        }
        for group in spec.weightGroups {
            let sum = group.reduce(0) { $0 + (values[$1] ?? 0) }
            guard abs(sum - 1) < 1e-9 else {
                throw ConstantsError(path: origin, message: "engine '\(spec.name)': weights \(group.joined(separator: " + ")) sum to \(sum), not 1")
            }
        }
        for rule in spec.orderRules {
            let v = rule.names.map { values[$0] ?? .nan }
            let ordered = zip(v, v.dropFirst()).allSatisfy { rule.strict ? $0 < $1 : $0 <= $1 }
            guard ordered else {
                throw ConstantsError(path: origin, message: "engine '\(spec.name)': \(rule.names.joined(separator: rule.strict ? " < " : " ≤ ")) must hold (values \(v.map { "\($0)" }.joined(separator: ", ")))")
            }
        }
        return values
    }

    /// The registry as JSON: per engine its version and each constant's value, unit,
    /// range and source. `engine` limits it to one engine.
    public func json(engine: String? = nil) -> JSONValue {
        var out: [String: JSONValue] = [:]
        for spec in Self.specs where engine == nil || spec.name == engine {
            var constants: [String: JSONValue] = [:]
            for c in spec.constants {
                constants[c.name] = .object([
                    "value": .num(engines[spec.name]?.values[c.name]), "unit": .string(c.unit),
                    "min": .num(c.range.lowerBound), "max": .num(c.range.upperBound), "source": .string(c.source),
                ])
            }
            out[spec.name] = .object(["version": .string(engines[spec.name]?.version ?? spec.version), "constants": .object(constants)])
        }
        guard engine == nil else { return .object(["engines": .object(out)]) }
        let unused = Self.withoutFormula.map { c -> (String, JSONValue) in
            (c.name, .object(["value": .num(c.value), "unit": .string(c.unit), "source": .string(c.note)]))
        }
        return .object(["engines": .object(out), "without_formula": .object(Dictionary(uniqueKeysWithValues: unused))])
    }

    /// Versions and values only, the part that decides results.
    private var canonicalJSON: String {
        var out: [String: JSONValue] = [:]
        for (name, entry) in engines { out[name] = Self.canonical(entry) }
        return JSONValue.object(out).render()
    }

    private static func canonical(_ entry: (version: String, values: [String: Double])) -> JSONValue {
        .object(["version": .string(entry.version), "values": .object(entry.values.mapValues { .num($0) })])
    }

    /// SHA-256 of one engine's version and values in force: what a table's lineage
    /// records for each engine its stage used (empty for an unknown engine).
    public func digest(of engine: String) -> String {
        guard let entry = engines[engine] else { return "" }
        return SHA256.hex(Self.canonical(entry).render())
    }

    /// `engine@version` for every engine, the constants version outputs record.
    public var version: String {
        Self.specs.map { "\($0.name)@\(engines[$0.name]?.version ?? $0.version)" }.joined(separator: " ")
    }

    /// SHA-256 of the versions and values in force (provenance of every output).
    public var digest: String { SHA256.hex(canonicalJSON) }

    /// `{constants_version, constants_digest}`: what every output records about the
    /// constants that produced it.
    public var provenance: JSONValue {
        .object(["constants_version": .string(version), "constants_digest": .string(digest)])
    }
}
