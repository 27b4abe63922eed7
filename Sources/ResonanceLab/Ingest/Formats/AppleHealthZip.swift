import Foundation

/// Apple Health `export.zip`, as the Health app shares it: the archive is read in
/// place (`ZipArchive`) and its `apple_health_export/export.xml` entry is inflated
/// with zlib, 64 KiB at a time, into a temporary file beside the workspace's tables
/// (`.export.xml.PID.tmp`, created exclusively with mode 0600; removed when the file
/// is read, or as a leftover by the next run if the process is killed), which
/// `AppleHealthXML` then streams. The entry's size and CRC-32 are checked before a
/// row is read, and a corrupt, truncated or oversized entry is a one-line error.
/// Memory stays bounded by the chunk size whatever the export's size; the archive's
/// other entries (`export_cda.xml`, electrocardiograms, workout routes) are not read.
/// Rows, rejects and lines are those of `export.xml`; the manifest names the entry.
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
        let (temp, fd) = try AtomicFile.createTemporaryDescriptor(
            for: (sink.scratchFolder as NSString).appendingPathComponent(".export.xml"))
        defer { unlink(temp) }
        do {
            defer { close(fd) }
            try archive.extract(entry, to: fd)
        }
        sink.note(input.file, "read \(entry.path) from the archive (\(entry.uncompressedSize) bytes); line numbers are that entry's")
        try AppleHealthXML.read(input, xmlPath: temp, into: sink)
    }
}
