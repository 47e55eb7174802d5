import Foundation

/// A value guarded by a lock: the one piece of shared mutable state SeedKit keeps (the per-class reflection cache).
///
/// `@unchecked Sendable` is sound because every access to `value` happens inside `withLock`, under `lock`.
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
