import Foundation
import SeedKit

/// The progress bar `seed` draws on stderr while a long seed runs from a terminal.
///
/// Nothing is drawn when stderr is not a terminal, with `--quiet`, or before the work has lasted half a second: a
/// short seed prints only its summary. The bar is redrawn at most ten times a second, in place, and erased when the
/// seed ends, so the summary that follows starts on a clean line.
final class ProgressBar: Sendable {
    private struct State {
        var lastDrawn: Date?
        var isShown = false
    }

    private static let delay: TimeInterval = 0.5
    private static let interval: TimeInterval = 0.1
    private static let width = 30

    private let start = Date()
    private let state = Locked(State())

    /// A bar for this process's stderr, or nil when none should be drawn.
    static func forStandardError(quiet: Bool) -> ProgressBar? {
        quiet || isatty(STDERR_FILENO) != 1 ? nil : ProgressBar()
    }

    /// Draws `progress`, unless the work is still short or the bar was drawn a moment ago.
    func show(_ progress: SeedProgress) {
        let now = Date()
        guard now.timeIntervalSince(start) >= Self.delay else { return }
        let line: String? = state.withLock { state in
            let isLast = progress.completed == progress.total
            if let last = state.lastDrawn, now.timeIntervalSince(last) < Self.interval, !isLast { return nil }
            state.lastDrawn = now
            state.isShown = true
            return Self.line(for: progress)
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Erases the bar, if it was drawn.
    func finish() {
        let wasShown = state.withLock { state in
            defer { state.isShown = false }
            return state.isShown
        }
        if wasShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// `\r[=========>          ] checking 1200/2000 files`, ending with an erase to the end of the line.
    static func line(for progress: SeedProgress) -> String {
        let fraction = progress.total > 0 ? Double(progress.completed) / Double(progress.total) : 1
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "")
            + String(repeating: " ", count: max(0, width - filled - 1))
        let unit = progress.phase == .checking ? "files" : "objects"
        return "\r[\(bar)] \(progress.phase.rawValue) \(progress.completed)/\(progress.total) \(unit)\u{1B}[K"
    }
}

/// A value behind a lock: the bar is drawn from the seeding thread, but its closure must be `Sendable`.
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
