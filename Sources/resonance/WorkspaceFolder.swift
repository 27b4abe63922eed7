import ArgumentParser
import Foundation

/// Argument check shared by commands that read an existing workspace folder.
enum WorkspaceFolder {
    static func requireExisting(_ path: String) throws {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
            throw ValidationError("\(path): no such workspace folder")
        }
    }
}
