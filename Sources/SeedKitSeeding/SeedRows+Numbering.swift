import SeedKitSupport
import SeedKitModel

extension SeedRows {
    /// Numbers rows in file order and resolves their references by key.
    ///
    ///     var numbering = Numbering()
    ///     for var rows in files { guard numbering.add(&rows) else { … } }     // false: a conflict
    ///     let numbered = numbering.finish()      // nil: an object referenced but never stated
    ///
    /// Every key met, stated or referenced, gets a slot with the next row id of its root table: row ids follow
    /// first mentions, as a decoder's do. This runs once per row and per reference of the whole set, one thread at a
    /// time, so it keeps to value types compared by identity and a table that places keys by the hash they carry.
    ///
    /// - Complexity: O(1) per row and per reference, on average.
    struct Numbering {
        /// An object by key: its row once stated, and the entity references require it to be a kind of.
        private struct Slot {
            let key: Prehashed
            /// The index of its row, counted over all files in file order, once stated; -1 before.
            var row: Int
            /// Its entity once stated; before, the entity its references require it to be a kind of.
            var entity: ObjectIdentifier
            let rowID: Int64
        }

        /// What numbering keeps per entity met.
        private struct EntityNumbers {
            let entity: Entity
            /// The index of its root table's next row id in `nextRowIDs`.
            let root: Int
            /// The ledger entries of its rows, packed as they are numbered, off the thread that writes them; nil
            /// while no row of it is numbered.
            var entries: SeedLedger.EntityPacker?
        }

        private var slots: [Slot] = []
        private var table = KeyTable()
        /// The number of rows numbered so far.
        private var count = 0
        private var entities: [EntityNumbers] = []
        private var entityIndex: [ObjectIdentifier: Int] = [:]
        /// The entity of the last row: rows of one entity mostly come in runs, which then need no lookup.
        private var lastEntity: (id: ObjectIdentifier, index: Int)?
        private var nextRowIDs: [Int64] = []
        private var rootIndex: [String: Int] = [:]
        /// Whether a row refers to a row whose slot comes after its own: later in the order of first mention.
        private var refersForwardInOrder = false

        mutating func reserveCapacity(_ count: Int) {
            slots.reserveCapacity(count)
            table.reserveCapacity(count, slots: slots)
        }

        /// Numbers the next file's rows; false when an object is stated twice or a reference names another kind of
        /// object than it is.
        mutating func add(_ rows: inout [Row]) -> Bool {
            // Rows are changed where they are: copying one retains each of its fields.
            for row in rows.indices {
                let entity = rows[row].entity
                let numbers = index(of: entity)
                let slot: Int
                switch table.lookUp(rows[row].key, in: slots) {
                case .found(let index):
                    // Referenced before: its row follows, with the entity the references need or a subentity of it.
                    guard slots[index].row < 0, isKind(entity, of: slots[index].entity) else { return false }
                    slot = index
                case .absent(let bucket):
                    slot = newSlot(rows[row].key, entity, numbers, bucket: bucket)
                }
                slots[slot].row = count + row
                slots[slot].entity = ObjectIdentifier(entity)
                rows[row].rowID = slots[slot].rowID
                for position in rows[row].targets.indices {
                    guard let key = rows[row].targets[position].key else { continue }
                    let named = rows[row].targets[position].entity
                    let target: Int
                    switch table.lookUp(key, in: slots) {
                    case .found(let index):
                        if slots[index].entity != ObjectIdentifier(named) {
                            let current = entities[entityIndex[slots[index].entity]!].entity
                            if slots[index].row >= 0 {
                                guard current.isKind(of: named.name) else { return false }
                            } else if named.isKind(of: current.name) {
                                slots[index].entity = ObjectIdentifier(named)
                            } else {
                                guard current.isKind(of: named.name) else { return false }
                            }
                        }
                        target = index
                    case .absent(let bucket):
                        target = newSlot(key, named, index(of: named), bucket: bucket)
                    }
                    if target > slot { refersForwardInOrder = true }
                    rows[row].targets[position].rowID = slots[target].rowID
                }
                if entities[numbers].entries == nil { entities[numbers].entries = SeedLedger.EntityPacker(hashForm: .value) }
                entities[numbers].entries!.append(key: rows[row].key.value, rowID: rows[row].rowID, hashValue: rows[row].hash)
            }
            count += rows.count
            return true
        }

        /// The rows' order of first mention, ledger entries and counts; nil when an object is referenced but never
        /// stated.
        func finish() -> Numbered? {
            var order: [Int] = []
            order.reserveCapacity(slots.count)
            // By index: a copy of each slot would retain its key.
            for index in slots.indices {
                guard slots[index].row >= 0 else { return nil }
                order.append(slots[index].row)
            }
            var ledger = SeedLedger()
            var counts: [String: SeedReport.Counts] = [:]
            for numbers in entities {
                guard let entries = numbers.entries else { continue }
                ledger.packedEntries[numbers.entity.name] = entries
                counts[numbers.entity.name, default: .init()].inserted += entries.count
            }
            return Numbered(order: order, refersForward: refersForwardInOrder, ledger: ledger, counts: counts)
        }

        /// Whether `entity` is `other` or a subentity of it.
        private func isKind(_ entity: Entity, of other: ObjectIdentifier) -> Bool {
            ObjectIdentifier(entity) == other || entity.isKind(of: entities[entityIndex[other]!].entity.name)
        }

        /// The index of the entity's numbers, made when it is first met.
        private mutating func index(of entity: Entity) -> Int {
            let id = ObjectIdentifier(entity)
            if let last = lastEntity, last.id == id { return last.index }
            let index = entityIndex[id] ?? {
                let root = rootIndex[entity.rootName] ?? {
                    nextRowIDs.append(1)
                    rootIndex[entity.rootName] = nextRowIDs.count - 1
                    return nextRowIDs.count - 1
                }()
                entities.append(EntityNumbers(entity: entity, root: root))
                entityIndex[id] = entities.count - 1
                return entities.count - 1
            }()
            lastEntity = (id, index)
            return index
        }

        /// A slot with the next row id of the key's root table, placed in the table at `bucket`.
        private mutating func newSlot(_ key: Prehashed, _ entity: Entity, _ numbers: Int, bucket: Int) -> Int {
            let root = entities[numbers].root
            let rowID = nextRowIDs[root]
            nextRowIDs[root] = rowID + 1
            slots.append(Slot(key: key, row: -1, entity: ObjectIdentifier(entity), rowID: rowID))
            table.insert(slot: slots.count - 1, hash: key.hash, at: bucket, in: slots)
            return slots.count - 1
        }

        /// The slots of keys, placed by the hash each key carries: open addressing with linear probing, at most half
        /// full.
        ///
        /// A dictionary would hash each key's stored hash again; here it is the place. Each bucket holds the slot and
        /// 32 bits of the hash, so that a probe reads the slot's key only when those bits match.
        ///
        /// - Complexity: O(1) per look-up and insertion, on average.
        private struct KeyTable {
            private struct Bucket {
                /// The slot's index plus one; 0 for an empty bucket.
                var slot: UInt32 = 0
                var hash: UInt32 = 0
            }

            enum LookUp {
                case found(Int)
                /// The key is not in the table; `bucket` is where it goes.
                case absent(bucket: Int)
            }

            private var buckets: [Bucket] = Array(repeating: Bucket(), count: 16)
            private var count = 0

            mutating func reserveCapacity(_ count: Int, slots: [Slot]) {
                guard count * 2 > buckets.count else { return }
                var capacity = buckets.count
                while capacity < count * 2 { capacity *= 2 }
                rehash(capacity: capacity, slots: slots)
            }

            func lookUp(_ key: Prehashed, in slots: [Slot]) -> LookUp {
                let mask = buckets.count - 1
                let hash = UInt32(truncatingIfNeeded: key.hash)
                var bucket = key.hash & mask
                while true {
                    let entry = buckets[bucket]
                    if entry.slot == 0 { return .absent(bucket: bucket) }
                    if entry.hash == hash, slots[Int(entry.slot) - 1].key == key { return .found(Int(entry.slot) - 1) }
                    bucket = (bucket + 1) & mask
                }
            }

            /// Places a slot whose key ``lookUp(_:in:)`` found absent, at the bucket it gave.
            mutating func insert(slot: Int, hash: Int, at bucket: Int, in slots: [Slot]) {
                buckets[bucket] = Bucket(slot: UInt32(slot + 1), hash: UInt32(truncatingIfNeeded: hash))
                count += 1
                if count * 2 > buckets.count { rehash(capacity: buckets.count * 2, slots: slots) }
            }

            private mutating func rehash(capacity: Int, slots: [Slot]) {
                let old = buckets
                buckets = Array(repeating: Bucket(), count: capacity)
                let mask = capacity - 1
                for entry in old where entry.slot != 0 {
                    // The whole hash is the slot's key's: a bucket keeps only 32 bits of it.
                    var bucket = slots[Int(entry.slot) - 1].key.hash & mask
                    while buckets[bucket].slot != 0 { bucket = (bucket + 1) & mask }
                    buckets[bucket] = entry
                }
            }
        }
    }
}
