extension SeedResolver {
    /// Each `"$id"` of the templates by the record that states it first: what `"$ref"` names.
    ///
    /// Its open-addressed table of 4-byte slots names records, whose ids are read where the records keep them, rather
    /// than a dictionary holding a copy of every id beside its object and record (28 bytes a slot, 7 MB for 100,000
    /// ids). Ids are compared as a dictionary of strings compares them.
    ///
    /// - Complexity: O(1) on average to find or add an id; the table doubles, at most half full.
    struct IDTable {
        /// 0 for an empty slot, else the record's index among all the set's + 1.
        private var slots: [UInt32]
        private var count = 0

        /// Room for `capacity` ids without growing.
        init(capacity: Int) {
            var size = 16
            while size < 2 * capacity { size <<= 1 }
            slots = [UInt32](repeating: 0, count: size)
        }

        /// The index among `records` of the first record stating `id`; nil when none does.
        func record(stating id: String, in records: [TemplateRecord]) -> Int? {
            let mask = slots.count - 1
            var slot = id.hashValue & mask
            while slots[slot] != 0 {
                let record = Int(slots[slot]) - 1
                if records[record].id == id { return record }
                slot = (slot + 1) & mask
            }
            return nil
        }

        /// Adds the record of `records` at `index` as the first to state its id, which no record before states.
        mutating func insert(_ index: Int, in records: [TemplateRecord]) {
            if 2 * (count + 1) > slots.count { grow(records) }
            place(index, id: records[index].id!)
            count += 1
        }

        private mutating func place(_ index: Int, id: String) {
            let mask = slots.count - 1
            var slot = id.hashValue & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(index + 1)
        }

        private mutating func grow(_ records: [TemplateRecord]) {
            let old = slots
            slots = [UInt32](repeating: 0, count: 2 * old.count)
            for slot in old where slot != 0 { place(Int(slot) - 1, id: records[Int(slot) - 1].id!) }
        }

        /// The ids, each once.
        func ids(in records: [TemplateRecord]) -> [String] {
            slots.compactMap { $0 == 0 ? nil : records[Int($0) - 1].id! }
        }
    }
}
