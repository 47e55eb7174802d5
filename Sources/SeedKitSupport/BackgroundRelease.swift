import Dispatch

/// Frees a value on another thread: freeing a large structure (a table of 200,000 keys, say) takes about as long as
/// building it did, and the caller need not wait for it.
///
///     releaseInBackground(numbering)      // the caller goes on; `numbering`'s memory is freed meanwhile
///
/// The caller must hold no other copy: the last reference is what frees, wherever it is dropped. The value travels
/// in a box that only the background thread empties, so that whichever thread drops the box, the value is freed
/// there — a closure capturing the value itself would free it on the caller's thread whenever the background thread
/// is done first.
///
/// - Complexity: O(1) on the calling thread.
package func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
    let box = ReleaseBox(value)
    DispatchQueue.global(qos: .utility).async { box.value = nil }
}

/// Holds a value until the background thread drops it; written only there after its creation.
private final class ReleaseBox<Value: Sendable>: @unchecked Sendable {
    var value: Value?

    init(_ value: consuming Value) {
        self.value = value
    }
}
