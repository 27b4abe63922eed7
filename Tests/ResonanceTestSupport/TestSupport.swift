import Foundation
import ResonanceLab
import XCTest

extension XCTestCase {
    /// A fresh temporary folder for this test, removed when the test ends.
    public func makeTempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "resonance-tests/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }
}

/// Writes a fixture file and returns its path.
@discardableResult
public func writeFixture(_ text: String, to path: String) throws -> String {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Root of the shared public datasets, or skips the test with the reason printed.
public func datasetsRoot() throws -> String {
    guard let root = ProcessInfo.processInfo.environment["RESONANCE_DATASETS"], !root.isEmpty else {
        throw XCTSkip("RESONANCE_DATASETS is not set: skipping tests on the shared public datasets")
    }
    return root
}

/// Epoch ms of an ISO time in a test fixture (fixtures are literals, known valid).
public func ms(_ iso: String) -> Int64 {
    Timestamp.parseISO(iso)?.ms ?? Int64.min
}

extension Result {
    /// The error of a failed result; nil on success.
    public var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
