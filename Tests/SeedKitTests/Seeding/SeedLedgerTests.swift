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
        let stampText = "12 1714555800.5 -1714555800.999999999 18446744073709551615"
        let stamp = try #require(Array(stampText.utf8).withUnsafeBufferPointer(TemplateSet.Stamp.init(text:)))
        #expect(stamp.text == stampText)
        for damaged in ["", "x", "1 2.3 4.5", "1 2.3 4.5 -6", "1 2.3 4.5 6 ", "1 2.3 4 5 6", "99999999999999999999 1.1 1.1 1"] {
            #expect(Array(damaged.utf8).withUnsafeBufferPointer(TemplateSet.Stamp.init(text:)) == nil, "\(damaged)")
        }
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
        #expect(read.fileRecords == ledger.fileRecords && read.objectCounts == ["Item": 3, "Group": 10])
        func entries(_ ledger: SeedLedger) -> [String] {
            ledger.entries.map { "\($0.key.kind) \($0.key.root) \(Array($0.key.text.utf8)) \($0.entity) \($0.rowID) \(Array(ledger.hashes(of: $0)))" }.sorted()
        }
        #expect(entries(read) == entries(ledger))
        // The summary reads no object.
        let summary = try SeedLedger(sections: ledger.sections(schema: schema), schema: nil)
        #expect(summary.entries.isEmpty && summary.objectCounts == ["Item": 3, "Group": 10])
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

    @Test(arguments: [
        (Array("not json".utf8), "set"), ([0x80], "files"), ([5, 1, 0x61], "entity:Item"), ([0], "entity:Item"),
        ([1, 1, 0x61, 1, 9], "entity:Item"),
    ])
    func damagedSectionsAreErrorsThatSayWhatToDo(bytes: [UInt8], section: String) throws {
        let schema = SeedSchema(model: try Fixtures.flatModel())
        var sections = try Self.ledger(schema: schema, items: 2).sections(schema: schema)
        sections[section] = bytes
        let error = try #require(throws: SeedError.self) { try SeedLedger(sections: sections, schema: schema) }
        #expect(error.message.contains("cannot be read") && error.message.contains("--force") && error.message.contains("delete the store"))
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
