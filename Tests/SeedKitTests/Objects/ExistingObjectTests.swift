import Foundation
import Testing
import SeedKit

@Suite("ObjectContext: identity across contexts and merging without a store")
struct ExistingObjectTests {
    @Test func aFreshContextReadsAnObjectIDFromTheStore() throws {
        let (store, list) = try Fixtures.savedCompany()
        let id = try #require(list.fetch(Employee.self).first).objectID
        let fresh = store.newContext()
        #expect(fresh.object(with: id) == nil)
        let ann = try #require(try fresh.existingObject(with: id) as? Employee)
        #expect(ann.email == "ann@example.com" && ann.department?.name == "Sales")
        #expect(try fresh.existingObject(with: id) === ann)
    }

    @Test func aMissingObjectIsAClearError() throws {
        let (store, list) = try Fixtures.savedCompany()
        let gone = ObjectID(entityName: "Employee", number: 999)
        let error = try #require(throws: ObjectError.self) { try list.existingObject(with: gone) }
        #expect(error.kind == .missingObject && error.object == "Employee#999")
        // An unsaved object of one context is not in another.
        let bob = Employee(context: list)
        #expect(throws: ObjectError.self) { try store.newContext().existingObject(with: bob.objectID) }
        #expect(throws: ObjectError.self) { try list.existingObject(with: ObjectID(entityName: "Nope", number: 1)) }
        let memory = try Fixtures.companyContext()
        #expect(throws: ObjectError.self) { try memory.existingObject(with: gone) }
    }

    @Test func aDeletedObjectIsMissing() throws {
        let (_, list) = try Fixtures.savedCompany()
        let ann = try #require(list.fetch(Employee.self).first)
        try list.delete(ann)
        #expect(throws: ObjectError.self) { try list.existingObject(with: ann.objectID) }
    }

    @Test func mergingIntoAContextWithoutAStoreOrParentThrows() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try #require(list.fetch(Department.self).first)
        sales.budget = 5
        let changes = try list.save()
        let memory = try Fixtures.companyContext()
        let error = try #require(throws: ObjectError.self) { try memory.merge(changes) }
        #expect(error.kind == .mergeWithoutSource)
    }

    @Test func mergingIntoAChildReadsTheParent() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try #require(list.fetch(Department.self).first)
        let editor = list.newChildContext()
        let draft = try #require(try editor.existingObject(with: sales.objectID) as? Department)
        #expect(draft.employees.count == 1)
        sales.budget = 42
        sales.employees = []
        try editor.merge(try list.save())
        #expect(draft.budget == 42 && draft.employees.isEmpty && !editor.hasChanges)
    }
}
