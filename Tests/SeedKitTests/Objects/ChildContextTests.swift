import Foundation
import Testing
import SeedKit

@Suite("ObjectContext: child contexts")
struct ChildContextTests {
    private func department(_ context: ObjectContext, _ name: String) throws -> Department {
        try #require(context.object("Department", identity: ["name": name]) as? Department)
    }

    @Test func cancelDiscardsTheEditAndLeavesTheParentAlone() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try department(list, "Sales")
        let editor = list.newChildContext()
        let draft = try #require(try editor.existingObject(with: sales.objectID) as? Department)
        #expect(draft !== sales && draft.objectID == sales.objectID)
        draft.budget = 999
        #expect(editor.hasChanges && !list.hasChanges)
        editor.rollback()
        #expect(draft.budget == 100 && !editor.hasChanges)
        #expect(sales.budget == 100 && !list.hasChanges)
    }

    @Test func saveGoesIntoTheParentAndTheParentSavesToTheStore() throws {
        let (store, list) = try Fixtures.savedCompany()
        let sales = try department(list, "Sales")
        let editor = list.newChildContext()
        let draft = try department(editor, "Sales")
        draft.budget = 250
        let bob = Employee(context: editor)
        (bob.name, bob.email, bob.department) = ("Bob", "bob@example.com", draft)
        let changes = try editor.save()
        #expect(changes.inserted == [bob.objectID] && changes.updated[sales.objectID] == ["budget", "employees"])
        // In the parent, unsaved; not yet in the store.
        #expect(sales.budget == 250 && sales.hasChanges)
        #expect(Set(sales.employees.map(\.email)) == ["ann@example.com", "bob@example.com"])
        let listBob = try #require(try list.existingObject(with: bob.objectID) as? Employee)
        #expect(listBob.department === sales && listBob.isInserted)
        #expect(try store.newContext().fetch(Employee.self).count == 1)
        try list.save()
        let fresh = store.newContext()
        #expect(try department(fresh, "Sales").budget == 250)
        #expect(try fresh.fetch(Employee.self).map(\.email).sorted() == ["ann@example.com", "bob@example.com"])
    }

    @Test func aChildSeesItsParentsUnsavedChanges() throws {
        let (_, list) = try Fixtures.savedCompany()
        let sales = try department(list, "Sales")
        sales.budget = 120
        let ops = Department(context: list)
        ops.name = "Ops"
        let editor = list.newChildContext()
        #expect(try department(editor, "Sales").budget == 120)
        let draftOps = try #require(try editor.existingObject(with: ops.objectID) as? Department)
        #expect(draftOps.name == "Ops" && !draftOps.isInserted)
        // Relationships load from the parent's graph.
        let draftSales = try department(editor, "Sales")
        let ann = try #require(draftSales.employees.first)
        #expect(ann.email == "ann@example.com" && ann.department === draftSales)
        ann.department = draftOps
        try editor.save()
        let listAnn = try #require(list.object("Employee", identity: ["email": "ann@example.com"]) as? Employee)
        #expect(listAnn.department === ops && sales.employees.isEmpty && ops.employees == [listAnn])
    }

    @Test func twoLevelsSaveStepByStep() throws {
        let (store, list) = try Fixtures.savedCompany()
        let child = list.newChildContext()
        let grandchild = child.newChildContext()
        let sales = try department(grandchild, "Sales")
        sales.budget = 300
        let ops = Department(context: grandchild)
        ops.name = "Ops"
        try grandchild.save()
        #expect(try department(child, "Sales").budget == 300 && child.insertedObjects.count == 1)
        #expect(try department(list, "Sales").budget == 100 && !list.hasChanges)
        try child.save()
        #expect(try department(list, "Sales").budget == 300 && list.insertedObjects.map(\.objectID) == [ops.objectID])
        try list.save()
        #expect(try store.newContext().fetch(Department.self).map(\.name).sorted() == ["Ops", "Sales"])
    }

    @Test func parentRollbackDiscardsWhatAChildSaved() throws {
        let (store, list) = try Fixtures.savedCompany()
        let editor = list.newChildContext()
        let ops = Department(context: editor)
        ops.name = "Ops"
        try editor.save()
        #expect(list.object("Department", identity: ["name": "Ops"]) != nil)
        list.rollback()
        #expect(list.object("Department", identity: ["name": "Ops"]) == nil && !list.hasChanges)
        try list.save()
        #expect(try store.newContext().fetch(Department.self).map(\.name) == ["Sales"])
    }

    @Test func deletionsCarryTheirCascadesIntoTheParent() throws {
        let (_, list) = try Fixtures.savedCompany()
        let annInList = try #require(list.object("Employee", identity: ["email": "ann@example.com"]) as? Employee)
        let home = Address(context: list)
        (home.street, home.resident) = ("Main St", annInList)
        try list.save()
        let editor = list.newChildContext()
        let ann = try #require(editor.object("Employee", identity: ["email": "ann@example.com"]))
        try editor.delete(ann)
        // Deleted here: neither an identity lookup nor an id brings it back from the parent.
        #expect(editor.object("Employee", identity: ["email": "ann@example.com"]) == nil)
        #expect(throws: ObjectError.self) { try editor.existingObject(with: ann.objectID) }
        #expect(try department(editor, "Sales").employees.isEmpty)
        try editor.save()
        #expect(list.deletedObjects.map(\.description).sorted() == ["Address#1", "Employee[email=ann@example.com]"])
        #expect(try department(list, "Sales").employees.isEmpty)
    }

    @Test func anIdentityTakenInTheParentIsAConflictInTheChild() throws {
        let (_, list) = try Fixtures.savedCompany()
        let ops = Department(context: list)
        ops.name = "Ops"
        let editor = list.newChildContext()
        let other = Department(context: editor)
        #expect(throws: ObjectError.self) { try other.setValue("Ops", forKey: "name") }
        other.name = "Ops"
        let error = try #require(throws: SaveErrors.self) { try editor.save() }
        #expect(error.errors.map(\.kind) == [.identityConflict])
        #expect(list.insertedObjects == [ops])
    }

    /// A fetch in a child finds the parent's objects — stored ones and the parent's unsaved inserts — as the child's
    /// own copies, and judges the predicate on the child's edits; objects deleted in the child are gone.
    @Test func aFetchInAChildSeesTheParentAndItsOwnEdits() throws {
        let (_, list) = try Fixtures.savedCompany()
        let north = Department(context: list)
        (north.name, north.budget) = ("North", 300)
        let editor = list.newChildContext()
        let names = { (predicate: FetchPredicate?) in
            try editor.fetch(FetchRequest("Department", predicate: predicate, sortedBy: [SortKey("name")]))
                .map { ($0 as! Department).name }
        }
        #expect(try names(nil) == ["North", "Sales"])
        let draft = try department(editor, "Sales")
        #expect(draft !== (try department(list, "Sales")))
        draft.budget = 500
        #expect(try names(FetchKey("budget") > Decimal(400)) == ["Sales"])
        try editor.delete(try department(editor, "North"))
        #expect(try names(nil) == ["Sales"])
        #expect(try list.fetch(FetchRequest("Department")).count == 2)
    }
}
