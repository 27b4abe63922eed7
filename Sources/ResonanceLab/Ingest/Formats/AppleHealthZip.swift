import Foundation
import ZIPFoundation

/// Apple Health `export.zip`, as the Health app shares it: the archive is read in
/// place with ZIPFoundation and its `apple_health_export/export.xml` entry is
/// decompressed chunk by chunk into a temporary file beside the workspace's tables
/// (`.export.xml.PID.tmp`, removed when the file is read, or as a leftover by the
/// next run if the process is killed), which `AppleHealthXML` then streams. Memory
/// stays bounded by the chunk size whatever the export's size; the archive's other
/// entries (`export_cda.xml`, electrocardiograms, workout routes) are not read.
/// Rows, rejects and lines are those of `export.xml`; the manifest names the entry.
enum AppleHealthZip: FormatAdapter {
    /// The entry read: `export.xml` at the archive's root or in one folder
    /// (`apple_health_export/export.xml` in every export seen).
    static func exportEntry(_ archive: Archive) -> Entry? {
        let candidates = archive.filter { entry in
            guard entry.type == .file else { return false }
            let parts = entry.path.split(separator: "/")
            return parts.last == "export.xml" && parts.count <= 2
        }
        return candidates.min { $0.path.utf8.count < $1.path.utf8.count }
    }

    /// True when `path` is a zip archive holding an Apple Health `export.xml`.
    static func matches(path: String) -> Bool {
        guard let archive = try? Archive(url: URL(fileURLWithPath: path), accessMode: .read) else { return false }
        return exportEntry(archive) != nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: input.path), accessMode: .read)
        } catch {
            throw CSVError.cannotOpen(path: input.path, reason: "not a readable zip archive (\(error))")
        }
        guard let entry = exportEntry(archive) else {
            throw ImportError.badMetadata(path: input.path, line: 0, column: 0,
                                          message: "no apple_health_export/export.xml in the archive")
        }
        let temp = (sink.scratchFolder as NSString).appendingPathComponent(".export.xml.\(getpid()).tmp")
        defer { unlink(temp) }
        let fd = open(temp, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw OutputError.cannotCreate(path: temp, reason: String(cString: strerror(errno)))
        }
        let out = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 16) { chunk in try out.write(contentsOf: chunk) }
            try out.close()
        } catch {
            try? out.close()
            throw ImportError.badMetadata(path: input.path, line: 0, column: 0,
                                          message: "cannot decompress \(entry.path): \(error)")
        }
        sink.note(input.file, "read \(entry.path) from the archive (\(entry.uncompressedSize) bytes); line numbers are that entry's")
        try AppleHealthXML.read(input, xmlPath: temp, into: sink)
    }
}
