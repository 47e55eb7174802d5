import Foundation
import Testing
import SeedKit

@Suite("ObjectContext: observers and change sequences")
struct ContextObservingTests {
    @Test func observersHearWillSaveThenDidSaveUntilCancelled() throws {
        let (_, list) = try Fixtures.savedCompany()
        var events: [ContextEvent] = []
        let token = list.observe { events.append($0) }
        let ops = Department(context: list)
        ops.name = "Ops"
        let changes = try list.save()
        #expect(events == [.willSave, .didSave(changes)])
        token.cancel()
        ops.budget = 3
        try list.save()
        #expect(events.count == 2)
    }

    @Test func aReleasedTokenStopsItsObserver() throws {
        let (_, list) = try Fixtures.savedCompany()
        var count = 0
        do {
            let token = list.observe { _ in count += 1 }
            _ = token
        }
        Department(context: list).name = "Ops"
        try list.save()
        #expect(count == 0)
    }

    @Test func aWillSaveObserverMayStillFixObjects() throws {
        let (store, list) = try Fixtures.savedCompany()
        let token = list.observe { event in
            guard event == .willSave else { return }
            for case let department as Department in list.insertedObjects where department.budget == nil {
                department.budget = 1
            }
        }
        Department(context: list).name = "Ops"
        try list.save()
        token.cancel()
        let ops = try #require(store.newContext().object("Department", identity: ["name": "Ops"]) as? Department)
        #expect(ops.budget == 1)
    }

    @Test func theParentHearsWhatAChildSaves() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try #require(list.fetch(Department.self).first)
        var heard: [ContextEvent] = []
        let token = list.observe { heard.append($0) }
        let editor = list.newChildContext()
        let draft = try #require(try editor.existingObject(with: sales.objectID) as? Department)
        draft.budget = 7
        editor.rollback()
        #expect(heard.isEmpty)
        draft.budget = 8
        let changes = try editor.save()
        #expect(heard == [.objectsDidChange(changes)] && changes.updated == [sales.objectID: ["budget"]])
        token.cancel()
    }

    @Test func theChangesSequenceYieldsEverySave() async throws {
        let list = try Fixtures.companyContext()
        let stream = list.changes
        let sales = Department(context: list)
        sales.name = "Sales"
        let first = try list.save()
        let editor = list.newChildContext()
        (try editor.existingObject(with: sales.objectID) as? Department)?.budget = 2
        let second = try editor.save()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == first)
        #expect(await iterator.next() == second)
    }

    @Test func theChangesSequenceEndsWithTheContext() async throws {
        let stream = try Fixtures.companyContext().changes
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}
