import Foundation

/// How many processors this process may use, asked of the system once.
///
///     let tasks = min(files.count, ActiveProcessors.count)    // one task a core
///
/// `ProcessInfo.activeProcessorCount` asks the system each time: on Linux it opens and reads the control group's CPU
/// quota files, several system calls for a number that does not change while a run uses it. Every template set read
/// and every read stage asked it: about 3 per cent of the time of a run of one small file (the seed fuzz target's).
///
/// - Complexity: O(1) after the first time it is asked.
package enum ActiveProcessors {
    /// `ProcessInfo.processInfo.activeProcessorCount` as it was first asked: at least 1.
    package static let count = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
