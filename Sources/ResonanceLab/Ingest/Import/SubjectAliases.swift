/// The ids under which other exports name a subject (docs/tables.md, subjects.csv): the
/// `aliases` of the `subjects.csv` files among an import's sources, read before any
/// other file so that every row of an alias — whatever file comes first — is imported
/// under its subject. One person's Apple Health export in `alice/` and Spotify history
/// in `alice_spotify/` become subject `alice` with `alice,…,alice_spotify` in
/// `subjects.csv`; `manifest.json` lists the merged ids under the subject
/// (`mergedAliases`).
struct SubjectAliases {
    /// Alias → subject.
    private(set) var subjectOf: [String: String] = [:]

    /// The aliases of every canonical `subjects.csv` among `planned`. An alias claimed by
    /// two subjects, or naming a subject of its own row, is an error naming file, line
    /// and column.
    static func scan(_ planned: [PlannedFile]) throws -> SubjectAliases {
        var out = SubjectAliases()
        var claimed: [String: (subject: String, path: String, line: Int)] = [:]
        var subjects: [String: (path: String, line: Int)] = [:]
        var pending: [(alias: String, subject: String, path: String, line: Int, column: Int)] = []
        for plan in planned where plan.format == .canonical {
            var columns: [String: Int]?
            // Other tables stop at their header; a file that cannot be read fails later, in its turn.
            try? CSVReader(path: plan.path, delimiter: plan.delimiter).forEachRecord { record in
                guard let known = columns else {
                    let header = record.strings.map { $0.trimmingCharacters(in: .whitespaces) }
                    guard header == SubjectRow.header else { throw Done() }
                    columns = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
                    return
                }
                guard let s = known["subject"], let a = known["aliases"], a < record.count, s < record.count else { return }
                let subject = record.trimmed(s)
                if subjects[subject] == nil { subjects[subject] = (plan.display, record.line) }
                for alias in SubjectRow.aliases(record.string(a)) where alias != subject {
                    pending.append((alias, subject, plan.display, record.line, a + 1))
                }
            }
        }
        for p in pending {
            if let first = claimed[p.alias], first.subject != p.subject {
                throw ImportError.badMetadata(path: p.path, line: p.line, column: p.column,
                                              message: "alias '\(p.alias)' of subject '\(p.subject)' is already an alias of subject '\(first.subject)' (\(first.path) line \(first.line))")
            }
            if let own = subjects[p.alias] {
                throw ImportError.badMetadata(path: p.path, line: p.line, column: p.column,
                                              message: "alias '\(p.alias)' of subject '\(p.subject)' is itself a subject (\(own.path) line \(own.line))")
            }
            claimed[p.alias] = (p.subject, p.path, p.line)
            out.subjectOf[p.alias] = p.subject
        }
        return out
    }

    /// Stops reading a file that is not a `subjects.csv` with aliases.
    private struct Done: Error {}
}
