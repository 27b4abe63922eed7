import Foundation

/// The raw channels of an Empatica E4 session folder: `BVP.csv` (the pulse wave of the
/// photoplethysmograph, 64 Hz, arbitrary units), `ACC.csv` (3-axis accelerometer, 32 Hz,
/// x, y, z in 1/64 g), `EDA.csv` (skin conductance, 4 Hz, µS) and `TEMP.csv` (skin
/// temperature, 4 Hz, °C). The layout of `HR.csv`: line 1 the start (unix seconds, one
/// field per channel), line 2 the rate (Hz), then one sample per channel per line
/// (E4 Connect's info.txt). Each channel goes to `waveforms.bin` at its printed precision.
enum E4Signal: FormatAdapter {
    /// The channels of each file, by lower-case file name, and their unit.
    static let files: [String: (channels: [String], unit: String, what: String)] = [
        "bvp.csv": (["bvp"], "a.u.", "blood volume pulse (PPG)"),
        "acc.csv": (["acc_x", "acc_y", "acc_z"], "1/64 g", "3-axis accelerometer"),
        "eda.csv": (["eda"], "µS", "electrodermal activity"),
        "temp.csv": (["temp"], "°C", "skin temperature"),
    ]

    static func layout(path: String) -> (channels: [String], unit: String, what: String)? {
        files[(path as NSString).lastPathComponent.lowercased()]
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        guard let layout = layout(path: input.path) else { throw ImportError.unknownFormat(path: input.path, columns: []) }
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var startMs: Int64 = 0
        var rows: SampleRows?
        var recording: WaveformSink.Recording?
        let read = try input.forEachRow(headerLines: 2, header: { record, i in
            guard record.count >= layout.channels.count else {
                throw ImportError.badMetadata(path: input.path, line: record.line, column: record.count + 1,
                                              message: "E4 \(layout.what) header needs \(layout.channels.count) fields, has \(record.count)")
            }
            if i == 0 { return startMs = try E4.startTime(record, input) }
            let rateHz = try E4.metadata(record, input, "sample rate")
            guard WaveformSink.rateRangeHz.contains(rateHz) else {
                throw ImportError.badMetadata(path: input.path, line: record.line, column: 1,
                                              message: "E4 sample rate \(record.string(0)) is outside \(WaveformSink.rateRangeText)")
            }
            let started = sink.waveforms.begin(
                subject: sink.subjectName(subject), source: E4.source, startMs: startMs, rateHz: rateHz, file: input.display,
                channels: layout.channels.map { WaveformSink.Channel(name: $0, unit: layout.unit) })
            recording = started
            // A row wider than the header is rejected as a gap, so later samples keep their times.
            rows = SampleRows(recording: started, file: file, fields: Array(layout.channels.indices), width: record.count)
        }) { record in
            guard rows != nil else {
                throw ImportError.badMetadata(path: input.path, line: record.line, column: 1, message: "E4 file without its two header lines")
            }
            try rows?.row(record, into: sink)
        }
        try rows?.flushRejected(into: sink)
        if let recording {
            try sink.endRecording(recording, subject: subject)
            sink.note(file, "\(layout.what): sample k of \(recording.frames) at start + k / \(CSVWriter.format(recording.rateHz)) Hz, "
                + "\(layout.channels.joined(separator: ", ")) in \(layout.unit), kept at their printed precision in waveforms.bin")
        }
        try sink.endSource(input, rowsRead: read)
    }
}
