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
}

/// A typed view of one engine's constants, built from the registry.
public protocol EngineConstants: Sendable {
    static var spec: EngineSpec { get }
    init(_ values: EngineValues)
}

extension EngineConstants {
    public init(registry: ConstantsRegistry) {
        self.init(registry.values(Self.spec.name))
    }

    /// The defaults of the product specification.
    public static var defaults: Self { Self(registry: .defaults) }
}

/// The values of one engine's constants; every name of its spec is present.
public struct EngineValues: Sendable {
    public let engine: String
    let values: [String: Double]

    public subscript(_ name: String) -> Double {
        guard let v = values[name] else {
            preconditionFailure("engine '\(engine)' has no constant '\(name)'")
        }
        return v
    }
}

/// Error in a constants file: names the file and what is wrong.
public struct ConstantsError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }
}

/// The one versioned registry of every engine constant (docs/engines.md, Registry).
public struct ConstantsRegistry: Sendable, Equatable {
    /// Every engine the toolkit runs, in the order `constants show` lists them.
    public static let specs: [EngineSpec] = [
        SessionConstants.spec, ImpactConstants.spec, SongEffectConstants.spec, MixedModelConstants.spec,
        StressConstants.spec, StateConstants.spec, ReadinessConstants.spec, TrendConstants.spec,
        ZoneConstants.spec, CoherenceConstants.spec,
    ]

    /// Engine name → (version, name → value).
    public private(set) var engines: [String: (version: String, values: [String: Double])]

    public static let defaults = ConstantsRegistry()

    private init() {
        var engines: [String: (String, [String: Double])] = [:]
        for spec in Self.specs {
            engines[spec.name] = (spec.version, Dictionary(uniqueKeysWithValues: spec.constants.map { ($0.name, $0.value) }))
        }
        self.engines = engines
    }

    public static func == (a: ConstantsRegistry, b: ConstantsRegistry) -> Bool {
        a.canonicalJSON == b.canonicalJSON
    }

    public func values(_ engine: String) -> EngineValues {
        EngineValues(engine: engine, values: engines[engine]?.values ?? [:])
    }

    public static func spec(_ engine: String) -> EngineSpec? {
        specs.first { $0.name == engine }
    }

    /// Loads a constants JSON of the shape `constants show` prints. Engines and
    /// constants it omits keep their defaults; unknown names, non-numbers, values
    /// out of range and weight groups not summing to 1 are errors.
    public init(contentsOf path: String) throws {
        self = .defaults
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
            throw ConstantsError(path: path, message: "not valid JSON: \(error.localizedDescription)")
        }
        guard let top = root as? [String: Any], let engines = top["engines"] as? [String: Any] else {
            throw ConstantsError(path: path, message: "expected an object with an \"engines\" object")
        }
        for engineName in engines.keys.sorted() {
            guard let spec = Self.spec(engineName) else {
                throw ConstantsError(path: path, message: "unknown engine '\(engineName)' (known: \(Self.specs.map(\.name).joined(separator: ", ")))")
            }
            guard let entry = engines[engineName] as? [String: Any] else {
                throw ConstantsError(path: path, message: "engine '\(engineName)' must be an object")
            }
            var values = self.engines[engineName]?.values ?? [:]
            var version = spec.version
            if let v = entry["version"] {
                guard let s = v as? String, s.split(separator: ".").count == 3,
                      s.split(separator: ".").allSatisfy({ Int($0) != nil }) else {
                    throw ConstantsError(path: path, message: "engine '\(engineName)': version must be a semantic version like \"1.2.0\"")
                }
                version = s
            }
            let constants = entry["constants"] as? [String: Any] ?? [:]
            for name in constants.keys.sorted() {
                guard let c = spec.constants.first(where: { $0.name == name }) else {
                    throw ConstantsError(path: path, message: "engine '\(engineName)': unknown constant '\(name)'")
                }
                let raw = (constants[name] as? [String: Any])?["value"] ?? constants[name]
                // JSON booleans arrive as NSNumber with the ObjC type code 'c'.
                guard let number = raw as? NSNumber, number.objCType.pointee != CChar(UInt8(ascii: "c")),
                      number.doubleValue.isFinite else {
                    throw ConstantsError(path: path, message: "engine '\(engineName)': constant '\(name)' must be a number")
                }
                guard c.range.contains(number.doubleValue) else {
                    throw ConstantsError(path: path, message: "engine '\(engineName)': constant '\(name)' = \(number.doubleValue) is outside \(c.range.lowerBound)…\(c.range.upperBound) \(c.unit)")
                }
                values[name] = number.doubleValue
            }
            for group in spec.weightGroups {
                let sum = group.reduce(0) { $0 + (values[$1] ?? 0) }
                guard abs(sum - 1) < 1e-9 else {
                    throw ConstantsError(path: path, message: "engine '\(engineName)': weights \(group.joined(separator: " + ")) sum to \(sum), not 1")
                }
            }
            for rule in spec.orderRules {
                let v = rule.names.map { values[$0] ?? .nan }
                let ordered = zip(v, v.dropFirst()).allSatisfy { rule.strict ? $0 < $1 : $0 <= $1 }
                guard ordered else {
                    throw ConstantsError(path: path, message: "engine '\(engineName)': \(rule.names.joined(separator: rule.strict ? " < " : " ≤ ")) must hold (values \(v.map { "\($0)" }.joined(separator: ", ")))")
                }
            }
            self.engines[engineName] = (version, values)
        }
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
        return .object(["engines": .object(out)])
    }

    /// Versions and values only, the part that decides results.
    private var canonicalJSON: String {
        var out: [String: JSONValue] = [:]
        for (name, entry) in engines {
            out[name] = .object(["version": .string(entry.version), "values": .object(entry.values.mapValues { .num($0) })])
        }
        return JSONValue.object(out).render()
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
