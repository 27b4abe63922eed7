import Foundation

/// One command's use of a workspace, from opening to commit (docs/workspace.md):
///
/// 1. `open` locks the tables the command reads (shared) and writes (exclusive), then,
///    under the commit lock, completes or discards what killed runs left (`recover`) and
///    reads `manifest.json`: a folder without a valid one is not a workspace.
/// 2. Reads go through `check`: only tables the manifest lists exist, and each is
///    verified against its SHA-256 once (unless verification is off) before it is read.
/// 3. Outputs are written into a private staging folder `.staging.PID.tmp`.
/// 4. `commit` takes the staged tables' digests (computed while they were written, for
///    a file unchanged since; else by reading it), then under the commit lock reads the
///    current manifest, records them in it, writes it into the staging folder too, and
///    renames the journal `.journal` into the workspace: from that moment the commit counts,
///    and the renames of the tables and finally of `manifest.json` into place are
///    completed by whichever run comes next if this one is killed.
public final class WorkspaceSession: @unchecked Sendable {
    public let path: String
    /// The manifest as it stood when the session opened; nil when creating a workspace.
    public let manifest: Manifest?
    /// A command creating the workspace (import, persona generation) sets the
    /// provenance of the manifest it commits here; its table list is filled in by `commit`.
    public var replacement: Manifest?
    /// How the tables this session commits were made, by table name; `lineage` for every
    /// staged table without its own entry. Table inputs are given by name: the commit
    /// records the digest each has in the manifest it writes (for an input the session
    /// read, the one verified when it opened; for one committed with it, the new one).
    public var lineage: TableLineage?
    public var tableLineage: [String: TableLineage] = [:]
    private var settings: [String: String] = [:]
    /// Overlaps a stage resolved, recorded in the manifest it commits under the stage's name.
    public var overlaps: (stage: String, counts: SourceOverlaps)?
    private let verify: Bool
    private let lock: WorkspaceLock
    private let note: (String) -> Void
    private let mutex = NSLock()
    private var verified: Set<String> = []
    private var stagingDir: String?
    /// Row counts of the staged tables whose digest was taken while writing (`wrote`).
    private var writtenRows: [String: Int] = [:]
    static let journalName = ".journal"

    /// Opens `path` for a command reading `reads` and writing `writes` (file names).
    /// `creating`: the folder is made if missing and needs no manifest yet.
    /// `note` receives one line per lock waited for and per leftover removed.
    public init(path: String, reads: [String], writes: [String], creating: Bool = false,
                verify: Bool = true, note: @escaping (String) -> Void) throws {
        self.path = path; self.verify = verify; self.note = note
        let manifestPath = (path as NSString).appendingPathComponent(Manifest.fileName)
        if creating {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw OutputError.cannotCreate(path: path, reason: error.localizedDescription)
            }
        } else {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
                throw TableError(path: path, line: 0, column: 0, message: "no such workspace folder")
            }
            // Checked before anything is created in the folder.
            if !FileManager.default.fileExists(atPath: manifestPath) { _ = try Manifest.read(path: manifestPath) }
        }
        let lock = try WorkspaceLock(directory: path)
        let written = Set(writes)
        let tables = Set(reads).union(written).subtracting([Manifest.fileName])
            .map { (name: $0, byte: WorkspaceLock.byte(forTable: $0)) }
            .sorted { ($0.byte, $0.name) < ($1.byte, $1.name) }
        // Always taken in byte order, so two runs never wait for each other in a cycle.
        var taken: [Int64: Bool] = [:]
        for (name, byte) in tables {
            let exclusive = written.contains(name) || taken[byte] == true
            if taken[byte] == exclusive { continue }
            if try !lock.lock(byte, exclusive: exclusive, wait: false) {
                note("\(path): waiting for another run \(exclusive ? "using" : "writing") \(name)")
                try lock.lock(byte, exclusive: exclusive, wait: true)
            }
            taken[byte] = exclusive
        }
        try lock.lock(WorkspaceLock.commitByte, exclusive: true, wait: true)
        defer { lock.unlock(WorkspaceLock.commitByte) }
        try WorkspaceSession.recover(path, note: note)
        self.lock = lock
        manifest = creating && !FileManager.default.fileExists(atPath: manifestPath) ? nil
            : try Manifest.read(path: manifestPath)
        if creating { return }
        for name in Set(reads).subtracting([Manifest.fileName]).sorted()
        where manifest?.table(name) == nil && FileManager.default.fileExists(atPath: file(name)) {
            note("\(file(name)): not listed in manifest.json, ignored (re-run the stage that writes it)")
        }
    }

    deinit {
        if let stagingDir { try? FileManager.default.removeItem(atPath: stagingDir) }
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    // MARK: - Reading

    /// Whether table `name` is part of the workspace: listed in its manifest (when the
    /// session creates the workspace, present on disk).
    func lists(_ name: String) -> Bool {
        guard let manifest else { return FileManager.default.fileExists(atPath: file(name)) }
        return name == Manifest.fileName || manifest.table(name) != nil
    }

    /// Verifies table `name` before it is read: it must be on disk and, unless
    /// verification is off, its bytes must have the SHA-256 the manifest records.
    func check(_ name: String) throws {
        try check(name, digest: nil)
    }

    /// Whether `check(name)` would hash the file: it is listed, not yet verified, and
    /// verification is on. A reader may then hash it while it parses it, and pass the
    /// digest to `check(_:digest:)` before it uses what it read.
    func needsDigest(_ name: String) -> Bool {
        guard verify, manifest?.table(name) != nil else { return false }
        mutex.lock()
        defer { mutex.unlock() }
        return !verified.contains(name)
    }

    /// The SHA-256 (hex) of a file: from the digest cache while the file is unchanged.
    static func digest(ofFile path: String) throws -> String {
        try DigestCache.shared.digest(of: path) ?? SHA256.hex(ofFile: path)
    }

    /// `check(name)` with the file's SHA-256 (hex) already computed, when `digest` is set.
    func check(_ name: String, digest: String?) throws {
        guard let entry = manifest?.table(name) else { return }
        mutex.lock()
        let done = verified.contains(name)
        mutex.unlock()
        if done { return }
        let path = file(name)
        guard FileManager.default.fileExists(atPath: path) else {
            throw TableError(path: path, line: 0, column: 0, message: "listed in manifest.json but missing")
        }
        if verify {
            let actual = try digest ?? WorkspaceSession.digest(ofFile: path)
            guard actual == entry.sha256 else {
                throw TableError(path: path, line: 0, column: 0, message:
                    "does not match manifest.json (SHA-256 \(actual.prefix(12))…, recorded \(entry.sha256.prefix(12))…): "
                    + "changed or cut after it was written; re-run the command that writes it")
            }
            DigestCache.shared.record(path, sha256: actual)
        }
        mutex.lock()
        verified.insert(name)
        mutex.unlock()
    }

    // MARK: - Writing

    /// Records a setting that decides the tables of this commit (e.g. the artifact method
    /// taken over from `hrv.csv`), added to every committed table's lineage.
    public func record(setting name: String, _ value: String) {
        mutex.lock()
        defer { mutex.unlock() }
        settings[name] = value
    }

    /// Where output `name` is written until the commit: inside the staging folder.
    func stagedPath(_ name: String) throws -> String {
        mutex.lock()
        defer { mutex.unlock() }
        if stagingDir == nil {
            for attempt in 0..<100 {
                let candidate = file(".staging.\(getpid())" + (attempt == 0 ? "" : "-\(attempt)") + ".tmp")
                if mkdir(candidate, 0o700) == 0 {
                    stagingDir = candidate
                    break
                }
                if errno != EEXIST {
                    throw OutputError.cannotCreate(path: candidate, reason: String(cString: strerror(errno)))
                }
            }
        }
        guard let stagingDir else {
            throw OutputError.cannotCreate(path: path, reason: "every staging folder name is taken")
        }
        return (stagingDir as NSString).appendingPathComponent(name)
    }

    /// Records the row count and SHA-256 of the file just written at `path`, computed
    /// while it was written, when it is a staged table: the commit uses them while the
    /// file is unchanged (same inode, size and modification time), and digests it again
    /// otherwise. A path outside the staging folder is not a table of this commit.
    func wrote(file path: String, rows: Int, sha256: String) {
        mutex.lock()
        defer { mutex.unlock() }
        let name = (path as NSString).lastPathComponent
        guard let stagingDir, (path as NSString).deletingLastPathComponent == stagingDir else { return }
        DigestCache.shared.record(path, sha256: sha256)
        writtenRows[name] = rows
    }

    /// Commits the staged tables (and the replacement manifest, if set): nothing when
    /// the command wrote no table and creates nothing, or has committed already.
    public func commit() throws {
        mutex.lock()
        let staging = stagingDir
        mutex.unlock()
        var names: [String] = []
        if let staging {
            names = try FileManager.default.contentsOfDirectory(atPath: staging)
                .filter { TableDigest.isPlainName($0) && TemporaryFiles.ownerPID($0) == nil && $0 != Manifest.fileName }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        if names.isEmpty && replacement == nil && overlaps == nil { return }
        let dir = try staging ?? (stagedPath(Manifest.fileName) as NSString).deletingLastPathComponent
        mutex.lock()
        let counted = writtenRows
        writtenRows = [:]
        mutex.unlock()
        let digests = try names.map { name -> TableDigest in
            let staged = (dir as NSString).appendingPathComponent(name)
            if let rows = counted[name], let sha256 = DigestCache.shared.digest(of: staged) {
                return TableDigest(name: name, rows: rows, sha256: sha256)
            }
            return try TableDigest.of(file: staged, name: name)
        }
        try lock.lock(WorkspaceLock.commitByte, exclusive: true, wait: true)
        defer { lock.unlock(WorkspaceLock.commitByte) }
        try WorkspaceSession.recover(path, note: note)
        var updated = try replacement ?? Manifest.read(path: file(Manifest.fileName))
        updated.record(digests)
        mutex.lock()
        let settings = self.settings
        mutex.unlock()
        for name in names {
            guard var made = tableLineage[name] ?? lineage, let index = updated.tables.firstIndex(where: { $0.name == name })
            else { continue }
            made.settings.merge(settings) { _, recorded in recorded }
            made.inputs = made.inputs.compactMap { input in
                guard let table = input.table else { return input }
                return updated.table(table).map { LineageInput.table(table, sha256: $0.sha256) }
            }
            updated.tables[index].lineage = made
        }
        if let overlaps { updated.overlaps = (updated.overlaps ?? [:]).merging([overlaps.stage: overlaps.counts]) { $1 } }
        try WorkspaceSession.writeNew((dir as NSString).appendingPathComponent(Manifest.fileName), try updated.encoded())
        let journal = ((dir as NSString).lastPathComponent + "\n" + (names + [Manifest.fileName]).joined(separator: "\n") + "\n")
        let staged = (dir as NSString).appendingPathComponent(WorkspaceSession.journalName)
        try WorkspaceSession.writeNew(staged, Array(journal.utf8))
        guard rename(staged, file(WorkspaceSession.journalName)) == 0 else {
            throw OutputError.cannotWrite(path: file(WorkspaceSession.journalName), reason: String(cString: strerror(errno)))
        }
        try WorkspaceSession.rollForward(path)
        replacement = nil
        overlaps = nil
        for d in digests { DigestCache.shared.record(file(d.name), sha256: d.sha256) }
        mutex.lock()
        stagingDir = nil
        mutex.unlock()
    }

    /// Writes a new file with exclusive create.
    private static func writeNew(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw OutputError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
    }

    // MARK: - Recovery

    /// Completes a commit whose journal is in place (a run killed while renaming), then
    /// removes the staging folders and temporary files of runs that no longer exist.
    /// Runs under the commit lock.
    static func recover(_ path: String, note: (String) -> Void) throws {
        let journal = (path as NSString).appendingPathComponent(journalName)
        if FileManager.default.fileExists(atPath: journal) {
            try rollForward(path)
            note("\(path): completed the commit of an interrupted run")
        }
        for name in TemporaryFiles.removeLeftovers(in: path) {
            note("removed \((path as NSString).appendingPathComponent(name)): left by an interrupted run")
        }
    }

    /// Renames every file the journal lists from its staging folder into the workspace
    /// (those already renamed are gone from there), then removes the journal and the folder.
    static func rollForward(_ path: String) throws {
        let journal = (path as NSString).appendingPathComponent(journalName)
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        guard let stagingName = lines.first, stagingName.hasPrefix(".staging."), !stagingName.contains("/"),
              lines.dropFirst().allSatisfy(TableDigest.isPlainName) else {
            throw TableError(path: journal, line: 0, column: 0, message: "not a commit journal; remove it to continue")
        }
        let staging = (path as NSString).appendingPathComponent(stagingName)
        for name in lines.dropFirst() {
            let from = (staging as NSString).appendingPathComponent(name)
            let to = (path as NSString).appendingPathComponent(name)
            if rename(from, to) != 0, errno != ENOENT {
                throw OutputError.cannotWrite(path: to, reason: String(cString: strerror(errno)))
            }
        }
        guard unlink(journal) == 0 else {
            throw OutputError.cannotWrite(path: journal, reason: String(cString: strerror(errno)))
        }
        try? FileManager.default.removeItem(atPath: staging)
    }
}

/// Tables this process has digested (committed or verified), by path, with the identity
/// of the file at that moment (device, inode, size, modification time): a file whose
/// identity is unchanged is not digested again, so that `resonance run`, whose stages
/// read what the earlier ones committed, hashes each table once.
final class DigestCache: @unchecked Sendable {
    static let shared = DigestCache()
    private struct Identity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }
    private var entries: [String: (identity: Identity, sha256: String)] = [:]
    private let lock = NSLock()

    private static func identity(_ path: String) -> Identity? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                        seconds: Int(st.st_mtim.tv_sec), nanoseconds: Int(st.st_mtim.tv_nsec))
    }

    /// The digest recorded for `path`, if the file is still the one it was recorded for.
    func digest(of path: String) -> String? {
        guard let now = DigestCache.identity(path) else { return nil }
        lock.lock(); defer { lock.unlock() }
        guard let entry = entries[path], entry.identity == now else { return nil }
        return entry.sha256
    }

    func record(_ path: String, sha256: String) {
        guard let now = DigestCache.identity(path) else { return }
        lock.lock(); defer { lock.unlock() }
        entries[path] = (now, sha256)
    }
}
