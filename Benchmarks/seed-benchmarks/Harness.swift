import Foundation

/// One named benchmark: it measures SeedKit and its peers in the same run and prints `RESULT` lines.
struct Benchmark {
    let name: String
    let summary: String
    let run: () throws -> Void
}

/// Wall-clock seconds of the fastest of `repetitions` runs of `body` (after one warm-up run).
///
/// The fastest run is the least disturbed by the rest of the machine, which makes ratios between peers stable.
func fastest(repetitions: Int = 5, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var best = Double.infinity
    for _ in 0..<repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        best = min(best, elapsed)
    }
    return best
}

/// The fastest of `repetitions` runs of `body` (after one warm-up run) by wall-clock time and by the CPU time of the
/// calling thread, each the least of its own.
///
/// On a loaded machine the thread's CPU time leaves out the time other processes hold the core, which swings a
/// wall-clock ratio by more than the work measured; it still counts what they cost in caches.
func fastestTimes(
    repetitions: Int = 5, warmingUp: Bool = true, _ body: () throws -> Void
) rethrows -> (wall: Double, thread: Double) {
    if warmingUp { try body() }
    var best = (wall: Double.infinity, thread: Double.infinity)
    for _ in 0..<repetitions {
        let start = (DispatchTime.now().uptimeNanoseconds, threadNanoseconds())
        try body()
        best.wall = min(best.wall, Double(DispatchTime.now().uptimeNanoseconds - start.0) / 1e9)
        best.thread = min(best.thread, Double(threadNanoseconds() - start.1) / 1e9)
    }
    return best
}

/// The fastest of `repetitions` runs of each of two bodies, taken in turns (after a warm-up run of each), by wall-clock
/// and thread CPU time: a peer and SeedKit side by side, so that a slow minute of the machine weighs on both alike
/// rather than on whichever ran in it.
func fastestTimes(
    repetitions: Int = 5, _ first: () throws -> Void, _ second: () throws -> Void
) rethrows -> (first: (wall: Double, thread: Double), second: (wall: Double, thread: Double)) {
    var best = (first: (wall: Double.infinity, thread: Double.infinity), second: (wall: Double.infinity, thread: Double.infinity))
    try first()
    try second()
    for _ in 0..<repetitions {
        let one = try fastestTimes(repetitions: 1, warmingUp: false, first)
        let two = try fastestTimes(repetitions: 1, warmingUp: false, second)
        best.first = (min(best.first.wall, one.wall), min(best.first.thread, one.thread))
        best.second = (min(best.second.wall, two.wall), min(best.second.thread, two.thread))
    }
    return best
}

/// The CPU time the calling thread has used, in nanoseconds.
private func threadNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Seconds of one run of `body`, for work too large to repeat.
func once(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The process's peak resident memory so far, in bytes.
func peakResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return usage.ru_maxrss
    #endif
}

/// Prints a detail line and the closing `RESULT` line of a benchmark.
///
///     RESULT <name> <value> <unit> <ratio-vs-peer>x <peer>
func report(_ name: String, value: Double, unit: String, ratio: Double, peer: String) {
    print("RESULT \(name) \(format(value)) \(unit) \(format(ratio))x \(peer)")
}

func detail(_ text: String) {
    print("  \(text)")
}

func format(_ value: Double) -> String {
    if value >= 100 { return String(format: "%.0f", value) }
    if value >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}

/// Keeps a value alive and opaque so the optimizer cannot delete the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
