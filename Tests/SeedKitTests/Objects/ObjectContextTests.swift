import Foundation
import Testing
import SeedKit
@testable import SeedKitObjects

@Suite("Object contexts")
struct ObjectContextTests {
    @Test func insertRefusesASecondObjectWithTheSameIdentity() throws {
        let context = try Fixtures.companyContext()
        let sales = try context.insert("Department", values: ["name": "Sales"])
        let error = #expect(throws: ObjectError.self) { try context.insert("Department", values: ["name": "Sales"]) }
        #expect(error?.kind == .identityConflict)
        #expect(try context.fetch("Department") == [sales], "the refused insert left nothing behind")
    }

    @Test func upsertReturnsTheExistingObject() throws {
        let context = try Fixtures.companyContext()
        let (sales, inserted) = try context.upsert("Department", identity: ["name": "Sales"])
        #expect(inserted)
        let (again, insertedAgain) = try context.upsert("Department", identity: ["name": "Sales"])
        #expect(again === sales && !insertedAgain)
        #expect(context.object("Department", identity: ["name": "Sales"]) === sales)
        #expect(throws: ObjectError.self) { try context.upsert("Department", identity: ["title": "Sales"]) }
        #expect(throws: ObjectError.self) { try context.upsert("Address", identity: ["street": "Main"]) }
    }

    @Test func identityIsSharedAcrossSubentities() throws {
        let context = try Fixtures.companyContext()
        let boss = try context.insert("Manager", values: ["name": "Bo", "email": "bo@example.com", "level": 2])
        #expect(context.object("Employee", identity: ["email": "bo@example.com"]) === boss)
        #expect(throws: ObjectError.self) { try context.insert("Employee", values: ["email": "bo@example.com"]) }
    }

    @Test func identitiesThatDifferOnlyInUnicodeNormalizationAreTwoObjects() throws {
        // "Café" with a precomposed é (NFC) and with e + combining acute (NFD): Swift's == calls them equal, but
        // identity compares bytes, as SQLite does.
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        #expect(composed == decomposed, "the premise: String == is canonical equivalence")
        let path = try Fixtures.temporaryStorePath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try SQLiteStore(path: path, model: Fixtures.companyModel())
        for context in [try Fixtures.companyContext(), store.newContext()] {
            let nfc = try context.insert("Department", values: ["name": composed])
            let nfd = try context.insert("Department", values: ["name": decomposed])
            #expect(nfc !== nfd)
            #expect(context.object("Department", identity: ["name": decomposed]) === nfd)
            #expect(try context.upsert("Department", identity: ["name": composed]) == (nfc, false))
            try context.save()
            #expect(try context.count(FetchRequest("Department")) == 2)
        }
        let reopened = store.newContext()
        let stored = try #require(reopened.object("Department", identity: ["name": decomposed]))
        #expect((stored as? Department)?.name.utf8.elementsEqual(decomposed.utf8) == true)
    }

    @Test func settingATakenIdentityThrowsThroughKeyValueAndFailsSaveThroughTypedProperties() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        let other = Department(context: context)
        #expect(throws: ObjectError.self) { try other.setValue("Sales", forKey: "name") }
        other.name = "Sales"
        let error = #expect(throws: SaveErrors.self) { try context.save() }
        #expect(error?.errors.map(\.kind) == [.identityConflict])
        other.name = "Support"
        try context.save()
        #expect(context.object("Department", identity: ["name": "Support"]) === other)
    }

    @Test func fetchedObjectsAreFoundByIdentityAndTheFirstHolderKeepsATakenOne() throws {
        let store = try SQLiteStore.inMemory(model: Fixtures.companyModel())
        let writer = store.newContext()
        for name in ["Legal", "Sales", "Support"] { try writer.insert("Department", values: ["name": name]) }
        try writer.save()
        // Fetched objects are indexed by identity when first looked up or changed, as if at once.
        let context = store.newContext()
        let departments = try context.fetch(Department.self, FetchRequest("Department", sortedBy: [SortKey("name")]))
        try departments[0].setValue("Finance", forKey: "name")
        #expect(context.object("Department", identity: ["name": "Finance"]) === departments[0])
        #expect(context.object("Department", identity: ["name": "Legal"]) == nil)
        departments[2].name = "Sales"
        #expect(context.object("Department", identity: ["name": "Sales"]) === departments[1])
        #expect(context.object("Department", identity: ["name": "Support"]) == nil)
        let error = #expect(throws: SaveErrors.self) { try context.save() }
        #expect(error?.errors.map(\.kind) == [.identityConflict])
        context.rollback()
        #expect(context.object("Department", identity: ["name": "Legal"]) === departments[0])
        #expect(context.object("Department", identity: ["name": "Support"]) === departments[2])
    }

    @Test func saveReportsEveryMissingRequiredValue() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        ann.email = "ann@example.com"
        _ = Project(context: context)
        let error = #expect(throws: SaveErrors.self) { try context.save() }
        #expect(error?.errors.map(\.description) == [
            "Employee[email=ann@example.com].name: required string attribute has no value",
            "Project#2.code: required string attribute has no value",
        ])
        #expect(context.hasChanges, "a refused save keeps the changes")
    }

    @Test func saveReturnsAndPostsTheChangeSet() throws {
        let context = try Fixtures.companyContext()
        var posted: [ChangeSet] = []
        context.onSave { posted.append($0) }
        let sales = Department(context: context)
        sales.name = "Sales"
        let first = try context.save()
        #expect(first.inserted == [sales.objectID])
        sales.budget = 5
        let old = Department(context: context)
        old.name = "Old"
        try context.save()
        try context.delete(old)
        sales.name = "Sales EMEA"
        let third = try context.save()
        #expect(third.updated == [sales.objectID: ["name"]])
        #expect(third.deleted == [old.objectID])
        #expect(posted.count == 3 && posted[2] == third)
        #expect(!context.hasChanges)
    }

    @Test func rollbackDiscardsEveryUnsavedChange() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        let ann = Employee(context: context)
        ann.name = "Ann"
        ann.email = "ann@example.com"
        ann.department = sales
        try context.save()

        sales.name = "Renamed"
        let bob = Employee(context: context)
        bob.name = "Bob"
        bob.email = "bob@example.com"
        bob.department = sales
        try context.delete(ann)
        #expect(context.hasChanges)
        context.rollback()

        #expect(!context.hasChanges)
        #expect(sales.name == "Sales")
        #expect(sales.employees == [ann])
        #expect(ann.department === sales)
        #expect(bob.context == nil)
        #expect(try context.fetch("Employee") == [ann])
        #expect(context.object("Department", identity: ["name": "Sales"]) === sales)
        #expect(context.object("Department", identity: ["name": "Renamed"]) == nil)
    }

    @Test func deleteCascadesThroughOwnedRelationshipsAndNullifiesTheRest() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        let ann = Employee(context: context)
        let home = Address(context: context)
        let apollo = Project(context: context)
        ann.department = sales
        ann.addresses = [home]
        ann.projects = [apollo]
        try context.delete(ann)
        // The address was never saved, so deleting it forgets it rather than queueing a deletion.
        #expect(home.context == nil, "owned addresses go with their owner")
        #expect(try context.fetch("Address").isEmpty)
        #expect(sales.employees.isEmpty)
        #expect(apollo.members.isEmpty)
    }

    @Test func denyRefusesAndChangesNothing() throws {
        let context = try Fixtures.companyContext()
        let boss = Manager(context: context)
        boss.email = "boss@example.com"
        boss.name = "Boss"
        boss.level = 1
        let report = Report(context: context)
        report.title = "Q3"
        report.manager = boss
        let sales = Department(context: context)
        sales.name = "Sales"
        boss.department = sales
        try context.save()
        let error = #expect(throws: ObjectError.self) { try context.delete(boss) }
        #expect(error?.kind == .deleteDenied)
        #expect(error?.key == "reports")
        #expect(boss.department === sales && sales.employees == [boss] && report.manager === boss)
        #expect(!context.hasChanges)
        report.manager = nil
        try context.delete(boss)
        #expect(boss.isDeleted)
    }

    /// JSON values sort by their canonical bytes, never by a dictionary's iteration order, which changes from
    /// process to process: sorted fetches and canonical exports must not.
    @Test func jsonValuesSortByTheirCanonicalBytes() {
        var generator = SeededGenerator(seed: 7)
        let keys = ["a", "b", "c", "d", "e", "f", "g", "h"]
        for _ in 0..<200 {
            let a = JSON.object(JSONObject(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSON(integerLiteral: Int64.random(in: 0...2, using: &generator))) })))
            let b = JSON.object(JSONObject(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSON(integerLiteral: Int64.random(in: 0...2, using: &generator))) })))
            let lhs = a.serialized(style: .canonical), rhs = b.serialized(style: .canonical)
            let expected: ComparisonResult = lhs == rhs ? .orderedSame : (lhs.lexicographicallyPrecedes(rhs) ? .orderedAscending : .orderedDescending)
            #expect(AttributeValue.json(a).compare(to: .json(b)) == expected, "\(a.text(style: .canonical)) vs \(b.text(style: .canonical))")
        }
    }

    @Test func fetchIncludesSubentitiesFiltersSortsAndLimits() throws {
        let context = try Fixtures.companyContext()
        for (name, level) in [("Cy", 1), ("Al", 3), ("Bo", 2)] {
            let boss = Manager(context: context)
            boss.name = name
            boss.email = "\(name)@example.com"
            boss.level = level
        }
        let ann = Employee(context: context)
        ann.name = "Ann"
        ann.email = "ann@example.com"
        #expect(try context.fetch("Employee").count == 4)
        #expect(try context.fetch(FetchRequest("Employee", includesSubentities: false)) == [ann])
        let managers = try context.fetch(Manager.self, FetchRequest("Manager", sortedBy: [SortKey("level", ascending: false)]))
        #expect(managers.map(\.name) == ["Al", "Bo", "Cy"])
        let senior = try context.fetch(
            FetchRequest("Manager", predicate: FetchKey("level") >= 2, sortedBy: [SortKey("name")], limit: 1))
        #expect(senior.map { $0 as? Manager }.map { $0?.name } == ["Al"])
        #expect(try context.count(FetchRequest("Employee", predicate: FetchKey("name") != "Ann")) == 3)
        let typo = #expect(throws: ObjectError.self) { try context.fetch(FetchRequest("Employee", sortedBy: [SortKey("nmae")])) }
        #expect(typo?.message.contains("did you mean 'name'?") == true)
        #expect(throws: ObjectError.self) { try context.fetch(FetchRequest("Employee", predicate: FetchKey("name") == 1)) }
        let unknown = #expect(throws: ObjectError.self) { try context.fetch("Employe") }
        #expect(unknown?.message.contains("did you mean 'Employee'?") == true)
    }

    @Test func contextListsItsChanges() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        #expect(context.insertedObjects == [sales] && sales.isInserted)
        try context.save()
        sales.budget = 1
        #expect(context.updatedObjects == [sales] && context.insertedObjects.isEmpty)
        try context.delete(sales)
        #expect(context.deletedObjects == [sales] && context.updatedObjects.isEmpty)
    }

    @Test func deletingAnInsertedObjectForgetsIt() throws {
        let context = try Fixtures.companyContext()
        let draft = Department(context: context)
        try context.delete(draft)
        #expect(!context.hasChanges)
        #expect(draft.context == nil)
        #expect(throws: ObjectError.self) { try context.delete(draft) }
    }
}

@Suite("Objects outside their context")
struct DetachedObjectTests {
    @Test func objectsOutliveTheirContextReadably() throws {
        var context: ObjectContext? = try Fixtures.companyContext()
        let sales = Department(context: context!)
        sales.name = "Sales"
        let ann = Employee(context: context!)
        ann.department = sales
        context = nil
        // The context is gone: relationships are dropped to break cycles, but reading never traps.
        #expect(sales.context == nil && ann.context == nil)
        #expect(ann.department == nil)
        #expect(sales.employees.isEmpty)
        #expect(sales.name == "Sales")
        #expect(try sales.value(forKey: "employees") as? [ManagedObject] == [])
    }

    @Test func fetchedObjectsOutliveTheirContextWithTheirFaults() throws {
        let store = try SQLiteStore.inMemory(model: Fixtures.companyModel())
        do {
            let writer = store.newContext()
            let sales = Department(context: writer)
            sales.name = "Sales"
            let ann = Employee(context: writer)
            ann.name = "Ann"
            ann.email = "ann@example.com"
            ann.department = sales
            try writer.save()
        }
        var context: ObjectContext? = store.newContext()
        let sales = try #require(try context!.fetch(Department.self).first)
        let ann = try #require(try context!.fetch(Employee.self).first)
        #expect(sales.context === context && ann.context === context)
        context = nil
        // Faults that fire without a context read as empty; the values read are kept.
        #expect(sales.context == nil && ann.context == nil)
        #expect(sales.employees.isEmpty && ann.department == nil)
        #expect(sales.name == "Sales" && ann.email == "ann@example.com")
    }

    @Test func rolledBackInsertsStayReadable() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        let ann = Employee(context: context)
        ann.department = sales
        context.rollback()
        #expect(ann.department == nil && ann.context == nil)
        #expect(sales.employees.isEmpty)
    }
}

@Suite("Save validation of doubles")
struct SaveDoubleValidationTests {
    @Test func nonFiniteDoublesSetThroughTypedPathsFailSave() throws {
        let context = ObjectContext(model: try Fixtures.everyTypeModel())
        let sample = try context.insert("Sample", values: ["key": "a"])
        let index = try #require(sample.entity.attributeIndex(named: "doubleValue"))
        // What a typed `Double` property's setter does: it cannot throw, so save must catch the value.
        sample.setAttributeValueUnchecked(.double(.nan), at: index)
        let error = try #require(throws: SaveErrors.self) { try context.save() }
        #expect(error.errors.map(\.description) == ["Sample[key=a].doubleValue: nan is not a finite number; doubles must be finite"])
        sample.setAttributeValueUnchecked(.double(1.5), at: index)
        try context.save()
    }
}
