import Dispatch

/// A value made on another thread while the caller does other work, and waited for where it is needed.
///
///     let section = BackgroundValue { pack(files) }    // starts now, on another thread
///     let objects = try resolve(records)               // meanwhile, on this one
///     write(section.value, objects)                    // waits only if packing is not done yet
///
/// For work that a later stage needs and an earlier single-threaded stage leaves a core free for.
///
/// - Complexity: O(1) on the calling thread; ``value`` waits at most once for `make` to return.
package final class BackgroundValue<Value: Sendable>: Sendable {
    private let result = Locked<Value?>(nil)
    private let made = DispatchSemaphore(value: 0)

    /// Starts making the value on another thread.
    package init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async { [result, made] in
            let value = make()
            result.withLock { $0 = value }
            made.signal()
        }
    }

    /// The value, once made: waits for it the first time.
    package var value: Value {
        if let value = result.withLock({ $0 }) { return value }
        made.wait()
        // Signalled again, for whoever asks next.
        made.signal()
        return result.withLock { $0! }
    }
}
