/// A GitHub-flavoured Markdown table; `|` inside cells is escaped.
public func markdownTable(_ header: [String], _ rows: [[String]]) -> String {
    func line(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
    }
    return line(header) + line(header.map { _ in "---" }) + rows.map(line).joined()
}
