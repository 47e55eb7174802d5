import Dispatch
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

extension SeedLedger {
    /// The objects a run inserted, for the ledger it leaves: their entries are their keys, their new rows and the
    /// hashes of what the templates wrote, made while the ledger is packed.
    struct Insertions: Sendable {
        /// The inserted objects, in the order their entries are packed.
        var objects: [Int32] = []
        /// The keys of the objects, inserted or not, that have none of their own: owned ones, known by their owner's
        /// row and place. The entries of inserted ones, and the origins, name them by these.
        var ownedKeys = OwnedKeys()
    }

    /// The ledger keys of owned objects without a key of their own, by object: a 4-byte place per object in a list
    /// of the keys made, rather than a key's room (48 bytes) beside every object that has its own.
    struct OwnedKeys: Sendable {
        /// Per object: its key's index in ``keys``, or -1.
        private var places: [Int32] = []
        private var keys: [SeedKey] = []

        init() {}

        /// Room for the keys of `owned` of `objectCount` objects.
        init(objectCount: Int, owned: Int) {
            places = Array(repeating: -1, count: objectCount)
            keys.reserveCapacity(owned)
        }

        subscript(object: Int) -> SeedKey? {
            guard object < places.count, places[object] >= 0 else { return nil }
            return keys[Int(places[object])]
        }

        /// The ledger key of `object` among `objects`: its own, else the owned key given it; nil before it has one.
        func key(of object: Int, in objects: [SeedObject]) -> SeedKey? {
            objects[object].key ?? self[object]
        }

        /// Gives an object its key, once.
        mutating func set(_ key: SeedKey, of object: Int) {
            precondition(places[object] < 0, "an object's key is set once")
            places[object] = Int32(keys.count)
            keys.append(key)
        }
    }

    /// The sections of the ledger, to replace the store's: the set (counting each entity's entries), the files, the
    /// layouts and the objects — with `insertions`' objects, hashed as `templates` writes them, and the parts of
    /// the files not read carried as ``origins`` has them.
    ///
    /// Each entry is written in the part of its home, the first file in path order whose origins name its key, or
    /// in the part of objects no file bears on. The objects section is measured first and its entries written in
    /// place, on all cores: packing allocates the sections and nothing else of their size.
    ///
    /// - Parameter filesSection: ``filesBytes(of:)`` of the ledger's ``fileRecords``, when packed already (it needs
    ///   the files alone, so a run packs it while it resolves and plans); else it is packed here.
    /// - Complexity: O(*n*) in the entries and their slots, and the bytes of the parts carried.
    func sections(
        schema: SeedSchema, adding insertions: Insertions = Insertions(), templates: TemplateSlots? = nil,
        filesSection: [UInt8]? = nil
    ) -> [String: [UInt8]] {
        precondition(insertions.objects.isEmpty || templates != nil, "inserted objects are hashed as the templates write them")
        let origins = self.origins ?? Origins(modelFingerprint: schema.model.fingerprint)
        let carried = origins.carried
        // Each file's index among the carried ledger's, and the reverse.
        let oldIndices = carried.map { carried in
            TemplateSet.FileRecord.indices(of: fileRecords.count, in: carried.records) { fileRecords[$0].path }
        } ?? []
        var newIndices = [Int?](repeating: nil, count: carried?.records.count ?? 0)
        for (new, old) in oldIndices.enumerated() { if let old { newIndices[old] = new } }
        // Each file's origins if it was read, and the home of each key the files read bear on: the first of them.
        let read = TemplateSet.FileRecord.indices(of: origins.files.count, in: fileRecords) { origins.files[$0].path }
        var readFiles = [Int?](repeating: nil, count: fileRecords.count)
        for (file, index) in read.enumerated() { if let index { readFiles[index] = file } }
        @Sendable func key(_ item: Int) -> SeedKey {
            if item >= 0 { return entries[item].key }
            let object = insertions.objects[~item]
            return insertions.ownedKeys.key(of: Int(object), in: templates!.objects.objects)!
        }
        // The items of the parts (each file's, then the unborne objects'), part after part: an entry's index, or an
        // insertion's position as its complement; `itemParts` says where each part's start. Per item, 4 bytes: an
        // array of them is as long as the ledger.
        var items: [Int32] = []
        var counts = [Int](repeating: 0, count: schema.entities.count)
        var itemParts = [Int](repeating: 0, count: fileRecords.count + 2)
        // Per file read, the keys it bears on whose home is another file.
        var otherKeys = [[SeedKey]](repeating: [], count: fileRecords.count)
        do {
            // The homes and each item's part, let go before the objects section is measured and written, whose
            // tables then take their room.
            let homes = KeyHomes(keys: readFiles.map { file in file.map { origins.files[$0].keys } ?? Origins.Keys([]) })
            let unborne = Int32(fileRecords.count)
            var partOfItem: [Int32] = []
            partOfItem.reserveCapacity(entries.count + insertions.objects.count)
            for entry in entries {
                partOfItem.append(homes[entry.key] ?? unborne)
                counts[Int(entry.entity)] += 1
            }
            for (position, object) in insertions.objects.enumerated() {
                partOfItem.append(homes[key(~position)] ?? unborne)
                counts[Int(templates!.objects.objects[Int(object)].entity)] += 1
            }
            for part in partOfItem { itemParts[Int(part) + 1] += 1 }
            for part in 0...fileRecords.count { itemParts[part + 1] += itemParts[part] }
            items = [Int32](repeating: 0, count: partOfItem.count)
            var next = itemParts
            for (position, part) in partOfItem.enumerated() {
                items[next[Int(part)]] = Int32(position < entries.count ? position : ~(position - entries.count))
                next[Int(part)] += 1
            }
            for (index, file) in readFiles.enumerated() {
                guard let file else { continue }
                for key in origins.files[file].keys where homes[key] != Int32(index) { otherKeys[index].append(key) }
            }
        }
        var summary = self
        summary.objectCounts = carried?.counts ?? [:]
        for (ordinal, count) in counts.enumerated() where count > 0 {
            summary.objectCounts[schema.entities[ordinal].entity.name, default: 0] += count
        }
        return [
            Self.setSection: summary.setBytes(), Self.filesSection: filesSection ?? Self.filesBytes(of: fileRecords),
            Self.layoutsSection: Self.layoutsBytes(schema),
            Self.objectsSection: objectsBytes(
                schema: schema, origins: origins, readFiles: readFiles, otherKeys: otherKeys, items: items,
                itemParts: itemParts, oldIndices: oldIndices, newIndices: newIndices, key: key, insertions: insertions,
                templates: templates),
        ]
    }

    /// The layouts section: per entity of the schema, its name and slot names.
    static func layoutsBytes(_ schema: SeedSchema) -> [UInt8] {
        let texts = schema.entities.map { slots in
            [slots.entity.name] + (0..<slots.slotCount).map { slots.name(ofSlot: $0) }
        }
        let size = texts.reduce(0) { size, texts in
            size + LedgerBuffer.size(ofText: texts[0]) + LedgerBuffer.size(ofCount: texts.count - 1)
                + texts.dropFirst().reduce(0) { $0 + LedgerBuffer.size(ofText: $1) }
        }
        return LedgerBuffer.bytes(size: size) { out in
            for texts in texts {
                out.append(text: texts[0])
                out.append(count: texts.count - 1)
                for name in texts.dropFirst() { out.append(text: name) }
            }
        }
    }

    /// The objects section (``readObjects(_:layouts:schema:carrying:)`` reads it): the parts of the files read made
    /// of `items` and their keys, the carried ones copied.
    private func objectsBytes(
        schema: SeedSchema, origins: Origins, readFiles: [Int?], otherKeys: [[SeedKey]], items: [Int32],
        itemParts: [Int], oldIndices: [Int?], newIndices: [Int?], key: @Sendable (Int) -> SeedKey, insertions: Insertions,
        templates: TemplateSlots?
    ) -> [UInt8] {
        let carried = origins.carried
        // Unwrapped and taken out of their holders once: the tasks below read them per entry, and reaching them through
        // an optional or a closure copies them, retaining and releasing what they hold from every core at once.
        let entries = self.entries, ledgerHashes = self.hashes, inserted = insertions.objects
        let templateObjects = templates?.objects.objects ?? [], templateRowIDs = templates?.rowIDs ?? []
        let slotCounts = schema.entities.map(\.slotCount)
        @Sendable func rowID(_ item: Int) -> Int64 { item >= 0 ? entries[item].rowID : templateRowIDs[Int(inserted[~item])] }
        @Sendable func entity(_ item: Int) -> Int {
            item >= 0 ? Int(entries[item].entity) : Int(templateObjects[Int(inserted[~item])].entity)
        }
        // Per file: the part carried (its index in the carried ledger).
        var carriedParts = [Int?](repeating: nil, count: fileRecords.count)
        var settled = [UInt8](repeating: 0, count: fileRecords.count)
        var pairs: [BearerPair] = []
        pairs.reserveCapacity(readFiles.reduce(0) { $0 + ($1.map { origins.files[$0].keys.count } ?? 0) })
        for index in fileRecords.indices {
            if let file = readFiles[index].map({ origins.files[$0] }) {
                settled[index] = file.isSettled ? 1 : 0
                for key in file.keys { pairs.append(BearerPair(hash: Self.stableHash(of: key), file: UInt32(index))) }
            } else if let carried, let old = oldIndices[index], carried.isCarried[old] {
                carriedParts[index] = old
                settled[index] = carried.isSettled[old] ? 1 : 0
            }
        }
        pairs.sort()
        if let carried {
            // The carried pairs are in order already, files kept in path order: merged in.
            pairs = Self.merged(pairs, carried.carriedPairs(fileIndices: newIndices))
        }
        // Each part's place, and each item's in it: a part is its entries, then the keys of the others it bears on.
        let parts = fileRecords.count + 1
        // Each item's place in its part.
        var itemStarts = [Int](repeating: 0, count: items.count)
        var keysStarts = [Int](repeating: 0, count: parts)
        var partStarts = [0]
        for part in 0..<parts {
            if part < fileRecords.count, let old = carriedParts[part] {
                partStarts.append(partStarts[part] + carried!.parts[old].count)
                continue
            }
            var size = LedgerBuffer.size(ofCount: itemParts[part + 1] - itemParts[part])
            for position in itemParts[part]..<itemParts[part + 1] {
                let item = Int(items[position])
                itemStarts[position] = size
                let key = key(item), slotCount = schema.entities[entity(item)].slotCount
                size += LedgerBuffer.size(ofCount: entity(item)) + 1
                    + (key.kind == .identity ? 0 : LedgerBuffer.size(ofText: key.root)) + LedgerBuffer.size(ofText: key.text)
                    + LedgerBuffer.size(ofVarint: UInt64(bitPattern: rowID(item))) + 8 * slotCount
            }
            keysStarts[part] = size
            let keys = part < fileRecords.count ? otherKeys[part] : []
            size += LedgerBuffer.size(ofCount: keys.count)
            for key in keys { size += 1 + LedgerBuffer.size(ofText: key.root) + LedgerBuffer.size(ofText: key.text) }
            partStarts.append(partStarts[part] + size)
        }
        let partsBase = LedgerBuffer.size(ofText: origins.modelFingerprint) + LedgerBuffer.size(ofCount: fileRecords.count)
            + fileRecords.count + LedgerBuffer.size(ofCount: pairs.count) + 12 * pairs.count + 8 * (parts + 1)
        let total = partsBase + partStarts[parts]
        // Each item's part, for the tasks that write them.
        var itemPart = [Int32](repeating: 0, count: items.count)
        for part in 0..<parts { for position in itemParts[part]..<itemParts[part + 1] { itemPart[position] = Int32(part) } }
        let places = (itemStarts: itemStarts, partStarts: partStarts, itemPart: itemPart)
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            let base = DisjointWrites(base: buffer.baseAddress!)
            var out = LedgerBuffer(base.base)
            out.append(text: origins.modelFingerprint)
            out.append(count: fileRecords.count)
            for flag in settled { out.append(byte: flag) }
            out.append(count: pairs.count)
            for pair in pairs {
                out.append(word: pair.hash)
                withUnsafeBytes(of: pair.file.littleEndian) { out.append(bytes: $0.bindMemory(to: UInt8.self)) }
            }
            for start in partStarts { out.append(word: UInt64(start)) }
            for part in 0..<parts {
                var partOut = LedgerBuffer(base.base + partsBase + partStarts[part])
                if part < fileRecords.count, let old = carriedParts[part] {
                    carried!.bytes.withUnsafeBufferPointer {
                        partOut.append(bytes: UnsafeBufferPointer(rebasing: $0[carried!.parts[old]]))
                    }
                    continue
                }
                partOut.append(count: itemParts[part + 1] - itemParts[part])
                let keys = part < fileRecords.count ? otherKeys[part] : []
                var keysOut = LedgerBuffer(base.base + partsBase + partStarts[part] + keysStarts[part])
                keysOut.append(count: keys.count)
                for key in keys {
                    keysOut.append(byte: key.kind.rawValue)
                    keysOut.append(text: key.root)
                    keysOut.append(text: key.text)
                }
            }
            // The entries, on all cores: hashing inserted objects is most of packing.
            let chunk = 4096
            DispatchQueue.concurrentPerform(iterations: (items.count + chunk - 1) / chunk) { task in
                var hasher = SlotHasher()
                for position in task * chunk..<min(items.count, (task + 1) * chunk) {
                    let item = Int(items[position])
                    let part = Int(places.itemPart[position])
                    var out = LedgerBuffer(base.base + partsBase + places.partStarts[part] + places.itemStarts[position])
                    out.append(count: entity(item))
                    out.append(key: key(item))
                    out.append(varint: UInt64(bitPattern: rowID(item)))
                    if item >= 0 {
                        let start = entries[item].hashes, count = Int(entries[item].hashCount)
                        precondition(count == slotCounts[entity(item)], "an entry has a hash per slot of its entity")
                        for index in start..<start + count { out.append(word: ledgerHashes[index]) }
                    } else {
                        templates!.forEachHash(of: Int(inserted[~item]), hasher: &hasher) { out.append(word: $0) }
                    }
                }
            }
            count = total
        }
    }

    /// Two lists of pairs in order, merged into one in order.
    private static func merged(_ first: [BearerPair], _ second: [BearerPair]) -> [BearerPair] {
        var result: [BearerPair] = []
        result.reserveCapacity(first.count + second.count)
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && first[i] < second[j]) {
                result.append(first[i])
                i += 1
            } else {
                result.append(second[j])
                j += 1
            }
        }
        return result
    }
}

/// Writes the parts of a ledger section into memory measured for them: LEB128 varints (seven bits a byte, low bits
/// first), length-prefixed UTF-8 texts, and 64-bit words little-endian. ``LedgerReader`` reads them.
struct LedgerBuffer {
    private var next: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        next = start
    }

    /// Bytes of `size`, which `write` fills exactly.
    static func bytes(size: Int, _ write: (inout LedgerBuffer) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var out = LedgerBuffer(buffer.baseAddress!)
            write(&out)
            precondition(out.next == buffer.baseAddress! + size, "a ledger section fills what was measured for it")
            count = size
        }
    }

    static func size(ofVarint value: UInt64) -> Int { max(1, (64 - value.leadingZeroBitCount + 6) / 7) }

    static func size(ofCount count: Int) -> Int { size(ofVarint: UInt64(count)) }

    static func size(ofText text: String) -> Int {
        let count = text.utf8.count
        return size(ofCount: count) + count
    }

    mutating func append(byte: UInt8) {
        next.pointee = byte
        next += 1
    }

    mutating func append(count: Int) { append(varint: UInt64(count)) }

    mutating func append(varint value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(byte: UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(byte: UInt8(value))
    }

    mutating func append(text: String) {
        // Read in place: `withUTF8` needs a mutable copy of the string, which retains and releases its storage.
        if text.utf8.withContiguousStorageIfAvailable({ append(text: $0) }) == nil {
            var text = text
            text.withUTF8 { append(text: $0) }
        }
    }

    /// Appends a key as an entry names it: its kind, its root entity unless it is an identity key (the entry's entity
    /// says it), and its text.
    mutating func append(key: SeedKey) {
        append(byte: key.kind.rawValue)
        if key.kind != .identity { append(text: key.root) }
        append(text: key.text)
    }

    /// Appends bytes as they are.
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        if let base = bytes.baseAddress { next.update(from: base, count: bytes.count) }
        next += bytes.count
    }

    /// Appends a text given as its UTF-8 bytes.
    mutating func append(text utf8: UnsafeBufferPointer<UInt8>) {
        append(count: utf8.count)
        if let base = utf8.baseAddress { next.update(from: base, count: utf8.count) }
        next += utf8.count
    }

    mutating func append(word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { bytes in next.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: 8) }
        next += 8
    }
}
