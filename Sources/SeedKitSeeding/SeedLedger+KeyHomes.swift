extension SeedLedger {
    /// The home of each key the files read bear on: the first of those files, in the ledger's order of files.
    ///
    /// Packing asks it once for each object and for each key a file bears on. It holds no copy of a key: each slot of
    /// its open-addressed table names one where the files' origins keep it (its file and its position there), so that
    /// a table for every object of a set costs 8 bytes a slot rather than a dictionary's copy of every key.
    ///
    ///     let homes = KeyHomes(keys: [sales.keys, [], marketing.keys])   // keys of the files read, by file
    ///     homes[annKey]                                                   // 0: Sales is the first to bear on Ann
    ///
    /// - Complexity: O(*n*) to build in the keys of all files, O(1) on average for a lookup.
    struct KeyHomes {
        /// Per file of the ledger, the keys it bears on as its origins list them; empty for a file not read.
        private let keys: [Origins.Keys]
        /// 0 for an empty slot, else the home's file index + 1 in the high half and the key's position in the low.
        private var slots: [UInt64]

        init(keys: [Origins.Keys]) {
            self.keys = keys
            let count = keys.reduce(0) { $0 + $1.count }
            // At most half full, so that a probe ends after a slot or two.
            var size = 16
            while size < 2 * count { size <<= 1 }
            slots = [UInt64](repeating: 0, count: size)
            for (file, fileKeys) in keys.enumerated() {
                for (position, key) in fileKeys.enumerated() {
                    var slot = key.hashValue & (size - 1)
                    while slots[slot] != 0, self.key(in: slots[slot]) != key { slot = (slot + 1) & (size - 1) }
                    // A key already there has an earlier file for its home.
                    if slots[slot] == 0 { slots[slot] = UInt64(file + 1) << 32 | UInt64(position) }
                }
            }
        }

        /// The index of the first file that bears on `key`; nil when none of the files read does.
        subscript(key: SeedKey) -> Int32? {
            let mask = slots.count - 1
            var slot = key.hashValue & mask
            while slots[slot] != 0 {
                if self.key(in: slots[slot]) == key { return Int32(slots[slot] >> 32) - 1 }
                slot = (slot + 1) & mask
            }
            return nil
        }

        private func key(in slot: UInt64) -> SeedKey {
            keys[Int(slot >> 32) - 1][Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: slot))]
        }
    }
}
