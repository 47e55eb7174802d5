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

// Running `seed` as a child process of its own: measured, or killed at an instant. Foundation's `Process` is not used
// here: on Linux its `waitUntilExit` can miss the exit of a child killed early and wait for ever.
extension Fixtures {
    /// What a measured run of `seed` gave: its result, its peak resident memory and its wall-clock time.
    struct MeasuredRun {
        var result: CommandResult
        var peakBytes: Int
        var seconds: Double
    }

    /// Starts `seed` with `arguments` in `directory` (as `user`, a numeric user id, when given and the tests run as
    /// root), its output written to the files at `stdoutPath` and `stderrPath`; ``waitForChild(_:)`` ends it.
    static func spawnSeed(
        _ arguments: [String], in directory: URL, asUser user: UInt32? = nil, stdoutPath: String = "/dev/null",
        stderrPath: String = "/dev/null"
    ) throws -> pid_t {
        // sh changes directory and execs seed, so the process is seed's.
        let quoted = ([seedExecutable.path] + arguments).map { "'\($0.replacingOccurrences(of: "'", with: #"'\''"#))'" }
        var command = ["/bin/sh", "-c", "cd '\(directory.path)' && exec \(quoted.joined(separator: " "))"]
        if let user, getuid() == 0 {
            command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command
        }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let cArguments = command.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        return pid
    }

    /// Waits for the child `pid` to end: its exit status (128 + the signal when a signal ended it) and its usage.
    static func waitForChild(_ pid: pid_t) -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), usage)
    }

    /// Runs `seed` with `arguments` in `directory` (as `user` when given, see ``spawnSeed``), measuring the peak
    /// memory of that one process (`wait4`'s `ru_maxrss`).
    static func runSeedMeasured(_ arguments: [String], in directory: URL, asUser user: UInt32? = nil) throws -> MeasuredRun {
        let output = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let (stdoutPath, stderrPath) = (output.appendingPathComponent("out").path, output.appendingPathComponent("err").path)
        let start = ContinuousClock.now
        let pid = try spawnSeed(arguments, in: directory, asUser: user, stdoutPath: stdoutPath, stderrPath: stderrPath)
        let (status, usage) = waitForChild(pid)
        let elapsed = ContinuousClock.now - start
        let result = CommandResult(
            status: status, stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        let (seconds, attoseconds) = elapsed.components
        return MeasuredRun(
            result: result, peakBytes: usage.ru_maxrss * 1024, seconds: Double(seconds) + Double(attoseconds) / 1e18)
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
