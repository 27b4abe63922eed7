import Foundation

/// Temporary files that `AtomicFile` leaves behind only when its process is killed
/// before it commits: `NAME.PID.tmp`, `NAME.PID-K.tmp` and the import's hidden sorted
/// runs `.NAME.runI.PID.tmp`; and the staging folders `.staging.PID.tmp` of
/// `WorkspaceSession`.
public enum TemporaryFiles {
    /// The process id a temporary file name carries, or nil when it is not one.
    static func ownerPID(_ name: String) -> pid_t? {
        guard name.hasSuffix(".tmp") else { return nil }
        let stem = name.dropLast(4)
        guard let dot = stem.lastIndex(of: ".") else { return nil }
        let tag = stem[stem.index(after: dot)...]
        return pid_t(tag.prefix { $0 != "-" })
    }

    /// Removes the temporary files and folders in `dir` whose process no longer runs, and returns
    /// their names (sorted). Files of a live process, such as a concurrent run
    /// writing into the same folder, are left alone.
    public static func removeLeftovers(in dir: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        var removed: [String] = []
        for name in names.sorted() {
            guard let pid = ownerPID(name), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = (dir as NSString).appendingPathComponent(name)
            if unlink(path) == 0 || (errno == EISDIR && (try? FileManager.default.removeItem(atPath: path)) != nil) {
                removed.append(name)
            }
        }
        return removed
    }
}
