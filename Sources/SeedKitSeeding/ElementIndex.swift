/// The elements of an array by a key each holds (an object's ``SeedKey``, a record's `"$id"`, a ledger entry's key):
/// what a dictionary from keys to positions gives, in 8-byte slots that name the elements, whose keys stay where the
/// array keeps them.
///
///     var index = ElementIndex(capacity: objects.count)
///     index.add(0, hash: key.storedHash)
///     index.element(hash: key.storedHash) { objects[$0].key == key }      // 0
///
/// A `[SeedKey: Int32]` holds a copy of each key (48 bytes) beside its value in a table at most three quarters full:
/// 27 MB for 200,000 keys, where this takes 4 MB. Each slot keeps the low 32 bits of its key's hash beside the
/// element, so that a look-up compares keys only where the hashes agree, and growing places the slots again without
/// reading a key. The caller gives each key's hash (taken once, as ``SeedKey/storedHash``, or `hashValue`) and says
/// whether an element holds a key.
///
/// - Complexity: O(1) on average to find, add or set a key; the table doubles, at most half full.
struct ElementIndex {
    /// 0 for an empty slot, else the key's hash's low 32 bits, shifted up, and the element + 1 below them.
    private var slots: [UInt64]
    private var count = 0

    /// Room for `capacity` keys without growing.
    init(capacity: Int = 0) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
    }

    /// The element of the key whose hash is `hash`; `holdsKey` says whether the element at a position holds it
    /// (compared there, not copied out), and is asked only of elements whose keys hash alike in the low 32 bits.
    @inline(__always)
    func element(hash: Int, where holdsKey: (Int) -> Bool) -> Int32? {
        slot(hash: UInt32(truncatingIfNeeded: hash), where: holdsKey).map { Int32(truncatingIfNeeded: slots[$0]) - 1 }
    }

    /// Adds `element` for a key no element added before holds: as a dictionary's assignment of a new key.
    mutating func add(_ element: Int32, hash: Int) {
        if 2 * (count + 1) > slots.count { grow() }
        place(UInt64(UInt32(truncatingIfNeeded: hash)) << 32 | UInt64(element + 1))
        count += 1
    }

    /// Sets `element` for its key, in place of any element set before for it (`holdsKey` as in
    /// ``element(hash:where:)``): as a dictionary's assignment.
    mutating func set(_ element: Int32, hash: Int, where holdsKey: (Int) -> Bool) {
        let hash32 = UInt32(truncatingIfNeeded: hash)
        guard let slot = slot(hash: hash32, where: holdsKey) else { return add(element, hash: hash) }
        slots[slot] = UInt64(hash32) << 32 | UInt64(element + 1)
    }

    /// The slot naming the element that holds the key, if any.
    @inline(__always)
    private func slot(hash: UInt32, where holdsKey: (Int) -> Bool) -> Int? {
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            if UInt32(truncatingIfNeeded: slots[slot] >> 32) == hash, holdsKey(Int(UInt32(truncatingIfNeeded: slots[slot])) - 1) {
                return slot
            }
            slot = (slot + 1) & mask
        }
        return nil
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
