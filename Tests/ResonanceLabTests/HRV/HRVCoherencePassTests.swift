import Foundation
import XCTest
@testable import ResonanceLab

final class HRVCoherencePassTests: XCTestCase {
    /// 1,000 beats appended in pieces of uneven length, 7 held in memory: read back in
    /// order, the file's first, at most 7 at a time.
    func testKeptBeatsComeBackInOrderFromDiskThenMemory() throws {
        let kept = KeptBeats(held: 7)
        let timeMs = (0..<1_000).map { 1_000 * Double($0) + 0.5 }, nnMs = (0..<1_000).map { 700 + Double($0 % 13) }
        var start = 0
        for length in [1, 30, 0, 500, 469] {
            let r = start..<(start + length)
            try kept.append(NNSeries(timeMs: Array(timeMs[r]), nnMs: Array(nnMs[r]), artifact: r.map { _ in .none },
                                     runStart: r.map { $0 == 0 }))
            start += length
        }
        XCTAssertEqual(kept.count, 1_000)
        var reader = KeptBeats.Reader(kept)
        var times: [Double] = [], intervals: [Double] = [], sizes: [Int] = []
        while let chunk = try reader.next() {
            times += chunk.timeMs
            intervals += chunk.nnMs
            sizes.append(chunk.timeMs.count)
        }
        XCTAssertEqual(times, timeMs)
        XCTAssertEqual(intervals, nnMs)
        XCTAssertEqual(sizes, Array(repeating: 7, count: 142) + [6])  // 994 on disk, 6 held
        XCTAssertNil(try reader.next())
        var none = KeptBeats.Reader(KeptBeats())
        XCTAssertNil(try none.next())
    }

    /// `Pipeline.run` with hrv then coherence reads each subject's R-R once for both and
    /// writes the bytes of the two stages run one after the other: a subject whose R-R is
    /// in time order, one whose rows go back in time (each stage then reads them whole),
    /// and one with heart rate only (coherence reads `hr.csv`).
    func testOnePassWritesTheBytesOfTheStagesOneAfterTheOther() throws {
        let together = Workspace(path: try makeTempDir() + "/together")
        try PersonaGenerator(personas: Array(PersonaProfile.all.prefix(3)), days: 1, seed: 9).generate(into: together, jobs: 2)
        let subjects = try together.read(SubjectRow.self).map(\.subject)
        var rr = try together.read(RRInterval.self).filter { $0.subject != subjects[2] }
        guard let back = rr.indices.first(where: { rr[$0].subject == subjects[1] }) else { return XCTFail("no R-R") }
        rr.swapAt(back + 10, back + 11)
        try together.write(rr)
        let apart = Workspace(path: try makeTempDir() + "/apart")
        try FileManager.default.copyItem(atPath: together.path, toPath: apart.path)

        let notes = Notes()
        let context = StageContext(jobs: 2, progress: ProgressLog { notes.add($0) }, verify: false)
        XCTAssertNotNil(HRVCoherencePass(HRVStage(), CoherenceStage(), registry: context.registry))
        try Pipeline.run([HRVStage(), CoherenceStage()], on: together, context: context)
        XCTAssertTrue(notes.all.contains("== hrv + coherence (R-R read once for both)"), "\(notes.all)")
        XCTAssertFalse(notes.all.contains("== hrv"), "the stages ran one after the other")
        for stage in [HRVStage(), CoherenceStage()] as [any Stage] {
            try stage.runCommitted(apart, StageContext(jobs: 1, verify: false))
        }
        for table in [HRVRow.fileName, CoherenceRow.fileName, Manifest.fileName] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: together.file(table))),
                           try Data(contentsOf: URL(fileURLWithPath: apart.file(table))), table)
        }
        let coherence = try together.read(CoherenceRow.self)
        XCTAssertEqual(Set(coherence.filter { $0.subject == subjects[2] }.map(\.source)), ["hr"])
        XCTAssertEqual(Set(coherence.filter { $0.subject != subjects[2] }.map(\.source)), ["rr"])
        XCTAssertEqual(Set(try together.read(HRVRow.self).map(\.subject)), Set(subjects.prefix(2)))
    }

    /// Only hrv followed by the windowed coherence cleaning R-R the same way share a pass.
    func testOnlyHRVThenWindowedCoherenceWithTheSameArtifactsShareAPass() {
        let registry = ConstantsRegistry.defaults
        var product = CoherenceOptions()
        product.method = .product
        var malik = HRVOptions()
        malik.artifactMethod = .malik
        XCTAssertNil(HRVCoherencePass(CoherenceStage(), HRVStage(), registry: registry))
        XCTAssertNil(HRVCoherencePass(HRVStage(), CoherenceStage(options: product), registry: registry))
        XCTAssertNil(HRVCoherencePass(HRVStage(options: malik), CoherenceStage(), registry: registry))
        XCTAssertNil(HRVCoherencePass(HRVStage(), SessionsStage(), registry: registry))
    }
}

/// Progress notes collected from any thread.
private final class Notes: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []

    func add(_ note: String) {
        lock.lock(); defer { lock.unlock() }
        notes.append(note)
    }

    var all: [String] {
        lock.lock(); defer { lock.unlock() }
        return notes
    }
}
