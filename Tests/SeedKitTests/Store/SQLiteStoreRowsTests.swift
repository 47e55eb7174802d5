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
}
