import Dispatch
import Foundation
import SeedKit

/// The progress bar `seed` draws on stderr while a long seed runs from a terminal.
///
/// Nothing is drawn when stderr is not a terminal, with `--quiet`, or before the work has lasted half a second: a
/// short seed prints only its summary. The bar is redrawn in place at most ten times a second as the run reports,
/// and a few times a second between reports with the time spent, so that it never stands still while the run works
/// on something it does not count (decoding, resolving, the ledger). It is erased when the seed ends, so the summary
/// starts on a clean line, and on Ctrl-C, which then ends the process with status 130.
///
///     [=========>                    ] checking 1200/2000 files · 1.4 s
final class ProgressBar: @unchecked Sendable {
    private struct State {
        var progress: SeedProgress?
        var lastDrawn: ContinuousClock.Instant?
        var isShown = false
        var isFinished = false
    }

    private static let delay = Duration.milliseconds(500)
    private static let interval = Duration.milliseconds(100)
    private static let tick = DispatchTimeInterval.milliseconds(250)
    private static let width = 30

    private let start = ContinuousClock.now
    private let state = Locked(State())
    private let timer: any DispatchSourceTimer
    private let interrupt: any DispatchSourceSignal

    /// A bar for this process's stderr, or nil when none should be drawn.
    static func forStandardError(quiet: Bool) -> ProgressBar? {
        quiet || isatty(STDERR_FILENO) != 1 ? nil : ProgressBar()
    }

    private init() {
        let queue = DispatchQueue(label: "seed.progress")
        timer = DispatchSource.makeTimerSource(queue: queue)
        // SIGINT is taken from its default action, which would leave the bar on the line, and handled on the queue.
        signal(SIGINT, SIG_IGN)
        interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        timer.setEventHandler { [unowned self] in self.redraw() }
        interrupt.setEventHandler { [unowned self] in
            self.finish()
            // At once, from this queue: the seeding thread may be inside a transaction, which SQLite rolls back.
            _exit(ExitCode.interrupted.rawValue)
        }
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: Self.tick)
        timer.resume()
        interrupt.resume()
    }

    /// Notes `progress` and draws it, unless the work is still short or the bar was drawn a moment ago.
    func show(_ progress: SeedProgress) {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            state.progress = progress
            guard !state.isFinished, now - start >= Self.delay else { return nil }
            let isLast = progress.completed == progress.total
            if let last = state.lastDrawn, now - last < Self.interval, !isLast { return nil }
            state.lastDrawn = now
            state.isShown = true
            return Self.line(for: progress, elapsed: now - start)
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Draws the last progress again with the time spent, when no report came for a while.
    private func redraw() {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            guard !state.isFinished, let progress = state.progress else { return nil }
            if let last = state.lastDrawn, now - last < Self.interval { return nil }
            state.lastDrawn = now
            state.isShown = true
            return Self.line(for: progress, elapsed: now - start)
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Erases the bar, if it was drawn, and draws no more; Ctrl-C has its default action again.
    func finish() {
        let wasShown = state.withLock { state in
            defer {
                state.isShown = false
                state.isFinished = true
            }
            return state.isShown
        }
        timer.cancel()
        interrupt.cancel()
        if wasShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        signal(SIGINT, SIG_DFL)
    }

    /// `\r[=========>          ] checking 1200/2000 files · 1.4 s`, ending with an erase to the end of the line.
    static func line(for progress: SeedProgress, elapsed: Duration) -> String {
        let fraction = progress.total > 0 ? Double(progress.completed) / Double(progress.total) : 1
        let filled = min(width, Int(fraction * Double(width)))
        let bar =
            String(repeating: "=", count: filled) + (filled < width ? ">" : "")
            + String(repeating: " ", count: max(0, width - filled - 1))
        let unit = progress.phase == .checking ? "files" : "objects"
        let tenths = elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000
        let counts = "\(progress.phase.rawValue) \(progress.completed)/\(progress.total) \(unit)"
        return "\r[\(bar)] \(counts) · \(tenths / 10).\(tenths % 10) s\u{1B}[K"
    }
}

/// A value behind a lock: the bar is drawn from the seeding thread and its timer, and its closures must be `Sendable`.
///
/// `@unchecked Sendable` is sound because `value` is only touched inside `withLock`, under `lock`.
private final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
