import Foundation

/// A value guarded by a lock, for the little state SeedKit shares between threads (the per-class reflection cache,
/// results gathered by concurrent workers).
///
///     let results = Locked([Int]())
///     DispatchQueue.concurrentPerform(iterations: 4) { index in results.withLock { $0.append(index) } }
///
/// Named `Locked` rather than `Mutex` so as not to shadow `Synchronization.Mutex`, which needs newer Apple platforms
/// than SeedKit supports. `@unchecked Sendable` is sound because every access to `value` happens inside `withLock`,
/// under `lock`.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline var value: Value
    @usableFromInline let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    ///
    /// - Complexity: O(1) besides `body`, plus waiting for other holders.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
