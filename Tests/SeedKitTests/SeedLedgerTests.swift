import Foundation
import Testing
@testable import SeedKit

/// The ledger's per-entity counts, which a later launch that finds its set applied reports.
@Suite("Seed ledger")
struct SeedLedgerTests {
    private static func ledger(items: Int, groups: Int) -> SeedLedger {
        var ledger = SeedLedger()
        ledger.fingerprint = "f\(items)"
        ledger.templates = "Templates"
        for index in 0..<items { ledger.objects["Item[\(index)]"] = .init(entity: "Item", rowID: Int64(index), hash: "h") }
        for index in 0..<groups { ledger.objects["Group[\(index)]"] = .init(entity: "Group", rowID: Int64(index), hash: "h") }
        return ledger
    }

    @Test func countsAreWrittenWithTheLedger() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(try SeedLedger.objectCounts(in: connection) == [:])
        try Self.ledger(items: 5, groups: 2).write(to: connection)
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 5, "Group": 2])
        try Self.ledger(items: 3, groups: 0).write(to: connection)
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 3])
        // The counts the launch reads are the written ones, not a count of the objects table.
        try connection.execute(sql: "DELETE FROM \"\(SeedLedger.objectsTable)\" WHERE \"key\" = 'Item[0]'")
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
            DELETE FROM "\(SeedLedger.objectsTable)" WHERE "entity" = 'Group';
            UPDATE "\(SeedLedger.setsTable)" SET "applied_at" = '2001-01-01 00:00:00';
            """)
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 4])
        try connection.execute(sql: "UPDATE \"\(SeedLedger.setsTable)\" SET \"fingerprint\" = 'other'")
        #expect(try SeedLedger.objectCounts(in: connection) == ["Item": 4])
    }
}
