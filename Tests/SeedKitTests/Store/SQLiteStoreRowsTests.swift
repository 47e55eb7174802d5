import Foundation
import Testing
import SeedKit
import SeedKitStore

/// The store's row interface, as the seeder writes through it: here, the ledger's sections.
@Suite("SQLiteStore: rows and ledger")
struct SQLiteStoreRowsTests {
    /// Each replacement leaves exactly its sections, byte for byte, whether a section keeps its length (rewritten
    /// where it differs), changes it, goes or comes — and a replacement rolled back leaves the one before.
    @Test func theLedgerReadsBackAsLastReplaced() throws {
        struct Abort: Error {}
        let store = try SQLiteStore.inMemory(model: try Fixtures.sampleModel())
        let objects = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) }
        var replacements: [[String: [UInt8]]] = [["set": [1, 2, 3], "objects": objects, "files": []]]
        var edited = objects
        for offset in [0, 8_191, 8_192, 49_999] { edited[offset] &+= 1 }
        replacements.append(["set": [1, 2, 4], "objects": edited, "files": [9]])
        replacements.append(["set": [1, 2, 4], "objects": Array(edited.dropLast(10))])
        replacements.append(["set": [], "objects": Array(edited.dropLast(10)), "layouts": [5, 6]])
        for sections in replacements {
            try store.write { try store.replaceLedger(sections) }
            #expect(try store.ledgerSections(named: nil) == sections)
        }
        #expect(throws: Abort.self) {
            try store.write {
                try store.replaceLedger(["set": [7], "objects": objects])
                throw Abort()
            }
        }
        #expect(try store.ledgerSections(named: nil) == replacements.last!)
        #expect(try store.ledgerSections(named: ["layouts"]) == ["layouts": [5, 6]])
    }

    /// A root entity's row count is the rows of its table, which what an export reads them into is sized for; a root
    /// the store has no table for has none.
    @Test func aRootEntityCountsTheRowsOfItsTable() throws {
        let (store, context) = try Fixtures.savedCompany()
        #expect(try store.rowCount(root: "Department") == 1)
        #expect(try store.rowCount(root: "Employee") == 1)
        for name in ["Support", "Research"] {
            let department = Department(context: context)
            (department.name, department.budget) = (name, 10)
        }
        try context.save()
        #expect(try store.rowCount(root: "Department") == 3)
        #expect(try store.rowCount(root: "Project") == 0)
    }
}
