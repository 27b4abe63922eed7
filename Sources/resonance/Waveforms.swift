import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance waveforms WS`: a workspace's raw signals written back out as CSV.
struct Waveforms: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waveforms",
        abstract: "Write a workspace's raw signals (pulse wave, ECG, motion, skin conductance, temperature) as CSV.",
        discussion: """
            Without --list: one row per sample, `subject,channel,time_unix_s,value`, for every \
            segment of waveforms.csv in its order (or those of --subject and --channel). \
            time_unix_s is the sample's time in seconds since 1970-01-01 UTC (6 decimals); \
            value is in the channel's unit (waveforms.csv's unit column): as the source printed \
            it, or (stored − baseline) / gain for ADC-unit sources such as WFDB records. \
            With --list: the segments (waveforms.csv) as they are.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder.", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Only this subject's segments (default: every subject).", valueName: "id"))
    var subject: String?

    @Option(help: ArgumentHelp("Only this channel, e.g. bvp, acc_x, mlii (default: every channel).", valueName: "name"))
    var channel: String?

    @Option(help: ArgumentHelp("Write the CSV to this file, atomically (default: standard output).", valueName: "path"))
    var out: String?

    @Flag(help: "List the segments (subject, channel, rate, samples, quality counts) instead of the samples.")
    var list = false

    func validate() throws {
        try global.reject(constants: true, jobs: true, command: "waveforms")
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        let ws = try global.open(workspace, reads: [WaveformSegment.fileName, WaveformSegment.samplesFileName])
        let store = try WaveformStore(ws)
        let chosen = store.segments.filter { (subject == nil || $0.subject == subject) && (channel == nil || $0.channel == channel) }
        if chosen.isEmpty { throw ValidationError("\(workspace): " + nothingChosen(store.segments)) }
        let writer = try out.map { try AtomicFile(path: $0) }
        var text: [UInt8] = []
        func emit() throws {
            if let writer { try writer.write(text) } else { FileHandle.standardOutput.write(Data(text)) }
            text.removeAll(keepingCapacity: true)
        }
        if list {
            let csv = CSVWriter()
            for name in WaveformSegment.header { csv.field(name) }
            try csv.endRow()
            for segment in chosen { segment.write(to: csv); try csv.endRow() }
            text = csv.bytes
        } else {
            text = Array("subject,channel,time_unix_s,value\n".utf8)
            for segment in chosen {
                var prefix: [UInt8] = []
                LineEncoder.appendField(segment.subject, to: &prefix)
                prefix.append(44)
                LineEncoder.appendField(segment.channel, to: &prefix)
                prefix.append(44)
                let physical = segment.gain != 1 || segment.baseline != 0
                var j = 0
                try store.forEachSample(of: segment) { sample in
                    let seconds = Double(segment.startMs) / 1000 + segment.secondsFromStart(j)
                    text += prefix
                    text += Array(String(format: "%.6f", seconds).utf8)
                    text.append(44)
                    if physical {
                        LineEncoder.appendNumber(segment.physical(sample), to: &text)
                    } else {
                        text += Array(sample.text.utf8)
                    }
                    text.append(10)
                    j += 1
                    if text.count >= 1 << 20 { try emit() }
                }
            }
        }
        try emit()
        try writer?.commit()
    }

    /// Why no segment was chosen, naming the channels there are.
    private func nothingChosen(_ segments: [WaveformSegment]) -> String {
        guard !segments.isEmpty else { return "the workspace holds no waveforms (waveforms.csv)" }
        var filters: [String] = []
        if let subject { filters.append("subject \(subject)") }
        if let channel { filters.append("channel \(channel)") }
        let channels = Set(segments.map(\.channel)).sorted().joined(separator: ", ")
        return "no segment of \(filters.joined(separator: " and ")) (channels: \(channels))"
    }
}
