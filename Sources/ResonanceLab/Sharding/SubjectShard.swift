/// Which shard of a split holds a subject (docs/sharding.md): the 64-bit FNV-1a hash of
/// the subject id's UTF-8 bytes, modulo the number of shards. FNV-1a: offset basis
/// 14695981039346656037, prime 1099511628211; for each byte, XOR then multiply
/// (Fowler, Noll & Vo, IETF draft-eastlake-fnv, "The FNV Non-Cryptographic Hash
/// Algorithm"). The hash depends on nothing but the id, so a subject lands in the same
/// shard on every machine and in every run.
public enum SubjectShard {
    public static func fnv1a64<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 1_099_511_628_211
        }
        return hash
    }

    /// The shard (0-based) of `subject` among `count`. Rows with an empty subject (the
    /// dataset-wide rows of a table, e.g. `truth.csv`'s song effects) go to shard 0.
    public static func index<S: Collection>(of subject: S, count: Int) -> Int where S.Element == UInt8 {
        subject.isEmpty ? 0 : Int(fnv1a64(subject) % UInt64(count))
    }

    public static func index(of subject: String, count: Int) -> Int {
        index(of: Array(subject.utf8), count: count)
    }
}
