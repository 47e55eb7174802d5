import Dispatch

/// Items passed from one producing thread to one consuming thread, in order, with at most `capacity` waiting: the
/// producer waits for room, the consumer for an item, and the consumer can stop the hand-off early.
///
///     let handOff = HandOff<Batch>(capacity: 4)
///     DispatchQueue.global().async {
///         for batch in batches where handOff.put(batch) {}     // false once the consumer stopped
///         handOff.finish()
///     }
///     while let batch = handOff.take() { try write(batch) }   // nil after finish()
///
/// - Complexity: O(1) per item, plus the waits.
package final class HandOff<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var isFinished = false
        var isStopped = false
    }

    private let state = Locked(State())
    private let available = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore

    package init(capacity: Int) {
        room = DispatchSemaphore(value: capacity)
    }

    /// Hands an item over, waiting for room; false when the consumer has stopped, and the item was dropped.
    @discardableResult
    package func put(_ item: Item) -> Bool {
        guard !state.withLock({ $0.isStopped }) else { return false }
        room.wait()
        let taken = state.withLock { state in
            guard !state.isStopped else { return false }
            state.items.append(item)
            return true
        }
        available.signal()
        return taken
    }

    /// Says that no more items come.
    package func finish() {
        state.withLock { $0.isFinished = true }
        available.signal()
    }

    /// The next item, waiting for it; nil once the producer has finished and every item was taken.
    package func take() -> Item? {
        while true {
            let next = state.withLock { state -> (item: Item?, isDone: Bool) in
                if !state.items.isEmpty { return (state.items.removeFirst(), false) }
                return (nil, state.isFinished)
            }
            if let item = next.item {
                room.signal()
                return item
            }
            if next.isDone { return nil }
            available.wait()
        }
    }

    /// Stops the hand-off from the consumer's side: the producer's next `put` returns false at once.
    package func stop() {
        state.withLock {
            $0.isStopped = true
            $0.items.removeAll()
        }
        // Wakes the producer, if it waits for room.
        room.signal()
    }
}
