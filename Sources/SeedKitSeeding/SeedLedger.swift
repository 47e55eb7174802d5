import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// What the seeder last wrote to a store, kept in the store and written in the same transaction as the rows: the
/// template set's fingerprint, each file's hash and stamp, and for each seeded object its key, row and the hash of
/// each slot's value as written.
///
///     let ledger = try Seeder(storePath: "seed.sqlite").ledger()
///     ledger.fingerprint          // nil before the first seed
///     ledger.objectCounts         // ["Department": 2, "Employee": 3, …]
///
/// The slot hashes are what let a later seed tell, property by property, what the application changed since (the
/// stored value no longer hashes to what the seeder wrote) from what the templates changed (the template's value
/// no longer does): a template change to a property the application left alone is applied, and only a property both
/// changed is a conflict. Hashes are recorded under the property's name, so that a property the model gains, loses
/// or renames (through its aliases) leaves the others' comparisons as they were.
///
/// The ledger is a few sections in the store's ledger storage (``RowStore``): `set` (the fingerprint, time, template
/// directory and object counts, as JSON), `files` (each file's path, hash and stamp), `layouts` (each entity's slot
/// names) and `objects`: per file, the objects it is home to (key, row id and slot hashes) and the keys of the others
/// it bears on (``Origins``), with an index of which files bear on which keys. A later launch that reads only the
/// changed files reads only their parts of `objects`, and carries the other parts into the next ledger as bytes
/// (``sections(schema:adding:templates:)``). A store whose ledger cannot be read — damaged, or written by an earlier
/// development version in another form — is refused with the way forward: `seed --force` seeds over it, or the store
/// is deleted and seeded afresh.
package struct SeedLedger: Sendable {
    /// The fingerprint of the set last applied; nil when nothing was ever seeded.
    package var fingerprint: String?
    /// When the set was last applied, UTC, `2024-05-01 09:30:00`.
    package var appliedAt: String?
    /// The template directory as given to the run that applied it.
    package var templates: String?
    /// The hash of each file of the set, by relative path.
    package var files: [String: String] {
        Dictionary(fileRecords.map { ($0.path, StableHash.text(of: $0.hash)) }, uniquingKeysWith: { first, _ in first })
    }
    /// The number of seeded objects of each entity.
    package var objectCounts: [String: Int] = [:]
    /// Each file's path, hash and the stamp it had when read (see ``TemplateSet/Stamp``), in the byte order of the
    /// paths.
    var fileRecords: [TemplateSet.FileRecord] = []
    /// Which objects each file read bears on, and what is carried from the files not read
    /// (``read(from:schema:carrying:)``); nil when the ledger was read whole, or has none.
    var origins: Origins?
    /// The seeded objects read (``read(from:schema:)``, ``read(from:schema:carrying:)``).
    private(set) var entries: [Entry] = []
    /// Every entry's slot hashes, each entry's at ``Entry/hashes``: one array for the whole ledger.
    private(set) var hashes: [UInt64] = []

    /// One seeded object.
    struct Entry: Sendable {
        var key: SeedKey
        /// The entity's ordinal in the schema the ledger was read with.
        var entity: Int32
        var rowID: Int64
        /// Where its slot hashes start in ``SeedLedger/hashes``: per slot of the entity (``EntitySlots``), the hash of
        /// the value written.
        var hashes: Int
        var hashCount: Int32
    }

    /// An entry's slot hashes.
    func hashes(of entry: Entry) -> ArraySlice<UInt64> { hashes[entry.hashes..<entry.hashes + Int(entry.hashCount)] }

    /// Adds an entry with these slot hashes.
    mutating func append(key: SeedKey, entity: Int32, rowID: Int64, hashes slotHashes: some Collection<UInt64>) {
        entries.append(Entry(key: key, entity: entity, rowID: rowID, hashes: hashes.count, hashCount: Int32(slotHashes.count)))
        hashes.append(contentsOf: slotHashes)
    }

    /// Adds an entry of another ledger, with its hashes.
    mutating func append(_ entry: Entry, of ledger: SeedLedger) {
        append(key: entry.key, entity: entry.entity, rowID: entry.rowID, hashes: ledger.hashes(of: entry))
    }

    mutating func reserveCapacity(entries count: Int, hashes hashCount: Int) {
        entries.reserveCapacity(count)
        hashes.reserveCapacity(hashCount)
    }

    package init() {}

    /// The ledger sections, by name.
    static let setSection = "set"
    static let filesSection = "files"
    static let layoutsSection = "layouts"
    static let objectsSection = "objects"

    /// The ledger's summary: fingerprint, files and counts, without the objects.
    ///
    /// - Throws: ``SeedError`` when the ledger cannot be read.
    /// - Complexity: O(*f*) in the number of files.
    static func summary(from store: RowStore) throws -> SeedLedger {
        try SeedLedger(sections: store.ledgerSections(named: [setSection, filesSection]), schema: nil)
    }

    /// The record of the set last applied (fingerprint, counts, when and from where), reading neither its files nor
    /// its objects: what tells a launch that the store holds its set.
    static func setRecord(from store: RowStore) throws -> SeedLedger {
        try SeedLedger(sections: store.ledgerSections(named: [setSection]), schema: nil)
    }

    /// The fingerprint of the set last applied, reading nothing else; nil when nothing was ever seeded.
    static func fingerprint(in store: RowStore) throws -> String? {
        try setRecord(from: store).fingerprint
    }

    /// The whole ledger, its objects' slots laid out as `schema` lays out their entities.
    ///
    /// - Complexity: O(*n*) in the number of objects and their slots.
    static func read(from store: RowStore, schema: SeedSchema) throws -> SeedLedger {
        try SeedLedger(sections: store.ledgerSections(named: nil), schema: schema)
    }

    /// The ledger without the objects of the files `unchanged` names (relative paths in byte order): what a later
    /// launch that reads only the other files plans with. Their parts are kept as bytes, to be carried into the next
    /// ledger (``Origins/carried``).
    ///
    /// - Parameter files: The ledger's files, when the caller read them already (a summary of the same fingerprint):
    ///   the files section is then neither read nor decoded again.
    /// - Complexity: O(*n*) in the objects of the other files, plus copying the objects section's bytes.
    static func read(
        from store: RowStore, schema: SeedSchema, carrying unchanged: [String], files: [TemplateSet.FileRecord]? = nil
    ) throws -> SeedLedger {
        let names = files == nil
            ? [setSection, filesSection, layoutsSection, objectsSection] : [setSection, layoutsSection, objectsSection]
        return try SeedLedger(sections: store.ledgerSections(named: names), schema: schema, carrying: unchanged, files: files)
    }

    /// Reads the sections; with a schema, the objects too: every file's, or all but those of the files `unchanged`
    /// names (relative paths in byte order). `files`, when given, stands for the files section.
    init(
        sections: [String: [UInt8]], schema: SeedSchema?, carrying unchanged: [String]? = nil,
        files: [TemplateSet.FileRecord]? = nil
    ) throws {
        if let set = sections[Self.setSection] { try readSet(set) }
        // Stamps serve to find files unchanged before the ledger's objects are read: a ledger read whole takes the
        // files' hashes only.
        if let files {
            fileRecords = files
        } else if let files = sections[Self.filesSection] {
            try readFiles(files, readsStamps: schema == nil)
        }
        guard let schema else { return }
        let layouts = try sections[Self.layoutsSection].map { try Self.layouts($0, schema: schema) } ?? []
        if let bytes = sections[Self.objectsSection] {
            try readObjects(bytes, layouts: layouts, schema: schema, carrying: unchanged)
        }
    }

    /// The error of a ledger that cannot be read, with what to do about it.
    static func unreadable(_ reason: String) -> SeedError {
        SeedError(
            "the store's seed ledger cannot be read (\(reason)); it may have been written by an earlier development version "
                + "of SeedKit or damaged. Seed over it with --force (the templates' values replace the application's "
                + "changes, and the ledger is written anew), or delete the store and seed it afresh")
    }
}

extension SeedLedger {
    // MARK: Set

    private mutating func readSet(_ bytes: [UInt8]) throws {
        guard case .object(let members)? = try? JSONDocument(parsing: bytes).value,
            members["formatVersion"]?.numberValue?.int64Value == Int64(Self.formatVersion)
        else {
            throw Self.unreadable("its set record is not of format version \(Self.formatVersion)")
        }
        fingerprint = members["fingerprint"]?.stringValue
        appliedAt = members["appliedAt"]?.stringValue
        templates = members["templates"]?.stringValue
        if case .object(let counts)? = members["counts"] {
            for (entity, count) in counts { objectCounts[entity] = count.numberValue?.int64Value.map(Int.init) ?? 0 }
        }
    }

    /// The version of the ledger's form this SeedKit writes and reads; nothing released wrote another.
    static let formatVersion = 4

    func setBytes() -> [UInt8] {
        var counts = JSONObject()
        for (entity, count) in objectCounts.sorted(by: { $0.key < $1.key }) { counts[entity] = .number(JSONNumber(Int64(count))) }
        let set: JSON = .object([
            "formatVersion": .number(JSONNumber(Int64(Self.formatVersion))), "fingerprint": fingerprint.map(JSON.string) ?? .null,
            "appliedAt": appliedAt.map(JSON.string) ?? .null, "templates": templates.map(JSON.string) ?? .null,
            "counts": .object(counts),
        ])
        return set.serialized(style: .canonical)
    }

    // MARK: Objects

    /// How a ledger laid out one entity's slot hashes, mapped onto the schema read with: the entity it is now (nil for
    /// one the model no longer has, whose entries are dropped), where each recorded hash goes, and the hashes of the
    /// slots none was recorded for.
    struct Layout {
        let entity: Int?
        let recordedCount: Int
        let targets: [Int?]
        let fresh: [UInt64]
    }

    /// The layout of an entity's entries recorded under `entityName` with these slot names: slots and entity are found
    /// by name and alias; a slot no hash was recorded for gets the hash of what a migration leaves in it (its default,
    /// null, or no members).
    private static func layout(entityName: String, slotNames names: [String], schema: SeedSchema) -> Layout {
        guard let entity = schema.ordinal(of: entityName)
            ?? schema.model.entities.firstIndex(where: { $0.declaration.aliases.contains(entityName) })
        else { return Layout(entity: nil, recordedCount: names.count, targets: [], fresh: []) }
        let slots = schema.entities[entity]
        return Layout(
            entity: entity, recordedCount: names.count, targets: names.map { slots.slot(named: $0) },
            fresh: (0..<slots.slotCount).map { SlotHash.migrated(slot: $0, of: slots) })
    }

    /// The layouts section: per entity of the schema that wrote it, its name and slot names.
    static func layouts(_ bytes: [UInt8], schema: SeedSchema) throws -> [Layout] {
        var reader = LedgerReader(bytes: bytes, section: layoutsSection)
        var layouts: [Layout] = []
        while !reader.isAtEnd {
            let name = try reader.text()
            let names = try (0..<reader.count()).map { _ in try reader.text() }
            layouts.append(layout(entityName: name, slotNames: names, schema: schema))
        }
        return layouts
    }

    /// Reads one entry: the key's kind, root (but for identity keys, whose root is the entity's), text, the row id,
    /// and a hash per recorded slot; an entry of an entity the model no longer has is read past. Returns its key.
    mutating func readEntry(_ reader: inout LedgerReader, layout: Layout, schema: SeedSchema) throws -> SeedKey? {
        let kind = try reader.byte()
        guard let keyKind = SeedKey.Kind(rawValue: kind) else { throw Self.unreadable("an unknown kind of key \(kind)") }
        guard let entity = layout.entity else {
            if keyKind != .identity { _ = try reader.textBytes() }
            _ = try reader.textBytes()
            _ = try reader.varint()
            try reader.skip(8 * layout.recordedCount)
            return nil
        }
        let root = keyKind == .identity ? schema.entities[entity].entity.rootName : try reader.text()
        let key = SeedKey(kind: keyKind, root: root, text: try reader.text())
        let rowID = Int64(bitPattern: try reader.varint())
        let start = hashes.count
        hashes.append(contentsOf: layout.fresh)
        for target in layout.targets {
            let hash = try reader.word()
            if let target { hashes[start + target] = hash }
        }
        entries.append(
            Entry(key: key, entity: Int32(entity), rowID: rowID, hashes: start, hashCount: Int32(layout.fresh.count)))
        return key
    }
}

/// Reads a ledger section front to back, every read checked against its end.
struct LedgerReader {
    private let bytes: [UInt8]
    private let section: String
    /// Where the next read starts, and where the bytes read end.
    private(set) var offset: Int
    private let end: Int

    init(bytes: [UInt8], section: String) {
        self.init(bytes: bytes, section: section, range: 0..<bytes.count)
    }

    /// A reader of `range` of the bytes.
    init(bytes: [UInt8], section: String, range: Range<Int>) {
        self.bytes = bytes
        self.section = section
        offset = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { offset == end }

    mutating func byte() throws -> UInt8 {
        guard offset < end else { throw damage("it ends in the middle of an entry") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            let byte = try byte()
            value |= UInt64(byte & 0x7f) << UInt64(shift)
            if byte < 0x80 { return value }
        }
        throw damage("a number longer than 64 bits")
    }

    mutating func count() throws -> Int {
        let value = try varint()
        guard value <= UInt64(end - offset) else { throw damage("a count larger than the section") }
        return Int(value)
    }

    mutating func text() throws -> String {
        let utf8 = try textBytes()
        let text = String(decoding: utf8, as: UTF8.self)
        // Decoding repairs invalid UTF-8, which then reads back as other bytes.
        guard text.hasSameBytes(as: utf8) else { throw damage("a text is not UTF-8") }
        return text
    }

    /// A text's bytes, not decoded: for texts read as ASCII numbers, or stepped over.
    mutating func textBytes() throws -> ArraySlice<UInt8> {
        let length = try count()
        return try take(length)
    }

    /// The next `count` bytes, as they are.
    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= end - offset else { throw damage("it ends in the middle of an entry") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Steps over `count` bytes.
    mutating func skip(_ count: Int) throws {
        _ = try take(count)
    }

    /// A 64-bit word, little-endian.
    mutating func word() throws -> UInt64 {
        guard end - offset >= 8 else { throw damage("it ends in the middle of a hash") }
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[offset + shift]) << UInt64(8 * shift) }
        offset += 8
        return value
    }

    func damage(_ problem: String) -> SeedError {
        SeedLedger.unreadable("section \(section): \(problem)")
    }
}
