/// Counts in the text people read — the reports, the progress and summary lines on
/// stderr — in one place: a count of exactly 1 takes the singular, every other count
/// (0 too) the plural. The plural is the singular with an `s` unless given.
///
///     plural(1, "subject")                   // "1 subject"
///     plural(3, "subject")                   // "3 subjects"
///     plural(2, "analysis", "analyses")      // "2 analyses"
///     plural(1, "file", counted: false)      // "file", the noun alone
public func plural(_ count: Int, _ singular: String, _ plural: String? = nil, counted: Bool = true) -> String {
    let noun = count == 1 ? singular : plural ?? singular + "s"
    return counted ? "\(count) \(noun)" : noun
}
