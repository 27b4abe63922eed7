import Foundation

/// The `shard` record of a shard workspace's manifest (docs/sharding.md): which part
/// of which split it is, so that merge can check it has every shard of one split.
public struct ShardInfo: Codable, Equatable, Sendable {
    /// 0-based index of this shard.
    public var index: Int
    /// Number of shards in the split.
    public var count: Int
    /// `identity(of:)` of the split workspace's manifest.
    public var parentIdentity: String
    /// How subjects were assigned to shards.
    public var assignment: String

    public static let assignmentRule = "fnv1a64(utf8(subject)) mod count; empty subject and tables without a subject column: shard 0"

    public init(index: Int, count: Int, parentIdentity: String) {
        self.index = index; self.count = count; self.parentIdentity = parentIdentity
        assignment = Self.assignmentRule
    }

    /// SHA-256 of the manifest's JSON with an empty table list, no overlap counts and no
    /// shard record: the import's provenance, accounting and subjects, which the stages
    /// leave as they are, so that the merged workspace's manifest must give it back.
    public static func identity(of manifest: Manifest) throws -> String {
        var m = manifest
        m.tables = []
        m.overlaps = nil
        m.shard = nil
        var digest = SHA256()
        digest.update(try m.encoded())
        return digest.finalizeHex()
    }
}
