/// Stress-Predict `labels.csv` (Iqbal et al. 2022, Sensors 22(21):8135):
/// `Participant,HR,respr,Time(sec),Label`, one row per second, Label 1 = stress
/// task, 0 = baseline/relaxation. Consecutive seconds with the same label become
/// one interval [first second, last second + 1 s) labelled `stress` or `baseline`;
/// participant 2 is subject `S02`, matching the dataset's folder names.
enum StressPredictLabels: FormatAdapter {
    static let labels = ["0": "baseline", "1": "stress"]

    /// The stress tasks in protocol order: Stroop colour-word test, interview and
    /// hyperventilation, each followed by a rest (Iqbal et al. 2022, §2.2).
    public static let tasks = ["stroop", "interview", "hyperventilation"]

    struct Open {
        var subject: Int
        var label: String
        var startMs: Int64
        var lastMs: Int64
    }

    static func subject(participant: Int) -> String {
        participant < 10 ? "S0\(participant)" : "S\(participant)"
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        var col = (participant: 0, time: 0, label: 0)
        var open: Open?
        var subjectCache: [Int: Int] = [:]
        func close() throws {
            guard let o = open else { return }
            try sink.label(subject: o.subject, startMs: o.startMs, endMs: o.lastMs + 1000, label: o.label, file: file)
            open = nil
        }
        let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            let map = ColumnName.index(record)
            guard let p = map["participant"], let t = map["time_sec"], let l = map["label"] else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            col = (p, t, l)
        }, rejectingWiderRowsInto: sink) { record in
            guard let p = record.double(col.participant), p >= 0, p < 1e6, p == p.rounded() else {
                return try sink.reject(file, record, column: col.participant + 1, reason: "unparsable participant")
            }
            guard let ms = input.times.parse(record, col.time, unix: .seconds) else {
                return try sink.reject(file, record, column: col.time + 1, reason: "unparsable time")
            }
            if try sink.rejectedAfterExport(file, record, column: col.time + 1, ms) { return }
            guard col.label < record.count, let label = labels[record.trimmed(col.label)] else {
                return try sink.reject(file, record, column: col.label + 1, reason: "unknown label")
            }
            let participant = Int(p)
            let subject = subjectCache[participant] ?? sink.subject(self.subject(participant: participant))
            subjectCache[participant] = subject
            if let o = open, o.subject == subject, o.label == label, ms >= o.lastMs, ms <= o.lastMs + 1000 {
                open?.lastMs = ms
            } else {
                try close()
                open = Open(subject: subject, label: label, startMs: ms, lastMs: ms)
            }
            sink.accept(file)
        }
        try close()
        sink.note(file, "consecutive seconds with the same label merged into intervals [first, last + 1 s)")
        try sink.endSource(input, rowsRead: rows)
    }
}
