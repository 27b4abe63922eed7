/// The order of subjects in every table: byte order of their UTF-8 ids
/// (docs/tables.md, Order), which is also how import sorts its tables' lines.
public enum SubjectOrder {
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    public static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.lexicographicallyPrecedes(b)
    }
}
