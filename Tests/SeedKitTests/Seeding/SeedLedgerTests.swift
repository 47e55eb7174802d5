import Foundation
import Testing
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding

/// The ledger's storage: objects packed per entity, the format before it, and the per-entity counts a later launch
/// that finds its set applied reports.
@Suite("Seed ledger")
struct SeedLedgerTests {
    private static func ledger(items: Int, groups: Int) -> SeedLedger {
        var ledger = SeedLedger()
        ledger.fingerprint = "f\(items)"
        ledger.templates = "Templates"
        for index in 0..<items { ledger.objects["Item[\(index)]"] = .init(entity: "Item", rowID: Int64(index), hash: StableHash.hex(of: [UInt8(index % 256)])) }
        for index in 0..<groups { ledger.objects["Group[\(index)]"] = .init(entity: "Group", rowID: Int64(index), hash: StableHash.hex(of: [UInt8(index % 256)])) }
        return ledger
    }

    @Test func countsAreWrittenWithTheLedger() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(try SeedLedger.objectCounts(in: connection) == [:])
        try Self.ledger(items: 5, groups: 2).write(to: connection)
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 5, "Group": 2])
        try Self.ledger(items: 3, groups: 0).write(to: connection)
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 3])
        // The counts the launch reads are the written ones, not those of the objects.
        try connection.execute(sql: "DELETE FROM \"\(SeedLedger.packedObjectsTable)\" WHERE \"entity\" = 'Item'")
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 3])
    }

    /// A store seeded before the counts table existed has none: its objects are counted.
    @Test func aLedgerWithoutCountsIsCounted() throws {
        let connection = try SQLiteConnection.inMemory()
        try Self.ledger(items: 4, groups: 1).write(to: connection)
        try connection.execute(sql: "DROP TABLE \"\(SeedLedger.countsTable)\"")
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 4, "Group": 1])
    }

    /// An older SeedKit rewrites the ledger without knowing the counts table: the counts left over are not its set's.
    @Test func countsOfAnotherSetRowAreIgnored() throws {
        let connection = try SQLiteConnection.inMemory()
        try Self.ledger(items: 4, groups: 1).write(to: connection)
        try connection.execute(sql: """
            DELETE FROM "\(SeedLedger.packedObjectsTable)" WHERE "entity" = 'Group';
            UPDATE "\(SeedLedger.setsTable)" SET "applied_at" = '2001-01-01 00:00:00';
            """)
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 4])
        try connection.execute(sql: "UPDATE \"\(SeedLedger.setsTable)\" SET \"fingerprint\" = 'other'")
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 4])
    }

    @Test func aLedgerReadsBackAsWritten() throws {
        let connection = try SQLiteConnection.inMemory()
        var ledger = SeedLedger()
        ledger.fingerprint = "f"
        ledger.templates = "Templates"
        ledger.files = ["a.template": "0123456789abcdef", "b/c.template": "fedcba9876543210"]
        let keys = [
            "Employee[\"ann@example.com\"]", "Ville[\"Zürich\"]", "Note#0", "", " ", "'", "\"", "😀/0", "a\u{0}b",
            String(repeating: "long key ", count: 100),
        ]
        for (index, key) in keys.enumerated() {
            ledger.objects[key] = .init(entity: "E\(index % 3)", rowID: Int64(index) * 1_000_003, hash: StableHash.hex(of: Array(key.utf8)))
        }
        ledger.objects["Low"] = .init(entity: "E0", rowID: -1, hash: "0000000000000000")
        ledger.objects["High"] = .init(entity: "E0", rowID: .max, hash: "ffffffffffffffff")
        // Hashes that are not 16 lowercase hex digits, as a caller may give: kept as text.
        ledger.objects["Upper"] = .init(entity: "Text", rowID: 1, hash: "0123456789ABCDEF")
        ledger.objects["Short"] = .init(entity: "Text", rowID: 2, hash: "h")
        ledger.objects["Empty"] = .init(entity: "Text", rowID: 3, hash: "")
        ledger.objects["Hex"] = .init(entity: "Text", rowID: 4, hash: "0123456789abcdef")
        for index in 0..<300 { ledger.objects["Many\(index)"] = .init(entity: "Entity\(index)", rowID: Int64(index), hash: "é\(index)") }
        try ledger.write(to: connection)
        let read = try SeedLedger.read(from: connection)
        #expect(read.objects == ledger.objects)
        #expect(read.files == ledger.files)
        #expect(read.fingerprint == "f")
        #expect(read.templates == "Templates")
        // One row per entity.
        let rows = try connection.prepare(sql: "SELECT count(*) FROM \"\(SeedLedger.packedObjectsTable)\"")
        #expect(try rows.step() && rows.int(at: 0) == 304)
    }

    @Test func anEmptyLedgerReadsBackEmpty() throws {
        let connection = try SQLiteConnection.inMemory()
        try Self.ledger(items: 3, groups: 1).write(to: connection)
        var empty = SeedLedger()
        empty.fingerprint = "empty"
        empty.templates = "Templates"
        try empty.write(to: connection)
        let read = try SeedLedger.read(from: connection)
        #expect(read.objects.isEmpty)
        #expect(read.fingerprint == "empty")
        #expect(try SeedLedger.objectCounts(in: connection) == [:])
    }

    /// A store written before the packed table: one row per object, read as before; the next write replaces it.
    @Test func aLedgerOfOneRowPerObjectIsRead() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: """
            CREATE TABLE "_seedkit_seed_sets" ("fingerprint" TEXT NOT NULL, "applied_at" TEXT NOT NULL, "templates" TEXT NOT NULL);
            CREATE TABLE "_seedkit_seed_files" ("path" TEXT PRIMARY KEY, "hash" TEXT NOT NULL);
            CREATE TABLE "_seedkit_seed_objects" ("key" TEXT PRIMARY KEY, "entity" TEXT NOT NULL, "row_id" INTEGER NOT NULL, "hash" TEXT NOT NULL);
            INSERT INTO "_seedkit_seed_sets" VALUES ('old', '2025-01-01 00:00:00', 'Templates');
            INSERT INTO "_seedkit_seed_files" VALUES ('a.template', 'cbf29ce484222325');
            INSERT INTO "_seedkit_seed_objects" VALUES ('Item["a"]', 'Item', 1, 'af63dc4c8601ec8c'), ('Item["b"]', 'Item', 2, 'h'),
                ('Group["g"]', 'Group', 7, '0000000000000001');
            """)
        let old = try SeedLedger.read(from: connection)
        #expect(old.fingerprint == "old")
        #expect(old.files == ["a.template": "cbf29ce484222325"])
        #expect(old.objects == [
            "Item[\"a\"]": .init(entity: "Item", rowID: 1, hash: "af63dc4c8601ec8c"),
            "Item[\"b\"]": .init(entity: "Item", rowID: 2, hash: "h"),
            "Group[\"g\"]": .init(entity: "Group", rowID: 7, hash: "0000000000000001"),
        ])
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 2, "Group": 1])

        var next = old
        next.objects["Item[\"c\"]"] = .init(entity: "Item", rowID: 3, hash: "0000000000000003")
        try next.write(to: connection)
        let tables = try connection.prepare(sql: "SELECT count(*) FROM sqlite_master WHERE name = '\(SeedLedger.objectRowsTable)'")
        #expect(try tables.step() && tables.int(at: 0) == 0)
        #expect(try SeedLedger.read(from: connection).objects == next.objects)
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 3, "Group": 1])
    }

    /// A SeedKit that knows only rows per object rewrites the ledger of a packed store: its rows are the ledger.
    @Test func rowsPerObjectWrittenLaterAreTheLedger() throws {
        let connection = try SQLiteConnection.inMemory()
        try Self.ledger(items: 3, groups: 1).write(to: connection)
        try connection.execute(sql: """
            CREATE TABLE "_seedkit_seed_objects" ("key" TEXT PRIMARY KEY, "entity" TEXT NOT NULL, "row_id" INTEGER NOT NULL, "hash" TEXT NOT NULL);
            INSERT INTO "_seedkit_seed_objects" VALUES ('Item["z"]', 'Item', 9, 'h');
            """)
        #expect(try SeedLedger.read(from: connection).objects == ["Item[\"z\"]": .init(entity: "Item", rowID: 9, hash: "h")])
    }

    /// Damaged blobs are reported, naming the entity and the problem, and nothing is read.
    @Test(arguments: [
        ("X''", "ends in the middle"),
        ("X'09'", "unknown hash form 9"),
        ("substr(\"entries\", 1, length(\"entries\") - 1)", "ends in the middle"),
        ("\"entries\" || X'05'", "runs past its end"),
        ("\"entries\" || X'01FF'", "not UTF-8"),
        ("X'01' || X'FFFFFFFFFFFFFFFFFFFF'", "longer than 64 bits"),
    ])
    func aDamagedBlobIsAnError(entries: String, problem: String) throws {
        let connection = try SQLiteConnection.inMemory()
        try Self.ledger(items: 3, groups: 1).write(to: connection)
        try connection.execute(sql: "UPDATE \"\(SeedLedger.packedObjectsTable)\" SET \"entries\" = \(entries) WHERE \"entity\" = 'Item'")
        let error = #expect(throws: SeedError.self) { try SeedLedger.read(from: connection) }
        #expect(error?.message.contains("the seed ledger is damaged: the entries of Item") == true, "\(String(describing: error))")
        #expect(error?.message.contains(problem) == true, "\(String(describing: error))")
    }

    @Test func entriesOtherThanTheirCountAreAnError() throws {
        let connection = try SQLiteConnection.inMemory()
        try Self.ledger(items: 3, groups: 1).write(to: connection)
        try connection.execute(sql: "UPDATE \"\(SeedLedger.packedObjectsTable)\" SET \"objects\" = 4 WHERE \"entity\" = 'Item'")
        let error = #expect(throws: SeedError.self) { try SeedLedger.read(from: connection) }
        #expect(error?.message.contains("3 entries where 4 were written") == true, "\(String(describing: error))")
    }

    @Test func aKeyInTwoBlobsIsAnError() throws {
        let connection = try SQLiteConnection.inMemory()
        try Self.ledger(items: 3, groups: 1).write(to: connection)
        try connection.execute(sql: """
            INSERT INTO "\(SeedLedger.packedObjectsTable)" SELECT 'Other', "objects", "entries" FROM "\(SeedLedger.packedObjectsTable)" WHERE "entity" = 'Item'
            """)
        let error = #expect(throws: SeedError.self) { try SeedLedger.read(from: connection) }
        #expect(error?.message.contains("is in the ledger twice") == true, "\(String(describing: error))")
    }

    @Test func hashTextRoundTrips() {
        for value: UInt64 in [0, 1, 0xf, 0x10, 0xdead_beef, .max, 0xcbf2_9ce4_8422_2325] {
            let text = StableHash.text(of: value)
            #expect(text == String(repeating: "0", count: 16 - String(value, radix: 16).count) + String(value, radix: 16))
            #expect(StableHash.value(ofText: text) == value)
        }
        for text in ["", "h", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg", "０123456789abcde"] {
            #expect(StableHash.value(ofText: text) == nil, "\(text)")
        }
    }
}
