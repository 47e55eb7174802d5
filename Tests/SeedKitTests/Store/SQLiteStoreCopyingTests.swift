import Foundation
import Testing
import SeedKit

/// `SQLiteStore.inMemory(copying:)`: a store in memory that starts as a copy of another.
@Suite("SQLiteStore: copies in memory")
struct SQLiteStoreCopyingTests {
    /// The copy holds the store's objects and exports alike; each store's later saves are its own.
    @Test func theCopyHoldsTheStoresObjectsAndGoesItsOwnWay() throws {
        let (store, _) = try Fixtures.savedCompany()
        let copy = try SQLiteStore.inMemory(copying: store)
        #expect(copy.model == store.model)
        #expect(try GraphExport().document(of: copy) == GraphExport().document(of: store))

        let context = copy.newContext()
        let ann = try #require(context.object("Employee", identity: ["email": "ann@example.com"]) as? Employee)
        #expect(ann.department?.name == "Sales")
        ann.name = "Anna"
        let bo = Employee(context: context)
        (bo.name, bo.email, bo.department) = ("Bo", "bo@example.com", ann.department)
        try context.save()
        #expect(try copy.newContext().fetch("Employee").count == 2)
        #expect(try store.newContext().fetch("Employee").count == 1)
        let original = try #require(store.newContext().object("Employee", identity: ["email": "ann@example.com"]) as? Employee)
        #expect(original.name == "Ann")
    }

    /// A store file of 8 KiB pages, as a seeded store is built, copies into memory and opens as a store: its metadata
    /// is the store's, so the copy needs no schema change.
    @Test func aStoreFileCopiesIntoMemory() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("built.sqlite").path
        let model = try Fixtures.sampleModel()
        let creation = try SQLiteStore.create(atomicallyAt: path, model: model) { store -> Bool in
            let context = store.newContext()
            try Fixtures.insertSampleCompany(into: context)
            try context.save()
            return true
        }
        guard case .created = creation else {
            Issue.record("expected the store to be created, got \(creation)")
            return
        }
        let store = try SQLiteStore(path: path, model: model)
        let copy = try SQLiteStore.inMemory(copying: store)
        #expect(try SQLiteTesting.firstValue(copy.connection, "PRAGMA page_size") == .integer(8192))
        #expect(
            try SQLiteTesting.firstValue(copy.connection, #"SELECT "value" FROM "_seedkit_metadata" WHERE "key" = 'modelFingerprint'"#)
                == SQLiteTesting.firstValue(store.connection, #"SELECT "value" FROM "_seedkit_metadata" WHERE "key" = 'modelFingerprint'"#))
        #expect(try GraphExport().document(of: copy) == GraphExport().document(of: store))
    }

    /// A store whose own transaction is writing is not copied half-written; once it commits, the copy has its rows.
    @Test func aStoreBeingWrittenIsRefused() throws {
        let (store, _) = try Fixtures.savedCompany()
        try store.connection.inTransaction(.immediate) {
            try store.connection.execute(sql: #"DELETE FROM "Employee""#)
            let error = try #require(throws: DatabaseError.self) { try SQLiteStore.inMemory(copying: store) }
            #expect(error.resultCode == .busy && error.message.contains("this connection's transaction"))
        }
        let copy = try SQLiteStore.inMemory(copying: store)
        #expect(try copy.newContext().fetch("Employee").isEmpty)
        #expect(try copy.newContext().fetch("Department").count == 1)
    }
}
