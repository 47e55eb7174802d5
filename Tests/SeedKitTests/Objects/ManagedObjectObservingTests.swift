import Foundation
import Observation
import Testing
import SeedKit

@Suite("ManagedObject: key-value observing and Swift Observation")
struct ManagedObjectObservingTests {
    @Test func aKeyObserverGetsOldAndNewValues() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try #require(list.fetch(Department.self).first)
        var seen: [(Decimal?, Decimal?)] = []
        let token = try sales.observe("budget") { old, new in seen.append((old as? Decimal, new as? Decimal)) }
        sales.budget = 150
        try sales.setValue(nil, forKey: "budget")
        sales.name = "Sales & Marketing"
        #expect(seen.map(\.0) == [100, 150] && seen.map(\.1) == [150, nil])
        token.cancel()
        sales.budget = 1
        #expect(seen.count == 2)
    }

    @Test func aRelationshipObserverHearsInverseChanges() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try #require(list.fetch(Department.self).first)
        var counts: [(Int, Int)] = []
        let token = try sales.observe("employees") { old, new in
            counts.append(((old as? [ManagedObject])?.count ?? -1, (new as? [ManagedObject])?.count ?? -1))
        }
        let bob = Employee(context: list)
        bob.department = sales  // set on the other side
        #expect(counts.count == 1 && counts[0] == (1, 2))
        _ = token
    }

    @Test func anUnknownKeyIsRefused() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try #require(list.fetch(Department.self).first)
        let error = try #require(throws: ObjectError.self) { try sales.observe("budgt") { _, _ in } }
        #expect(error.kind == .unknownKey && error.message.contains("budget"))
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func observationTrackingFollowsPropertiesOfObservableContexts() throws {
        let (_, list) = try Fixtures.savedCompany()
        list.isObservable = true
        let sales = try #require(list.fetch(Department.self).first)
        let fired = Flag()
        withObservationTracking { _ = sales.budget } onChange: { fired.set() }
        sales.name = "Other"
        #expect(!fired.value)  // another property
        sales.budget = 5
        #expect(fired.value)
        let employees = Flag()
        withObservationTracking { _ = sales.employees } onChange: { employees.set() }
        let bob = Employee(context: list)
        bob.department = sales
        #expect(employees.value)
        // Key-value coding reads are tracked too.
        let byKey = Flag()
        withObservationTracking { _ = try? bob.value(forKey: "name") } onChange: { byKey.set() }
        bob.name = "Bob"
        #expect(byKey.value)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aChildOfAnObservableContextIsObservable() throws {
        let (_, list) = try Fixtures.savedCompany()
        list.isObservable = true
        let editor = list.newChildContext()
        let draft = try #require(editor.object("Department", identity: ["name": "Sales"]) as? Department)
        let fired = Flag()
        withObservationTracking { _ = draft.budget } onChange: { fired.set() }
        draft.budget = 9
        #expect(editor.isObservable && fired.value)
    }
}

/// A flag an observation's `onChange` (a `@Sendable` closure) sets.
final class Flag: @unchecked Sendable {
    private(set) var value = false
    func set() { value = true }
}
