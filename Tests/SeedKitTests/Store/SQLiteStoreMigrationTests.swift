import Foundation
import Testing
import SeedKit

/// What migration does to an SQLite file; what it does to any store is in ``StoreMigrationTests``.
@Suite("SQLiteStore: migration and bad files")
struct SQLiteStoreMigrationTests {
    private func model(_ attributes: [AttributeDescription]) throws -> EntityModel {
        try EntityModel([EntityDescription("Item", identity: ["code"], attributes: [AttributeDescription("code", .string)] + attributes)])
    }

    private func storeWithOneItem(_ model: EntityModel) throws -> String {
        let path = try Fixtures.temporaryStorePath()
        let context = try SQLiteStore(path: path, model: model).newContext()
        try context.insert(model.entities[0].name, values: ["code": "a", "label": "first"])
        try context.save()
        return path
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func refusesDataLossAndLeavesTheFileUntouched() throws {
        let path = try storeWithOneItem(try model([AttributeDescription("label", .string, isOptional: true)]))
        let before = try bytes(path)
        for (changed, key) in [
            (try model([]), "label"),  // dropped
            (try model([AttributeDescription("label", .integer)]), "label"),  // retyped
            (try model([AttributeDescription("label", .string)]), "label"),  // optional → required, no default
        ] {
            let error = try #require(throws: StoreError.self) { try SQLiteStore(path: path, model: changed) }
            #expect(error.kind == .migrationRefused)
            #expect(error.keys == [key])
            #expect(try bytes(path) == before)
        }
        var options = SQLiteStore.Options()
        options.allowsDataLoss = true
        _ = try SQLiteStore(path: path, model: try model([]), options: options)
    }

    @Test func badFilesGiveClearErrorsAndStayUnchanged() throws {
        let directory = try Fixtures.temporaryDirectory()
        let model = try Fixtures.companyModel()
        let text = directory.appendingPathComponent("notes.txt")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: text)
        #expect(throws: DatabaseError.self) { try SQLiteStore(path: text.path, model: model) }
        #expect(try bytes(text.path) == Data(String(repeating: "not a database ", count: 100).utf8))
        #expect(throws: DatabaseError.self) {
            try SQLiteStore(path: directory.appendingPathComponent("missing/store.sqlite").path, model: model)
        }
        let foreign = directory.appendingPathComponent("foreign.sqlite").path
        try SQLiteConnection(path: foreign).execute(sql: "CREATE TABLE t (x)")
        let error = try #require(throws: StoreError.self) { try SQLiteStore(path: foreign, model: model) }
        #expect(error.kind == .notAStore)
    }
}
