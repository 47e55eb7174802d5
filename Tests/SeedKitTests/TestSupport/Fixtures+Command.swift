import Foundation
import SeedKit
import Testing

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
    /// root), its output written to the files at `stdoutPath` and `stderrPath`, and its peak resident memory in
    /// kilobytes to the file at `peakMemoryPath` when given; ``waitForChild(_:)`` ends it.
    static func spawnSeed(
        _ arguments: [String], in directory: URL, asUser user: UInt32? = nil, stdoutPath: String = "/dev/null",
        stderrPath: String = "/dev/null", peakMemoryPath: String? = nil
    ) throws -> pid_t {
        // sh changes directory and execs seed, so the process is seed's.
        let quoted = ([seedExecutable.path] + arguments).map { "'\($0.replacingOccurrences(of: "'", with: #"'\''"#))'" }
        var command = ["/bin/sh", "-c", "cd '\(directory.path)' && exec \(quoted.joined(separator: " "))"]
        if let user, getuid() == 0 {
            command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command
        }
        // GNU time outside setpriv, so it writes its file as the tests' user.
        if let peakMemoryPath { command = [gnuTime, "--quiet", "--format=%M", "--output=\(peakMemoryPath)"] + command }
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

    /// Waits for the child `pid` to end: its exit status, 128 + the signal when a signal ended it.
    @discardableResult
    static func waitForChild(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// GNU time, which measures the peak memory of `seed` alone.
    ///
    /// Not `wait4`'s `ru_maxrss`: Linux carries a process's peak across `execve` into the new image's count, and a
    /// child spawned with `posix_spawn` shares its parent's memory until it execs, so `seed` would report the test
    /// runner's peak whenever that is the larger. GNU time is small and forks, so the peak it reads is seed's.
    static let gnuTime = "/usr/bin/time"
    static var canMeasurePeakMemory: Bool { FileManager.default.isExecutableFile(atPath: gnuTime) }
    static let peakMemoryUnmeasured: Comment = "GNU time measures seed's peak memory: apt-get install time"

    /// Runs `seed` with `arguments` in `directory` as `user`, a numeric user id, when the tests run as root.
    static func runSeed(_ arguments: [String], in directory: URL, asUser user: UInt32) throws -> CommandResult {
        try runSpawned(arguments, in: directory, asUser: user, measuringPeakMemory: false).result
    }

    /// Runs `seed` with `arguments` in `directory`, measuring the peak memory of that one process with ``gnuTime``.
    static func runSeedMeasured(_ arguments: [String], in directory: URL) throws -> MeasuredRun {
        try runSpawned(arguments, in: directory, asUser: nil, measuringPeakMemory: true)
    }

    private static func runSpawned(
        _ arguments: [String], in directory: URL, asUser user: UInt32?, measuringPeakMemory: Bool
    ) throws -> MeasuredRun {
        let output = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let path = { output.appendingPathComponent($0).path }
        let start = ContinuousClock.now
        let pid = try spawnSeed(
            arguments, in: directory, asUser: user, stdoutPath: path("out"), stderrPath: path("err"),
            peakMemoryPath: measuringPeakMemory ? path("peak") : nil)
        let status = waitForChild(pid)
        let elapsed = ContinuousClock.now - start
        let result = CommandResult(
            status: status, stdout: (try? String(contentsOfFile: path("out"), encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: path("err"), encoding: .utf8)) ?? "")
        var peakBytes = 0
        if measuringPeakMemory {
            let peak = try String(contentsOfFile: path("peak"), encoding: .utf8)
            peakBytes = try #require(Int(peak.trimmingCharacters(in: .whitespacesAndNewlines)), "GNU time said: \(peak)") * 1024
        }
        let (seconds, attoseconds) = elapsed.components
        return MeasuredRun(result: result, peakBytes: peakBytes, seconds: Double(seconds) + Double(attoseconds) / 1e18)
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
