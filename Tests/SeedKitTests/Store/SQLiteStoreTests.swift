import Foundation
import Testing
import SeedKit

@Suite("SQLiteStore: fetches in SQL")
struct SQLiteStoreTests {
    @Test func inheritanceFiltersSortAndLimitRunInSQL() throws {
        let model = try Fixtures.companyModel()
        let store = try SQLiteStore.inMemory(model: model)
        let context = store.newContext()
        for (index, name) in ["Cy", "Ann", "Bob", "Dee"].enumerated() {
            let employee = index % 2 == 0 ? Employee(context: context) : Manager(context: context)
            (employee.name, employee.email) = (name, "\(name)@example.com")
            if let manager = employee as? Manager { manager.level = index }
        }
        try context.save()
        let fresh = store.newContext()
        #expect(try fresh.fetch("Employee").count == 4)
        #expect(try fresh.fetch(FetchRequest("Employee", includesSubentities: false)).count == 2)
        #expect(try fresh.fetch(Manager.self).map(\.name).sorted() == ["Ann", "Dee"])
        let sorted = try fresh.fetch(FetchRequest("Employee", sortedBy: [SortKey("name", ascending: false)], limit: 3))
        #expect(sorted.compactMap { try? $0.value(forKey: "name") as? String } == ["Dee", "Cy", "Bob"])
        let filtered = try fresh.fetch(FetchRequest("Employee", predicate: FetchKey("name") > "Bob"))
        #expect(filtered.count == 2)
        #expect(try fresh.count(FetchRequest("Employee", predicate: FetchKey("hired").isNil)) == 4)
        // Uniqued: fetching again returns the same objects, unsaved edits kept.
        let cy = try #require(fresh.object("Employee", identity: ["email": "Cy@example.com"]) as? Employee)
        cy.name = "Cyrus"
        let again = try fresh.fetch(FetchRequest("Employee", predicate: FetchKey("name") == "Cyrus"))
        #expect(again.count == 1 && again[0] === cy)
    }

    /// That its pages are in a file rather than in memory is not observable here (SQLite names neither); the diff's
    /// memory in BENCHMARKS.md measures it. What a caller relies on is tested: rows beyond the page cache come back,
    /// and no two temporary stores share anything.
    @Test func temporaryStoresArePrivateAndKeepRowsBeyondTheirPageCache() throws {
        let model = try EntityModel([
            EntityDescription(
                "Note", identity: ["key"], attributes: [AttributeDescription("key", .string), AttributeDescription("text", .string)]),
        ])
        let store = try SQLiteStore.temporary(model: model)
        let other = try SQLiteStore.temporary(model: model)
        let context = store.newContext()
        // About 5 MB of rows: more than SQLite's page cache keeps, so pages go to the file and are read back.
        let text = String(repeating: "x", count: 1000)
        for index in 0..<5000 { try context.insert("Note", values: ["key": "n\(index)", "text": text]) }
        try context.save()
        let fresh = store.newContext()
        #expect(try fresh.count(FetchRequest("Note")) == 5000)
        #expect(try fresh.object("Note", identity: ["key": "n4321"])?.value(forKey: "text") as? String == text)
        #expect(try other.newContext().count(FetchRequest("Note")) == 0, "each temporary store is its own")
    }

    @Test("A fetched object's strings read NULL as nil and the empty string as itself, each object its own values")
    func fetchedStringsKeepNullAndEmptyApart() throws {
        let model = try EntityModel([
            EntityDescription(
                "Note", identity: ["key"],
                attributes: [AttributeDescription("key", .string), AttributeDescription("text", .string, isOptional: true)]),
        ])
        let store = try SQLiteStore.inMemory(model: model)
        let context = store.newContext()
        for (key, text) in [("missing", nil), ("empty", ""), ("word", "Sales")] as [(String, String?)] {
            try context.insert("Note", values: ["key": key, "text": text as Any? ?? NSNull()])
        }
        try context.save()
        let fresh = store.newContext()
        let notes = try fresh.fetch(FetchRequest("Note", sortedBy: [SortKey("key")]))
        #expect(try notes.map { try $0.value(forKey: "key") as? String } == ["empty", "missing", "word"])
        #expect(try notes.map { try $0.value(forKey: "text") as? String } == ["", nil, "Sales"])
        try notes[0].setValue("changed", forKey: "text")
        #expect(try notes.map { try $0.value(forKey: "text") as? String } == ["changed", nil, "Sales"])
    }
}
