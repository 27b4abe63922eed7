import ArgumentParser
import Foundation

/// Turns a library error into one line on stderr and exit code 1, never a trace.
enum CommandError {
    static func oneLine<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
