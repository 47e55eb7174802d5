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

/// Wall-clock seconds and seconds of the calling thread's CPU time, of one run or the least of several.
///
/// On a loaded machine the thread's CPU time leaves out the time other processes hold the core, which swings a
/// wall-clock ratio by more than the work measured; it still counts what they cost in caches.
typealias RunTimes = (wall: Double, thread: Double)

/// The fastest of `repetitions` runs of each of two bodies, taken in turns after a warm-up run of each, each time the
/// least of its own: a peer and SeedKit side by side, so that a slow spell of the machine weighs on both alike rather
/// than on whichever ran in it.
func fastestInTurns(
    repetitions: Int = 5, _ first: () throws -> Void, _ second: () throws -> Void
) rethrows -> (first: RunTimes, second: RunTimes) {
    try first()
    try second()
    var best = (first: RunTimes(.infinity, .infinity), second: RunTimes(.infinity, .infinity))
    for _ in 0..<repetitions {
        let one = try times(first), two = try times(second)
        best.first = (min(best.first.wall, one.wall), min(best.first.thread, one.thread))
        best.second = (min(best.second.wall, two.wall), min(best.second.thread, two.thread))
    }
    return best
}

/// The times of one run of `body`.
private func times(_ body: () throws -> Void) rethrows -> RunTimes {
    let start = (DispatchTime.now().uptimeNanoseconds, threadNanoseconds())
    try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start.0) / 1e9, Double(threadNanoseconds() - start.1) / 1e9)
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
