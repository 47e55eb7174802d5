import Foundation
import Testing
import SeedKit

@Suite("SQLiteStore: notifications, merging, conflicts")
struct SQLiteStoreMergeTests {
    /// Two contexts over one store, each holding the saved "Sales" department.
    private func twoContexts() throws -> (ObjectContext, ObjectContext, Department, Department) {
        let store = try SQLiteStore.inMemory(model: try Fixtures.companyModel())
        let setup = store.newContext()
        let sales = Department(context: setup)
        sales.name = "Sales"
        sales.budget = 100
        try setup.save()
        let first = store.newContext(), second = store.newContext()
        return (
            first, second, try #require(first.fetch(Department.self).first), try #require(second.fetch(Department.self).first)
        )
    }

    @Test func observersGetTheChangeSetWithPermanentIDs() throws {
        let (first, _, sales, _) = try twoContexts()
        var received: [ChangeSet] = []
        first.onSave { received.append($0) }
        sales.budget = 200
        let ops = Department(context: first)
        ops.name = "Ops"
        try first.save()
        #expect(received.count == 1)
        #expect(received[0].inserted == [ops.objectID] && ops.objectID.number > 0)
        #expect(received[0].updated == [sales.objectID: ["budget"]])
    }

    @Test func mergeRefreshesUnchangedObjects() throws {
        let (first, second, sales, otherSales) = try twoContexts()
        sales.budget = 250
        let ann = Employee(context: first)
        (ann.name, ann.email) = ("Ann", "ann@example.com")
        ann.department = sales
        #expect(otherSales.employees.isEmpty)
        try second.merge(try first.save())
        #expect(otherSales.budget == 250)
        #expect(otherSales.employees.map(\.name) == ["Ann"])
        #expect(!second.hasChanges)
    }

    @Test func mergeWithUnsavedEditsFollowsThePolicy() throws {
        for policy in [MergePolicy.storeWins, .inMemoryWins] {
            let (first, second, sales, otherSales) = try twoContexts()
            second.mergePolicy = policy
            sales.budget = 1
            let changes = try first.save()
            otherSales.budget = 2
            try second.merge(changes)
            #expect(otherSales.budget == (policy == .storeWins ? 1 : 2))
            try second.save()  // the merge took the new row version: no conflict
        }
    }
}
