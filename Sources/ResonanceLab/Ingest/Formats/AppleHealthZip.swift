import Foundation

/// Apple Health `export.zip`, as the Health app shares it: the archive is read in
/// place (`ZipArchive`) and its `apple_health_export/export.xml` entry is inflated
/// with zlib, 64 KiB at a time, into a temporary file beside the workspace's tables
/// (`.export.xml.PID.tmp`, created exclusively with mode 0600; removed when the file
/// is read, or as a leftover by the next run if the process is killed), which
/// `AppleHealthXML` then streams; then each ECG recording (`ecg_*.csv` in one of its
/// folders: `electrocardiograms/`, a name some devices localise) the same way, read by
/// `AppleHealthECG`. Each entry's size and CRC-32 are checked before a row is read, and
/// a corrupt, truncated or oversized `export.xml` is a one-line error; an ECG entry
/// that cannot be read is a warning naming it, and the rest is read. Memory stays
/// bounded by the chunk size whatever the export's size; the archive's other entries
/// (`export_cda.xml`, workout routes) are not read. The archive is one source: its
/// rows are `export.xml`'s and the ECG samples; the manifest's notes name each entry,
/// and a reject's line is that of its entry (the ECG recordings' note says which
/// lines hold samples).
enum AppleHealthZip: FormatAdapter {
    /// The entry read: `export.xml` at the archive's root or in one folder
    /// (`apple_health_export/export.xml` in every export seen).
    static func exportEntry(_ archive: ZipArchive) -> ZipArchive.Entry? {
        let candidates = archive.entries.filter { entry in
            guard !entry.isDirectory else { return false }
            let parts = entry.path.split(separator: "/")
            return parts.last == "export.xml" && parts.count <= 2
        }
        return candidates.min { $0.path.utf8.count < $1.path.utf8.count }
    }

    /// The ECG recordings, in byte order of their paths: files named `ecg_*.csv` one or
    /// two folders deep (`apple_health_export/electrocardiograms/ecg_2024-03-01.csv`).
    static func ecgEntries(_ archive: ZipArchive) -> [ZipArchive.Entry] {
        archive.entries.filter { entry in
            let parts = entry.path.split(separator: "/")
            return !entry.isDirectory && (2...3).contains(parts.count) && AppleHealthECG.hasItsName(entry.path)
        }.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }

    /// True when `path` is a zip archive holding an Apple Health `export.xml`.
    static func matches(path: String) -> Bool {
        guard let archive = try? ZipArchive(path: path) else { return false }
        return exportEntry(archive) != nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let archive = try ZipArchive(path: input.path)
        guard let entry = exportEntry(archive) else {
            throw ImportError.badMetadata(path: input.path, line: 0, column: 0,
                                          message: "no apple_health_export/export.xml in the archive")
        }
        sink.note(input.file, "read \(entry.path) from the archive (\(entry.uncompressedSize) bytes); line numbers are that entry's")
        var rows = try extracted(entry, of: archive, into: sink) { try AppleHealthXML.readRows(input, xmlPath: $0, into: sink) }
        let ecgs = ecgEntries(archive)
        var recordings = 0
        for ecg in ecgs {
            func counted() -> Int { sink.sources[Int(input.file)].accepted + sink.sources[Int(input.file)].rejected }
            let before = counted()
            do {
                _ = try extracted(ecg, of: archive, into: sink) { temp in
                    try AppleHealthECG.readRecording(input, textPath: temp, name: ecg.path,
                                                     display: input.display + "/" + ecg.path, into: sink)
                }
                recordings += 1
            } catch where !Importer.stopsImport(error) {
                sink.warn(input.file, "ECG recording not read: \(error)")
            }
            rows += counted() - before
        }
        if !ecgs.isEmpty {
            sink.note(input.file, "read \(recordings) of \(ecgs.count) ECG recordings (ecg_*.csv) in the archive; the lines of "
                + "their samples are their entry's")
        }
        try sink.endSource(input, rowsRead: rows)
    }

    /// Inflates `entry` into a temporary file beside the workspace's tables and hands its
    /// path to `body`; the file is removed after.
    static func extracted<T>(_ entry: ZipArchive.Entry, of archive: ZipArchive, into sink: ImportSink,
                             _ body: (String) throws -> T) throws -> T {
        let name = "." + ((entry.path as NSString).lastPathComponent)
        let (temp, fd) = try AtomicFile.createTemporaryDescriptor(for: (sink.scratchFolder as NSString).appendingPathComponent(name))
        defer { unlink(temp) }
        do {
            defer { close(fd) }
            try archive.extract(entry, to: fd)
        }
        return try body(temp)
    }
}
