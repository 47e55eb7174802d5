import Foundation

// Whole-process measurements: the `seed` binary and the Python peers run as children, timed from outside.

struct ChildRun {
    var seconds: Double
    var stdout: String
    var stderr: String
    var status: Int32
    /// Whether the child was stopped for running past its time limit.
    var timedOut = false
}

/// Runs a child process to its end, timing the whole of it; past `timeLimit` seconds it is terminated.
func runChild(_ executable: String, _ arguments: [String], timeLimit: Double? = nil) throws -> ChildRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    // `waitUntilExit()` polls its run loop every 50 ms on Linux, which would add up to 50 ms to every child's time:
    // the termination handler ends the wait as the child ends.
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    if let timeLimit { DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog) }
    // Read before waiting, so a full pipe cannot block the child.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    exited.wait()
    watchdog.cancel()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return ChildRun(
        seconds: seconds, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
        status: process.terminationStatus,
        timedOut: process.terminationReason == .uncaughtSignal && timeLimit.map { seconds >= $0 } == true)
}

/// The child's peak resident memory in bytes, from `/usr/bin/time -v` output.
func peakBytes(fromTimeOutput text: String) -> Int? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains("Maximum resident set size") }),
          let kilobytes = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
    else { return nil }
    return kilobytes * 1024
}

/// The child's CPU time (user and system) in seconds, from `/usr/bin/time -v` output: on a loaded machine, steadier
/// than wall time.
func cpuSeconds(fromTimeOutput text: String) -> Double? {
    func seconds(_ label: String) -> Double? {
        text.split(separator: "\n").first { $0.contains(label) }
            .flatMap { $0.split(separator: ":").last }.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
    guard let user = seconds("User time (seconds)"), let system = seconds("System time (seconds)") else { return nil }
    return user + system
}

func pythonHas(_ module: String) -> Bool {
    (try? runChild("/usr/bin/env", ["python3", "-c", "import \(module)"]).status) == 0
}

/// The release `seed` binary beside this one.
func seedBinary() throws -> String {
    let seed = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("seed").path
    guard FileManager.default.isExecutableFile(atPath: seed) else {
        throw BenchmarkFailure(description: "no seed binary at \(seed); run swift build -c release first")
    }
    return seed
}
