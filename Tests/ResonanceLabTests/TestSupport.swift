import Foundation
import XCTest

/// A fresh temporary folder per test, removed afterwards.
func makeTempDir(_ name: String = #function) throws -> String {
    let dir = NSTemporaryDirectory() + "resonance-tests/\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

/// Writes a fixture file and returns its path.
@discardableResult
func writeFixture(_ text: String, to path: String) throws -> String {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Root of the shared public datasets, or skips the test with the reason printed.
func datasetsRoot() throws -> String {
    guard let root = ProcessInfo.processInfo.environment["RESONANCE_DATASETS"], !root.isEmpty else {
        throw XCTSkip("RESONANCE_DATASETS is not set: skipping tests on the shared public datasets")
    }
    return root
}
