import Foundation

/// Advisory locks on one byte each of the workspace's `.lock` file (docs/workspace.md,
/// "Concurrent runs"): byte 0 guards a commit (recovery, manifest update, renames); byte
/// 1 + hash of a table's name guards the table, held shared by the runs reading it and
/// exclusive by the one writing it.
///
/// The locks are Linux open-file-description locks (`fcntl(2)`, `F_OFD_SETLK`): held by
/// this open file, released when it is closed or the process dies, and never dropped
/// because some other descriptor of the same file is closed, as POSIX record locks are.
final class WorkspaceLock {
    static let fileName = ".lock"
    /// `F_OFD_SETLK` and `F_OFD_SETLKW` of <bits/fcntl-linux.h> (Linux 3.15 and later),
    /// which the Glibc module does not export.
    private static let setLock: Int32 = 37, setLockWait: Int32 = 38
    static let commitByte: Int64 = 0

    private let fd: Int32
    let path: String

    /// Opens (creating if needed, never through a symlink) `dir/.lock`.
    init(directory dir: String) throws {
        path = (dir as NSString).appendingPathComponent(WorkspaceLock.fileName)
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if fd < 0 { throw OutputError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(fd) }

    /// The byte guarding table `name`: 1 + its 31-bit FNV-1a hash. Two names sharing a
    /// byte only make one wait for the other.
    static func byte(forTable name: String) -> Int64 {
        var h: UInt32 = 2_166_136_261
        for b in name.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return 1 + Int64(h & 0x7fff_ffff)
    }

    /// Locks `byte`, shared or exclusive. Without `wait`, returns false when another run
    /// holds a conflicting lock; with it, blocks until the lock is free.
    @discardableResult
    func lock(_ byte: Int64, exclusive: Bool, wait: Bool) throws -> Bool {
        try set(byte, type: exclusive ? F_WRLCK : F_RDLCK, wait: wait)
    }

    func unlock(_ byte: Int64) {
        _ = try? set(byte, type: F_UNLCK, wait: false)
    }

    private func set(_ byte: Int64, type: Int32, wait: Bool) throws -> Bool {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        request.l_pid = 0
        while true {
            if fcntl(fd, wait ? WorkspaceLock.setLockWait : WorkspaceLock.setLock, &request) == 0 { return true }
            if errno == EINTR { continue }
            if !wait, errno == EAGAIN || errno == EACCES { return false }
            throw OutputError.cannotWrite(path: path, reason: "cannot lock: \(String(cString: strerror(errno)))")
        }
    }
}
