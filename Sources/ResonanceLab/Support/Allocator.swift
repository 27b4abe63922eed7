#if canImport(Glibc)
import CMalloc
#endif

/// Settings of the C allocator for a batch run. A stage allocates and frees arrays of a
/// few megabytes per subject (resampled recordings, encoded rows); by default glibc
/// serves those from fresh mappings and returns freed memory at once, so every subject
/// pays for zero-filled pages again (a third of a million page faults for hrv and
/// coherence on the 69 PhysioNet records). Kept instead, the memory is reused, for less
/// CPU but a higher peak: freed blocks stay with the process, so its resident size runs
/// above what it holds (hrv on the PhysioNet databases: 5.3 s against 5.5 s with glibc's
/// defaults; on ten person-years the same CPU time at 366 MB against about 330 MB;
/// docs/scaling.md).
public enum Allocator {
    /// Blocks up to this size come from the heap and are kept; larger ones (a long
    /// recording's columns, one to a subject) are mapped and returned when freed.
    static let heapBlockLimit: Int32 = 8 << 20
    /// Free memory kept at the heap's top before it is returned.
    static let keptFree: Int32 = Int32.max
    /// Extra space requested each time the heap grows.
    static let growthPad: Int32 = 64 << 20

    /// Applies the settings; call once, before the work starts. Returns whether the
    /// allocator accepted them (only glibc's does).
    @discardableResult
    public static func tuneForBatchWork() -> Bool {
        #if canImport(Glibc)
        return mallopt(M_MMAP_THRESHOLD, heapBlockLimit) == 1
            && mallopt(M_TRIM_THRESHOLD, keptFree) == 1
            && mallopt(M_TOP_PAD, growthPad) == 1
        #else
        return false
        #endif
    }

    /// Hands the free pages of every arena back to the system (glibc's `malloc_trim`). glibc
    /// gives each worker thread its own arena, and freed memory is kept (`keptFree`), so a
    /// worker that has let a subject go still holds its pages: `personas generate` calls
    /// this after each subject, so that its peak follows what is live at once, not the sum
    /// of every worker's largest subject.
    static func releaseFreePages() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
