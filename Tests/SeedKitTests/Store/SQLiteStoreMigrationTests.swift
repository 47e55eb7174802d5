import Foundation
import Testing
import SeedKit

@Suite("SQLiteStore: migration and bad files")
struct SQLiteStoreMigrationTests {
    private func model(_ attributes: [AttributeDescription], entityAliases: [String] = [], name: String = "Item", extra: [EntityDescription] = [])
        throws -> EntityModel
    {
        try EntityModel(
            [EntityDescription(name, identity: ["code"], attributes: [AttributeDescription("code", .string)] + attributes, aliases: entityAliases)]
                + extra)
    }

    private func storeWithOneItem(_ model: EntityModel) throws -> String {
        let path = try Fixtures.temporaryStorePath()
        let context = try SQLiteStore(path: path, model: model).newContext()
        try context.insert(model.entities[0].name, values: ["code": "a", "label": "first"])
        try context.save()
        return path
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func addsEntitiesAndAttributesWithDefaults() throws {
        let path = try storeWithOneItem(try model([AttributeDescription("label", .string)]))
        let newer = try model(
            [
                AttributeDescription("label", .string), AttributeDescription("note", .string, isOptional: true),
                AttributeDescription("count", .integer, defaultValue: .integer(7)),
            ], extra: [EntityDescription("Tag", attributes: [AttributeDescription("title", .string)])])
        let context = try SQLiteStore(path: path, model: newer).newContext()
        let item = try #require(context.object("Item", identity: ["code": "a"]))
        #expect(try item.value(forKey: "count") as? Int64 == 7)
        #expect(try item.value(forKey: "note") == nil)
        try context.insert("Tag", values: ["title": "new"])
        try context.save()
    }

    @Test func renamesThroughAliases() throws {
        let path = try storeWithOneItem(try model([AttributeDescription("label", .string)]))
        let renamed = try model([AttributeDescription("title", .string, aliases: ["label"])], entityAliases: ["Item"], name: "Thing")
        let context = try SQLiteStore(path: path, model: renamed).newContext()
        let thing = try #require(context.object("Thing", identity: ["code": "a"]))
        #expect(try thing.value(forKey: "title") as? String == "first")
    }

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
