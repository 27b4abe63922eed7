/// The `shard` record of a shard workspace's manifest (docs/sharding.md): which part
/// of which split it is, so that merge can check it has every shard of one split.
public struct ShardInfo: Codable, Equatable, Sendable {
    /// 0-based index of this shard.
    public var index: Int
    /// Number of shards in the split.
    public var count: Int
    /// SHA-256 of the split workspace's `manifest.json`: the identity of the split.
    public var parentManifestSHA256: String
    /// How subjects were assigned to shards.
    public var assignment: String

    public static let assignmentRule = "fnv1a64(utf8(subject)) mod count; empty subject and tables without a subject column: shard 0"

    public init(index: Int, count: Int, parentManifestSHA256: String) {
        self.index = index; self.count = count; self.parentManifestSHA256 = parentManifestSHA256
        assignment = Self.assignmentRule
    }
}
