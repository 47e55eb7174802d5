import Foundation
import Testing
import SeedKit

/// Filling a store with its indexes built after the rows, inside the caller's transaction.
@Suite("SQLiteStore: bulk loading")
struct SQLiteStoreBulkLoadingTests {
    /// The store's indexes by name, with the SQL that created them.
    private static func indexes(_ store: SQLiteStore) throws -> [String: String] {
        let statement = try store.connection.prepare(
            sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        var indexes: [String: String] = [:]
        while try statement.step() { indexes[statement.text(at: 0)] = statement.text(at: 1) }
        return indexes
    }

    private static func count(_ table: String, _ store: SQLiteStore) throws -> Int {
        let statement = try store.connection.prepare(sql: "SELECT count(*) FROM \(SQLIdentifier.quote(table))")
        return try statement.step() ? statement.int(at: 0) : -1
    }

    @Test func indexesAreDroppedDuringTheBodyAndBuiltAfter() throws {
        let store = try SQLiteStore.inMemory(model: try Fixtures.sampleModel())
        let before = try Self.indexes(store)
        #expect(before["Employee_identity"] != nil && before["Employee_department"] != nil)
        #expect(before["Employee_projects_target"] != nil)
        try store.connection.inTransaction(.immediate) {
            try store.withIndexesBuiltAfter(includingForeignKeys: true) {
                // Every index waits, a join table's of targets too: kept, each join row would go into it at a random
                // place.
                #expect(try Self.indexes(store).isEmpty)
                let context = store.newContext()
                _ = try Fixtures.insertSampleCompany(into: context)
                try context.save()
            }
        }
        #expect(try Self.indexes(store) == before)
        let context = store.newContext()
        #expect(try context.count(FetchRequest("Employee")) > 0)
        // The rebuilt identity index refuses a duplicate as before.
        #expect(throws: DatabaseError.self) {
            try store.connection.execute(sql: "INSERT INTO \"Department\" (\"_entity\", \"name\") SELECT \"_entity\", \"name\" FROM \"Department\" LIMIT 1")
        }
    }

    @Test func foreignKeyIndexesCanStay() throws {
        let store = try SQLiteStore.inMemory(model: try Fixtures.sampleModel())
        let before = try Self.indexes(store)
        try store.connection.inTransaction(.immediate) {
            try store.withIndexesBuiltAfter(includingForeignKeys: false) {
                let during = try Self.indexes(store)
                #expect(during["Employee_identity"] == nil && during["Department_identity"] == nil)
                #expect(during["Employee_department"] == before["Employee_department"])
                #expect(during["Employee_projects_target"] == before["Employee_projects_target"])
            }
        }
        #expect(try Self.indexes(store) == before)
    }

    /// Two rows with one identity: the unique index cannot be built; the error names the identity, and rolling back
    /// leaves the store as it was, indexes included.
    @Test func aDuplicateIdentityFailsTheBuildAndTheRollbackRestoresTheStore() throws {
        let store = try SQLiteStore.inMemory(model: try Fixtures.sampleModel())
        let context = store.newContext()
        _ = try Fixtures.insertSampleCompany(into: context)
        try context.save()
        let before = try Self.indexes(store)
        let departments = try Self.count("Department", store)
        let employees = try Self.count("Employee", store)
        let error = #expect(throws: DatabaseError.self) {
            try store.connection.inTransaction(.immediate) {
                try store.withIndexesBuiltAfter(includingForeignKeys: true) {
                    try store.connection.execute(sql: """
                        INSERT INTO "Department" ("_entity", "name") VALUES ('Department', 'Twice'), ('Department', 'Twice');
                        INSERT INTO "Department" ("_entity", "name") VALUES ('Department', NULL), ('Department', NULL);
                        """)
                }
            }
        }
        #expect(error?.extendedResultCode == .constraintUnique)
        #expect(error?.message.contains("two or more rows of Department have the same identity (name = 'Twice')") == true, "\(String(describing: error))")
        #expect(try Self.indexes(store) == before)
        #expect(try Self.count("Department", store) == departments)
        #expect(try Self.count("Employee", store) == employees)
    }

    @Test func aThrowingBodyLeavesTheIndexesAfterTheRollback() throws {
        struct Stop: Error {}
        let store = try SQLiteStore.inMemory(model: try Fixtures.sampleModel())
        let before = try Self.indexes(store)
        #expect(throws: Stop.self) {
            try store.connection.inTransaction(.immediate) {
                try store.withIndexesBuiltAfter(includingForeignKeys: true) { throw Stop() }
            }
        }
        #expect(try Self.indexes(store) == before)
    }
}
