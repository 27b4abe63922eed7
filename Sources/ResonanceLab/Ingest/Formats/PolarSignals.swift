import Foundation

/// Polar Sensor Logger's raw channels (the Android app for the Polar H10, Verity Sense
/// and OH1, built on Polar's BLE SDK): `…_ECG.txt`, `…_PPG.txt` and `…_ACC.txt`
/// (`Polar_H10_55354125_20210516_080846_ECG.txt`), `;`-separated under one header line:
///
///     Phone timestamp;sensor timestamp [ns];timestamp [ms];ecg [uV]
///     Phone timestamp;sensor timestamp [ns];channel 0;channel 1;channel 2;ambient
///     Phone timestamp;sensor timestamp [ns];X [mg];Y [mg];Z [mg]
///
/// (the headers public readers of the app's files match, e.g. tsteven4/ecg-analysis's
/// `analyze_ecg.py` reads `Phone timestamp` and `ecg [uV]` with `sep=";"`).
/// `Phone timestamp` is the phone's local wall-clock time when a packet arrived
/// (`2024-03-01T10:15:30.123`, no zone), shared by every sample of the packet;
/// `sensor timestamp [ns]` is each sample's time on the sensor's own clock, nanoseconds
/// since 2000-01-01 (polarofficial/polar-ble-sdk, `technical_documentation/
/// TimeSystemExplained.md`, and `PolarEcgData`: "moment sample is taken in
/// nanoseconds"); the ECG's `timestamp [ms]` is that clock since the first sample and
/// is not read.
///
/// Sample times come from the sensor clock alone (`SampleRate`, `TimedSampleRows`): the
/// rate is its steps' mean with the gaps left out, and a step of more than `gapPeriods`
/// sample periods is a gap that starts a new segment. The recording's start is the
/// first row's phone timestamp, read in `--tz` like every naive time (its packet's
/// arrival: up to a packet's length, about 0.5 s, after its first sample). Channels:
/// `ecg` (µV); `ppg0`–`ppg2` and `ambient` (raw optical counts, arbitrary units, kept
/// as the sensor gives them: Polar's PPG is inverted, which the beats stage detects);
/// `acc_x`, `acc_y`, `acc_z` (mg).
enum PolarSignal: FormatAdapter {
    static let source = SourceFormat.polarSensorLogger.rawValue
    /// A step of the sensor clock longer than this many sample periods is a gap: packets
    /// lost over Bluetooth (an H10 ECG packet holds 73 samples), not the clock's jitter.
    static let gapPeriods = 3.0

    struct Layout {
        /// The header's names after the two timestamps, normalised (`ColumnName`).
        let columns: [String]
        /// The channel each of those columns becomes; nil: not read.
        let channels: [String?]
        let unit: String
        let what: String
    }

    static let layouts = [
        Layout(columns: ["timestamp_ms", "ecg_uv"], channels: [nil, "ecg"], unit: "µV", what: "ECG"),
        Layout(columns: ["channel_0", "channel_1", "channel_2", "ambient"], channels: ["ppg0", "ppg1", "ppg2", "ambient"],
               unit: "a.u.", what: "PPG"),
        Layout(columns: ["x_mg", "y_mg", "z_mg"], channels: ["acc_x", "acc_y", "acc_z"], unit: "mg", what: "accelerometer"),
    ]

    /// The layout a header names (a trailing empty name aside), nil for any other.
    static func layout(header: [String]) -> Layout? {
        var names = header.map(ColumnName.normalized)
        if names.last == "" { names.removeLast() }
        guard names.count > 2, names[0] == "phone_timestamp", names[1] == "sensor_timestamp_ns" else { return nil }
        return layouts.first { $0.columns == Array(names[2...]) }
    }

    /// A row's sensor time, ns; nil when it is not a whole number.
    static func sensorNs(_ record: CSVRecord) -> Int64? {
        record.count > 1 ? Int64(record.trimmed(1)) : nil
    }

    /// Seconds from the first sensor time `base` to `ns`; nil past Int64's range.
    static func seconds(_ ns: Int64, from base: Int64) -> Double? {
        let (d, overflow) = ns.subtractingReportingOverflow(base)
        return overflow ? nil : Double(d) / 1e9
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        var header: [String] = []
        try input.peek(1) { header = $0.strings }
        guard let layout = layout(header: header) else { throw ImportError.unknownFormat(path: input.path, columns: header) }
        let file = input.file
        var rate = SampleRate(gapPeriods: gapPeriods)
        var firstNs: Int64?, start: Int64?
        let rowsRead = try input.forEachRow(headerLines: 1) { record in
            let ns = sensorNs(record)
            if firstNs == nil { firstNs = ns }
            let t = ns.flatMap { seconds($0, from: firstNs ?? $0) }
            rate.add(t)
            if start == nil, let t, let phone = input.times.parse(record, 0) { start = Timestamp.instant(ms: Double(phone) - t * 1000) }
        }
        guard rowsRead > 0 else { return try sink.endSource(input, rowsRead: 0) }
        func bad(_ column: Int, _ message: String) -> ImportError {
            .badMetadata(path: input.path, line: 2, column: column, message: "Polar Sensor Logger \(layout.what): \(message)")
        }
        guard let first = firstNs, let rateHz = rate.rateHz() else { throw bad(2, "no two rows with increasing sensor timestamps to give the rate") }
        guard WaveformSink.rateRangeHz.contains(rateHz) else { throw bad(2, "the sensor timestamps give a rate outside \(WaveformSink.rateRangeText)") }
        guard let startMs = start else { throw bad(1, "no phone timestamp that is a time (or it lies outside years 0000–9999)") }

        let subject = sink.subject(input.subject, group: input.group)
        let channels = zip(layout.channels.indices, layout.channels).compactMap { k, name in name.map { (field: k + 2, name: $0) } }
        let recording = sink.waveforms.begin(
            subject: sink.subjectName(subject), source: source, startMs: startMs, rateHz: rateHz, file: input.display,
            channels: channels.map { WaveformSink.Channel(name: $0.name, unit: layout.unit) })
        var rows = TimedSampleRows(SampleRows(recording: recording, file: file, fields: channels.map(\.field), width: header.count),
                                   rateHz: rateHz, gapPeriods: gapPeriods)
        _ = try input.forEachRow(headerLines: 1) { record in
            try rows.row(record, time: sensorNs(record).flatMap { seconds($0, from: first) }, timeField: 1, into: sink)
        }
        try rows.finish(into: sink)
        try sink.endRecording(recording, subject: subject)
        sink.note(file, "Polar Sensor Logger \(layout.what): \(channels.map(\.name).joined(separator: ", ")) in \(layout.unit) at "
            + "\(CSVWriter.format(rateHz)) Hz from the sensor clock (the mean of its steps, gaps left out); sample k of a "
            + "segment at start + (first_sample + k) / rate, kept at their printed precision in waveforms.bin")
        sink.note(file, "recording start \(Timestamp.iso(startMs)): the first row's phone timestamp, a local time (when its "
            + "packet reached the phone)")
        if rows.gaps > 0 {
            sink.note(file, "\(plural(rows.gaps, "gap")) in the sensor clock (a step over "
                + "\(CSVWriter.format(gapPeriods)) sample periods): a new segment after each, its times still the sensor's")
        }
        try sink.endSource(input, rowsRead: rowsRead)
    }
}
