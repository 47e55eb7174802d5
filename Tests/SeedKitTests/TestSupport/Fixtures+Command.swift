import Foundation
import SeedKit

/// The result of running the built `seed` binary.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

extension Fixtures {
    /// The `seed` executable SwiftPM built beside the test bundle (the test target depends on it).
    static var seedExecutable: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("seed")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build/debug/seed")
    }

    /// The repository's root directory, for the sample Templates/: this file is Tests/SeedKitTests/TestSupport/….
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `seed` with `arguments` and collects its exit status and output.
    static func runSeed(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = seedExecutable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

// Running `seed` on a terminal: util-linux's `script` gives it one for all three streams.
extension Fixtures {
    static let script = "/usr/bin/script"
    static var canRunOnTerminal: Bool { FileManager.default.isExecutableFile(atPath: script) }

    /// What a terminal shows of `seed` run with `arguments` in `directory`, stdout and stderr together, and its exit
    /// status; `shell`, when given, is a `sh` command line run instead, in which `$SEED` is the binary.
    static func runSeedOnTerminal(
        _ arguments: [String] = [], shell: String? = nil, in directory: URL, environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        let command = shell ?? ([seedExecutable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(["SEED": seedExecutable.path]) { $1 }
            .merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
