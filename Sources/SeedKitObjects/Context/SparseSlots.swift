/// Objects by number, for numbers too far apart for an array: a hash table with open addressing and linear probing.
///
///     var slots = SparseSlots()
///     slots[937_114] = item
///     slots[937_114]                // item
///     slots.removeValue(for: 937_114)
///
/// The registry's objects of rows fetched at random, by their row ids. A `Dictionary` hashes every key through
/// `Hasher`, which costs more than the rest of registering such a row; a row id needs only a multiplication to spread
/// it over the table (Fibonacci hashing). Number 0 is no object's (``ObjectID`` numbers are row ids, or negative
/// temporary numbers), so it marks an empty bucket. Removal shifts the entries after it back, leaving no tombstones.
///
/// The table owns its memory and its objects' references by hand, which is why it is not copyable: its entries are
/// plain numbers and pointers, so that growing moves them without retaining or releasing anything and going away
/// releases each object once, where an array of optional references was destroyed entry by entry, empty ones
/// included, through the standard library's generic path.
///
/// - Complexity: O(1) on average to look up, set and remove; the table stays at most half full.
package struct SparseSlots: ~Copyable {
    private struct Entry {
        /// 0 for an empty bucket.
        var number: Int64
        /// Retained by the table; nil for an empty bucket.
        var object: Unmanaged<ManagedObject>?
    }

    /// A power of two of buckets, or none.
    private var entries = UnsafeMutableBufferPointer<Entry>(start: nil, count: 0)
    /// The objects held.
    package private(set) var count = 0
    /// 64 minus the number of bits of a bucket index.
    private var shift = 64

    package init() {}

    deinit {
        for entry in entries { entry.object?.release() }
        entries.deallocate()
    }

    package var isEmpty: Bool { count == 0 }

    /// The object numbered `number`; setting nil removes it.
    ///
    /// - Precondition: `number` is not 0.
    package subscript(number: Int64) -> ManagedObject? {
        get {
            guard count > 0 else { return nil }
            return entries[find(number)].object?.takeUnretainedValue()
        }
        set {
            guard let newValue else {
                removeValue(for: number)
                return
            }
            precondition(number != 0, "0 is no object's number")
            if (count + 1) * 2 > entries.count { grow() }
            let bucket = find(number)
            let old = entries[bucket].object
            if old == nil {
                entries[bucket].number = number
                count += 1
            }
            // The new reference is taken before the old one goes, which may be the same object.
            entries[bucket].object = .passRetained(newValue)
            old?.release()
        }
    }

    /// Removes the object numbered `number` and returns it; nil when there is none.
    @discardableResult
    package mutating func removeValue(for number: Int64) -> ManagedObject? {
        guard count > 0 else { return nil }
        var hole = find(number)
        // The table's reference passes to the caller.
        guard let removed = entries[hole].object?.takeRetainedValue() else { return nil }
        count -= 1
        guard count > 0 else {
            // Give the memory back once every object has left, as after a save.
            entries.deallocate()
            entries = UnsafeMutableBufferPointer(start: nil, count: 0)
            shift = 64
            return removed
        }
        // Each following entry of the run moves into the hole unless its home lies cyclically in (hole, entry].
        let mask = entries.count - 1
        var next = hole
        while true {
            next = (next + 1) & mask
            let number = entries[next].number
            if number == 0 { break }
            let start = home(of: number)
            let stays = hole <= next ? (hole < start && start <= next) : (hole < start || start <= next)
            if stays { continue }
            entries[hole] = entries[next]
            hole = next
        }
        entries[hole] = Entry(number: 0, object: nil)
        return removed
    }

    /// Calls `body` with every object, in no particular order.
    package func forEach(_ body: (ManagedObject) -> Void) {
        guard count > 0 else { return }
        // Lent as the table's own reference, which outlives the call: taken, it was retained and released per object,
        // as when a context going away walks its objects.
        for entry in entries { entry.object?._withUnsafeGuaranteedRef(body) }
    }

    /// The bucket holding `number`, or the empty bucket that ends its run.
    private func find(_ number: Int64) -> Int {
        let mask = entries.count - 1
        var bucket = home(of: number)
        while entries[bucket].number != number && entries[bucket].number != 0 { bucket = (bucket + 1) & mask }
        return bucket
    }

    private func home(of number: Int64) -> Int {
        // The top bits of the product by 2^64 / φ: every bit of the number moves them.
        Int(truncatingIfNeeded: (UInt64(bitPattern: number) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    private mutating func grow() {
        let old = entries
        let bucketCount = max(16, old.count * 2)
        entries = .allocate(capacity: bucketCount)
        entries.initialize(repeating: Entry(number: 0, object: nil))
        shift = 64 - bucketCount.trailingZeroBitCount
        // Moved as they are: the references stay the table's.
        for entry in old where entry.number != 0 { entries[find(entry.number)] = entry }
        old.deallocate()
    }
}
