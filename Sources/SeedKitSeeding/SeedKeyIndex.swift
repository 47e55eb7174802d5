/// The elements of an array (objects, ledger entries) by their ``SeedKey``: what a `[SeedKey: Int32]` gives, in
/// 8-byte slots that name the elements, whose keys stay where the array keeps them.
///
///     var index = SeedKeyIndex(capacity: objects.count)
///     index.set(0, for: key)
///     index.element(for: key) { objects[$0].key == key }      // 0
///
/// A dictionary holds a copy of each key (48 bytes) beside its value in a table at most three quarters full: 27 MB
/// for 200,000 keys, where this takes 4 MB. Each slot keeps the low 32 bits of its key's hash beside the element, so
/// that a look-up reads an element only where the hashes agree, and growing places the slots again without reading
/// any key.
///
/// - Complexity: O(1) on average to find or set a key; the table doubles, at most half full.
struct SeedKeyIndex {
    /// 0 for an empty slot, else the key's hash's low 32 bits, shifted up, and the element + 1 below them.
    private var slots: [UInt64]
    private(set) var count = 0

    /// Room for `capacity` keys without growing.
    init(capacity: Int = 0) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
    }

    var isEmpty: Bool { count == 0 }

    /// The element set for `key`; `hasKey` says whether the element at an index is the one of `key` (compared there,
    /// not copied out), and is asked only of elements whose keys hash as `key` does.
    @inline(__always)
    func element(for key: SeedKey, where hasKey: (Int) -> Bool) -> Int32? {
        let hash = UInt32(truncatingIfNeeded: key.storedHash)
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let found = slots[slot]
            if UInt32(truncatingIfNeeded: found >> 32) == hash {
                let element = Int(UInt32(truncatingIfNeeded: found)) - 1
                if hasKey(element) { return Int32(element) }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Sets `element` as the one of `key`, which no element set before has: as a dictionary's assignment of a new key.
    mutating func add(_ element: Int32, for key: SeedKey) {
        if 2 * (count + 1) > slots.count { grow() }
        place(UInt64(UInt32(truncatingIfNeeded: key.storedHash)) << 32 | UInt64(element + 1))
        count += 1
    }

    /// Sets `element` as the one of `key`, in place of any set before (`hasKey` as in ``element(for:where:)``).
    mutating func set(_ element: Int32, for key: SeedKey, where hasKey: (Int) -> Bool) {
        let hash = UInt32(truncatingIfNeeded: key.storedHash)
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            if UInt32(truncatingIfNeeded: slots[slot] >> 32) == hash, hasKey(Int(UInt32(truncatingIfNeeded: slots[slot])) - 1) {
                slots[slot] = UInt64(hash) << 32 | UInt64(element + 1)
                return
            }
            slot = (slot + 1) & mask
        }
        add(element, for: key)
    }

    /// Every element set, each once, in no particular order.
    var elements: [Int32] {
        slots.compactMap { $0 == 0 ? nil : Int32(UInt32(truncatingIfNeeded: $0)) - 1 }
    }

    private mutating func place(_ entry: UInt64) {
        let mask = slots.count - 1
        var slot = Int(entry >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: 2 * old.count)
        for entry in old where entry != 0 { place(entry) }
    }
}
