import Foundation
import Testing
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding

/// The ledger's sections: read back as written, slots found again by name after the model changes, and a ledger that
/// cannot be read refused with what to do.
@Suite("Seed ledger")
struct SeedLedgerTests {
    private static func ledger(schema: SeedSchema, items: Int) throws -> SeedLedger {
        var ledger = SeedLedger()
        ledger.fingerprint = "f\(items)"
        ledger.templates = "Templates"
        ledger.appliedAt = "2024-05-01 09:30:00"
        let stamp = TemplateSet.Stamp(
            size: 12, modified: .init(seconds: 1_714_555_800, nanoseconds: 500_000_000),
            changed: .init(seconds: -1_714_555_800, nanoseconds: 999_999_999), inode: .max)
        ledger.fileRecords = [
            TemplateSet.FileRecord(path: "a.template", hash: 0x0123_4567_89ab_cdef, stamp: stamp),
            TemplateSet.FileRecord(path: "b/c.template", hash: 0xfedc_ba98_7654_3210, stamp: nil),
        ]
        let item = try #require(schema.ordinal(of: "Item"))
        let slots = schema.entities[item]
        for index in 0..<items {
            let hashes = (0..<slots.slotCount).map { UInt64(index * 100 + $0) }
            ledger.append(key: SeedKey(kind: .identity, root: "Item", text: "\(index)"), entity: Int32(item), rowID: Int64(index + 1), hashes: hashes)
        }
        return ledger
    }

    @Test func aLedgerReadsBackAsWritten() throws {
        let schema = SeedSchema(model: try Fixtures.flatModel())
        var ledger = try Self.ledger(schema: schema, items: 3)
        let group = Int32(try #require(schema.ordinal(of: "Group")))
        let keys = ["Zürich", "", " ", "'", "\"", "😀/0", "a\u{0}b", String(repeating: "long key ", count: 100)]
        for (index, text) in keys.enumerated() {
            let hashes = (0..<schema.entities[Int(group)].slotCount).map { _ in UInt64.random(in: 0...UInt64.max) }
            ledger.append(key: SeedKey(kind: .identity, root: "Group", text: text), entity: group, rowID: Int64(-index), hashes: hashes)
        }
        let last = Array(ledger.hashes(of: ledger.entries.last!))
        ledger.append(key: SeedKey(kind: .id, root: "", text: "home"), entity: group, rowID: 99, hashes: last)
        ledger.append(key: SeedKey(ownedBy: "Group", row: 4, relationship: "items", position: 2), entity: group, rowID: Int64.max, hashes: last)
        let read = try SeedLedger(sections: ledger.sections(schema: schema), schema: schema)
        #expect(read.fingerprint == "f3" && read.templates == "Templates" && read.appliedAt == ledger.appliedAt)
        #expect(read.files == ["a.template": "0123456789abcdef", "b/c.template": "fedcba9876543210"])
        // The stamps serve a launch's summary; a ledger read whole takes the hashes.
        #expect(read.fileRecords.map(\.hash) == ledger.fileRecords.map(\.hash) && read.fileRecords.allSatisfy { $0.stamp == nil })
        #expect(read.objectCounts == ["Item": 3, "Group": 10])
        func entries(_ ledger: SeedLedger) -> [String] {
            ledger.entries.map { "\($0.key.kind) \($0.key.root) \(Array($0.key.text.utf8)) \($0.entity) \($0.rowID) \(Array(ledger.hashes(of: $0)))" }.sorted()
        }
        #expect(entries(read) == entries(ledger))
        // The summary reads no object.
        let summary = try SeedLedger(sections: ledger.sections(schema: schema), schema: nil)
        #expect(summary.entries.isEmpty && summary.objectCounts == ["Item": 3, "Group": 10])
        #expect(summary.fileRecords == ledger.fileRecords)
    }

    /// A slot's hash is found by its property's name or alias; a slot the model gained has the hash of what a
    /// migration leaves in it; an entity renamed through an alias keeps its entries.
    @Test func slotsAreFoundByNameAfterTheModelChanges() throws {
        let before = SeedSchema(model: try Fixtures.flatModel())
        let ledger = try Self.ledger(schema: before, items: 1)
        let oldItem = before.entities[try #require(before.ordinal(of: "Item"))]
        let recorded = Array(ledger.hashes(of: ledger.entries[0]))

        var declarations = try Fixtures.flatModel().declarations
        let index = try #require(declarations.firstIndex { $0.name == "Item" })
        declarations[index].name = "Article"
        declarations[index].aliases = ["Item"]
        // "label" renamed "text" (alias "label"); "stock" added with a default.
        let label = try #require(declarations[index].attributes.firstIndex { $0.name == "label" })
        declarations[index].attributes[label] = AttributeDescription("text", .string, isOptional: true, aliases: ["label"])
        declarations[index].attributes.append(AttributeDescription("stock", .integer, defaultValue: .integer(5)))
        for declaration in declarations.indices {
            for relationship in declarations[declaration].relationships.indices where declarations[declaration].relationships[relationship].destination == "Item" {
                declarations[declaration].relationships[relationship].destination = "Article"
            }
        }
        declarations.removeAll { $0.name == "SpecialItem" }
        for declaration in declarations.indices {
            for relationship in declarations[declaration].relationships.indices where declarations[declaration].relationships[relationship].destination == "SpecialItem" {
                declarations[declaration].relationships[relationship].destination = "Article"
            }
        }
        let after = SeedSchema(model: try EntityModel(declarations))
        let read = try SeedLedger(sections: ledger.sections(schema: before), schema: after)
        let entry = try #require(read.entries.first)
        let hashes = Array(read.hashes(of: entry))
        let article = after.entities[Int(entry.entity)]
        #expect(article.entity.name == "Article")
        #expect(entry.key.root == "Article")
        #expect(hashes[try #require(article.slot(named: "text"))] == recorded[try #require(oldItem.slot(named: "label"))])
        #expect(hashes[try #require(article.slot(named: "code"))] == recorded[try #require(oldItem.slot(named: "code"))])
        var hasher = SlotHasher()
        #expect(hashes[try #require(article.slot(named: "stock"))] == hasher.attribute(.integer(5)))
    }

    /// A later launch reads the parts of the changed files alone: the others' entries stay bytes, a key they bear on
    /// is known as theirs, their entries are counted, and the next ledger carries their parts as they were.
    @Test func aLedgerReadWithoutSomeFilesCarriesTheirParts() throws {
        let schema = SeedSchema(model: try Fixtures.flatModel())
        let item = Int32(try #require(schema.ordinal(of: "Item")))
        var ledger = SeedLedger()
        ledger.fileRecords = ["a.template", "b.template", "c.template"].map { TemplateSet.FileRecord(path: $0, hash: 1, stamp: nil) }
        let keys = (1...5).map { SeedKey(kind: .identity, root: "Item", text: "k\($0)") }
        for (index, key) in keys.enumerated() {
            let hashes = (0..<schema.entities[Int(item)].slotCount).map { UInt64(index * 10 + $0) }
            ledger.append(key: key, entity: item, rowID: Int64(index + 1), hashes: hashes)
        }
        // k2 is borne by a and b (its home is a); k3 by b alone; k5 by no file.
        ledger.origins = SeedLedger.Origins(
            modelFingerprint: schema.model.fingerprint,
            files: [
                .init(path: "a.template", isSettled: true, keys: .init([keys[0], keys[1]])),
                .init(path: "b.template", isSettled: false, keys: .init([keys[1], keys[2]])),
                .init(path: "c.template", isSettled: true, keys: .init([keys[3]])),
            ])
        let sections = ledger.sections(schema: schema)
        func texts(_ ledger: SeedLedger) -> [String] { ledger.entries.map(\.key.text).sorted() }
        #expect(texts(try SeedLedger(sections: sections, schema: schema)) == ["k1", "k2", "k3", "k4", "k5"])

        let partial = try SeedLedger(sections: sections, schema: schema, carrying: ["b.template"])
        #expect(texts(partial) == ["k1", "k2", "k4", "k5"])
        let origins = try #require(partial.origins)
        #expect(origins.files.map(\.path) == ["a.template", "c.template"])
        #expect(origins.files.map { $0.keys.map(\.text) } == [["k1", "k2"], ["k4"]])
        let carried = try #require(origins.carried)
        #expect(keys.map(carried.isBorneByCarriedFile) == [false, true, true, false, false])
        #expect(carried.isSettled == [true, false, true] && carried.counts == ["Item": 1])

        // The next ledger: a changed, b carried, c gone, d new.
        var next = SeedLedger()
        next.fileRecords = ["a.template", "b.template", "d.template"].map { TemplateSet.FileRecord(path: $0, hash: 2, stamp: nil) }
        for entry in partial.entries where entry.key.text != "k4" { next.append(entry, of: partial) }
        next.origins = SeedLedger.Origins(
            modelFingerprint: schema.model.fingerprint,
            files: [
                .init(path: "a.template", isSettled: true, keys: .init([keys[0]])),
                .init(path: "d.template", isSettled: true, keys: .init([keys[1]])),
            ],
            carried: carried)
        let written = next.sections(schema: schema)
        let again = try SeedLedger(sections: written, schema: schema)
        #expect(texts(again) == ["k1", "k2", "k3", "k5"] && again.objectCounts == ["Item": 4])
        #expect(again.entries.first { $0.key.text == "k3" }.map { Array(again.hashes(of: $0)) } == Array(ledger.hashes(of: ledger.entries[2])))
        let nextPartial = try SeedLedger(sections: written, schema: schema, carrying: ["a.template", "d.template"])
        #expect(texts(nextPartial) == ["k3", "k5"] && nextPartial.origins?.files.map(\.path) == ["b.template"])
        #expect(nextPartial.origins?.files.first?.keys.map(\.text) == ["k3", "k2"])
        #expect(nextPartial.origins?.carried?.isBorneByCarriedFile(keys[1]) == true)
        #expect(nextPartial.origins?.carried?.isSettled == [true, false, true])
    }

    /// A ledger of an earlier development form (format 3: stamps as decimal text) is refused, saying what to do:
    /// nothing released wrote it, so there is no second reader for it.
    @Test func aLedgerOfAnEarlierFormatIsRefusedWithTheWayForward() throws {
        let schema = SeedSchema(model: try Fixtures.flatModel())
        var sections = try Self.ledger(schema: schema, items: 2).sections(schema: schema)
        sections["set"] = Array(#"{"formatVersion":3,"fingerprint":"f","counts":{"Item":1}}"#.utf8)
        let error = try #require(throws: SeedError.self) { try SeedLedger(sections: sections, schema: schema) }
        #expect(error.message.contains("not of format version 4"))
        #expect(error.message.contains("--force") && error.message.contains("delete the store"))
    }

    /// The files section reads back as written — paths sharing any part with the one before, stamps at every
    /// magnitude their numbers take — in about 40 bytes a file for a set of numbered files, and its bytes cut short
    /// anywhere, or a path sharing more than the one before has, are an error, never a crash.
    @Test func theFilesSectionReadsBackAsWritten() throws {
        var generator = SystemRandomNumberGenerator()
        let signed: [Int64] = [0, 1, -1, 127, 128, 999_999_999, 1_714_555_800, .max, .min]
        func any() -> Int64 {
            Bool.random(using: &generator) ? signed.randomElement(using: &generator)! : Int64.random(in: .min ... .max)
        }
        let names = ["a", "a/b", "a/b.template", "a/bc", "ä/ö", "Zürich/😀.template", "a\u{0}b", "b", "employees/e1", "employees/e10"]
        var records = (0..<500).map { index in
            let path = names.randomElement(using: &generator)! + String(index, radix: 7)
            let stamp = Bool.random(using: &generator) ? nil : TemplateSet.Stamp(
                size: any(), modified: .init(seconds: any(), nanoseconds: any()),
                changed: .init(seconds: any(), nanoseconds: any()), inode: UInt64.random(in: 0 ... .max, using: &generator))
            return TemplateSet.FileRecord(path: path, hash: UInt64.random(in: 0 ... .max, using: &generator), stamp: stamp)
        }
        records.sort { $0.path.precedesInBytes($1.path) }
        let bytes = SeedLedger.filesBytes(of: records)
        var read = SeedLedger()
        try read.readFiles(bytes, readsStamps: true)
        #expect(read.fileRecords == records)
        var unstamped = SeedLedger()
        try unstamped.readFiles(bytes, readsStamps: false)
        #expect(unstamped.fileRecords == records.map { TemplateSet.FileRecord(path: $0.path, hash: $0.hash, stamp: nil) })
        // Files out of byte order (no ledger writes them so) are read back in it.
        var shuffled = SeedLedger()
        try shuffled.readFiles(SeedLedger.filesBytes(of: records.shuffled(using: &generator)), readsStamps: true)
        #expect(shuffled.fileRecords == records)
        let fewer = SeedLedger.filesBytes(of: Array(records.prefix(40)))
        for end in 0..<fewer.count {
            var cut = SeedLedger()
            // A cut at a file's end reads as the files before it; any other is an error.
            do { try cut.readFiles(Array(fewer[..<end]), readsStamps: true) } catch { continue }
            #expect(cut.fileRecords == Array(records.prefix(cut.fileRecords.count)))
        }
        // The last file sharing more of its path than the bytes after that count, its stamp none (a file read just
        // after it was written).
        let sharingMuch = [
            TemplateSet.FileRecord(path: "departments/engineering/platform/a.template", hash: 1, stamp: nil),
            TemplateSet.FileRecord(path: "departments/engineering/platform/b.template", hash: 2, stamp: nil),
        ]
        var sharingMuchRead = SeedLedger()
        try sharingMuchRead.readFiles(SeedLedger.filesBytes(of: sharingMuch), readsStamps: true)
        #expect(sharingMuchRead.fileRecords == sharingMuch)
        var sharingTooMuch = SeedLedger()
        #expect(throws: SeedError.self) { try sharingTooMuch.readFiles([3, 1, 0x61] + [UInt8](repeating: 0, count: 9), readsStamps: true) }
        // A path whose bytes are no UTF-8: its own, or the previous path's first byte of "ä" before an ASCII rest.
        let hashAndNoStamp = [UInt8](repeating: 0, count: 9)
        for section in [[0, 1, 0xFF] + hashAndNoStamp, [0, 2, 0xC3, 0xA4] + hashAndNoStamp + [1, 1, 0x61] + hashAndNoStamp] {
            var notUTF8 = SeedLedger()
            let error = try #require(throws: SeedError.self) { try notUTF8.readFiles(section, readsStamps: true) }
            #expect(error.message.contains("a path is not UTF-8"))
        }
        // A number of more than ten bytes, and one the section ends in.
        let stamped = [0, 1, 0x61] + [UInt8](repeating: 0, count: 8) + [1]
        for (numbers, problem) in [
            ([UInt8](repeating: 0x80, count: 10) + [1], "a number longer than 64 bits"), ([0x80, 0x80], "it ends in the middle"),
        ] {
            var damaged = SeedLedger()
            let error = try #require(throws: SeedError.self) { try damaged.readFiles(stamped + numbers, readsStamps: true) }
            #expect(error.message.contains(problem))
        }

        let modified = TemplateSet.Stamp.Time(seconds: 1_795_790_209, nanoseconds: 374_145_182)
        let numbered = (0..<10_000).map { index in
            TemplateSet.FileRecord(
                path: "employees/e\(String(100_000 + index).dropFirst()).template", hash: UInt64.random(in: 0 ... .max, using: &generator),
                stamp: TemplateSet.Stamp(size: 470, modified: modified, changed: modified, inode: 6_138_170 + UInt64(index)))
        }
        #expect(SeedLedger.filesBytes(of: numbered).count < 40 * numbered.count)
    }

    @Test(arguments: [
        (Array("not json".utf8), "set"), ([0x80], "files"), ([5, 1, 0x61], "objects"), ([0], "objects"),
        ([1, 1, 0x61, 1, 9], "layouts"),
    ])
    func damagedSectionsAreErrorsThatSayWhatToDo(bytes: [UInt8], section: String) throws {
        let schema = SeedSchema(model: try Fixtures.flatModel())
        var sections = try Self.ledger(schema: schema, items: 2).sections(schema: schema)
        sections[section] = bytes
        let error = try #require(throws: SeedError.self) { try SeedLedger(sections: sections, schema: schema) }
        #expect(error.message.contains("cannot be read") && error.message.contains("--force") && error.message.contains("delete the store"))
    }

    /// A ledger section that holds something other than bytes (a store edited by hand) is a ledger that cannot be
    /// read, saying which section and what to do, not an SQLite error; a forced seed writes the ledger anew.
    @Test(arguments: ["5", "'text'", "1.5"])
    func aSectionThatIsNotBytesIsRefusedWithTheWayForward(value: String) throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        let templates = directory.appendingPathComponent("Templates")
        #expect(try Seeder(storePath: path).seed(templates: templates).status == .applied)
        do {
            let store = try SQLiteStore(path: path, model: Fixtures.sampleModel())
            try store.connection.execute(sql: "UPDATE \"_seedkit_ledger\" SET \"bytes\" = \(value) WHERE \"section\" = 'set'")
        }
        let error = try #require(throws: SeedError.self) { try Seeder(storePath: path).seed(templates: templates) }
        #expect(error.message.contains("cannot be read (its 'set' section holds a value of type"), "\(error.message)")
        #expect(error.message.contains("--force") && error.message.contains("delete the store"))
        #expect(try Seeder(storePath: path).seed(templates: templates, options: SeedOptions(force: true)).status == .applied)
        #expect(try Seeder(storePath: path).seed(templates: templates).status == .unchanged)
    }

    /// A store whose ledger is in the form of an earlier development version is refused, saying what to do; a forced
    /// seed writes the ledger anew and drops the earlier form's tables.
    @Test func anEarlierLedgerIsRefusedWithTheWayForward() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        let templates = directory.appendingPathComponent("Templates")
        do {
            let store = try SQLiteStore(path: path, model: Fixtures.sampleModel())
            try store.connection.execute(sql: """
                CREATE TABLE "_seedkit_seed_sets" ("fingerprint" TEXT NOT NULL, "applied_at" TEXT NOT NULL, "templates" TEXT NOT NULL);
                INSERT INTO "_seedkit_seed_sets" VALUES ('0', '2024-01-01 00:00:00', 'Templates');
                """)
        }
        let error = try #require(throws: SeedError.self) { try Seeder(storePath: path).seed(templates: templates) }
        #expect(error.message.contains("earlier development version") && error.message.contains("--force"))
        #expect(throws: SeedError.self) { try Seeder(storePath: path).ledger() }
        #expect(try Seeder(storePath: path).seed(templates: templates, options: SeedOptions(force: true)).status == .applied)
        #expect(try Seeder(storePath: path).seed(templates: templates).status == .unchanged)
        let store = try SQLiteStore(path: path, model: Fixtures.sampleModel())
        let tables = try store.connection.prepare(sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE '_seedkit_seed%'")
        #expect(try tables.step() && tables.int64(at: 0) == 0)
    }
}
