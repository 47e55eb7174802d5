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
        /// The keys of inserted objects that have none of their own: owned ones, known by their owner's row and place.
        var ownedKeys: [Int32: SeedKey] = [:]
    }

    /// The sections of the ledger, to replace the store's: the set (counting each entity's entries), the files, and
    /// each entity's entries — with `insertions`' objects, hashed as `templates` writes them.
    ///
    /// Each entity's section is measured first and its entries written in place, on all cores: packing allocates the
    /// sections and nothing else of their size.
    ///
    /// - Complexity: O(*n*) in the entries and their slots.
    func sections(schema: SeedSchema, adding insertions: Insertions = Insertions(), templates: TemplateSlots? = nil) -> [String: [UInt8]] {
        precondition(insertions.objects.isEmpty || templates != nil, "inserted objects are hashed as the templates write them")
        // Per entity, its items: an entry's index, or an insertion's position as its complement.
        var items = [[Int]](repeating: [], count: schema.entities.count)
        for (index, entry) in entries.enumerated() { items[Int(entry.entity)].append(index) }
        for (position, object) in insertions.objects.enumerated() {
            items[Int(templates!.objects.objects[Int(object)].entity)].append(~position)
        }
        var summary = self
        summary.objectCounts = [:]
        var sections = [Self.filesSection: filesBytes()]
        if let origins { sections[Self.originsSection] = Self.originsBytes(origins) }
        for (ordinal, list) in items.enumerated() where !list.isEmpty {
            let slots = schema.entities[ordinal]
            summary.objectCounts[slots.entity.name] = list.count
            sections[Self.entityPrefix + slots.entity.name] = entityBytes(slots: slots, items: list, insertions: insertions, templates: templates)
        }
        sections[Self.setSection] = summary.setBytes()
        return sections
    }

    /// One entity's section: its slot names, then per entry the key's kind, root (but for identity keys, whose root
    /// is the entity's), text, the row id, and a hash per slot.
    private func entityBytes(slots: EntitySlots, items: [Int], insertions: Insertions, templates: TemplateSlots?) -> [UInt8] {
        let names = (0..<slots.slotCount).map { slots.name(ofSlot: $0) }
        @Sendable func key(_ item: Int) -> SeedKey {
            if item >= 0 { return entries[item].key }
            let object = insertions.objects[~item]
            return templates!.objects.objects[Int(object)].key ?? insertions.ownedKeys[object]!
        }
        @Sendable func rowID(_ item: Int) -> Int64 { item >= 0 ? entries[item].rowID : templates!.rowIDs[Int(insertions.objects[~item])] }
        let header = LedgerBuffer.size(ofCount: names.count) + names.reduce(0) { $0 + LedgerBuffer.size(ofText: $1) }
            + LedgerBuffer.size(ofCount: items.count)
        // Where each item's bytes start; one more at the end.
        var starts = [Int]()
        starts.reserveCapacity(items.count + 1)
        starts.append(header)
        for item in items {
            let key = key(item)
            let size = 1 + (key.kind == .identity ? 0 : LedgerBuffer.size(ofText: key.root)) + LedgerBuffer.size(ofText: key.text)
                + LedgerBuffer.size(ofVarint: UInt64(bitPattern: rowID(item))) + 8 * slots.slotCount
            starts.append(starts[starts.count - 1] + size)
        }
        let offsets = starts, total = starts[items.count]
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            let base = DisjointWrites(base: buffer.baseAddress!)
            var head = LedgerBuffer(base.base)
            head.append(count: names.count)
            for name in names { head.append(text: name) }
            head.append(count: items.count)
            let chunk = 4096
            DispatchQueue.concurrentPerform(iterations: (items.count + chunk - 1) / chunk) { part in
                var hasher = SlotHasher()
                for position in part * chunk..<min(items.count, (part + 1) * chunk) {
                    let item = items[position]
                    var out = LedgerBuffer(base.base + offsets[position])
                    let key = key(item)
                    out.append(byte: key.kind.rawValue)
                    if key.kind != .identity { out.append(text: key.root) }
                    out.append(text: key.text)
                    out.append(varint: UInt64(bitPattern: rowID(item)))
                    if item >= 0 {
                        precondition(entries[item].hashCount == slots.slotCount, "an entry has a hash per slot of its entity")
                        for hash in hashes(of: entries[item]) { out.append(word: hash) }
                    } else {
                        templates!.forEachHash(of: Int(insertions.objects[~item]), hasher: &hasher) { out.append(word: $0) }
                    }
                }
            }
            count = total
        }
    }

    /// The files section: per file its path, hash and stamp (empty for none), in the byte order of the paths.
    func filesBytes() -> [UInt8] {
        // Each file's hash and stamp texts, in one buffer: the 16 digits, then the stamp up to the next file's start.
        var texts: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(fileRecords.count + 1)
        for record in fileRecords {
            starts.append(texts.count)
            StableHash.appendText(of: record.hash, to: &texts)
            record.stamp?.appendText(to: &texts)
        }
        starts.append(texts.count)
        var size = 0
        for (index, record) in fileRecords.enumerated() {
            let stampCount = starts[index + 1] - starts[index] - 16
            size += LedgerBuffer.size(ofText: record.path) + LedgerBuffer.size(ofCount: 16) + 16 + LedgerBuffer.size(ofCount: stampCount)
                + stampCount
        }
        return texts.withUnsafeBufferPointer { texts in
            LedgerBuffer.bytes(size: size) { out in
                for (index, record) in fileRecords.enumerated() {
                    out.append(text: record.path)
                    out.append(text: UnsafeBufferPointer(rebasing: texts[starts[index]..<starts[index] + 16]))
                    out.append(text: UnsafeBufferPointer(rebasing: texts[starts[index] + 16..<starts[index + 1]]))
                }
            }
        }
    }
}

/// Memory that concurrent tasks write at disjoint offsets, each its own range: `@unchecked Sendable` is sound because
/// no byte is written by two tasks, nor read before they all finish.
private struct DisjointWrites: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
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
        var text = text
        text.withUTF8 { append(text: $0) }
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
