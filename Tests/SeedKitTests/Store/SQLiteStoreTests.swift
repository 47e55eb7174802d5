import Foundation
import Testing
import SeedKit

@Suite("SQLiteStore: save, reopen, fetch")
struct SQLiteStoreTests {
    @Test func everyAttributeTypeRoundTripsExactly() throws {
        let path = try Fixtures.temporaryStorePath()
        let model = try Fixtures.everyTypeModel()
        let values: [String: Any] = [
            "key": "a", "integerValue": Int64.min, "doubleValue": 0.1, "boolValue": true,
            "decimalValue": Decimal(exactly: "12345678901234567890.123")!,
            "dateValue": Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789),
            "dataValue": Data([0, 1, 255]), "uuidValue": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            "urlValue": URL(string: "https://example.com/a?b=c")!, "jsonValue": JSON.object(["b": [1, nil], "a": "x"]),
        ]
        do {
            let context = try SQLiteStore(path: path, model: model).newContext()
            try context.insert("Sample", values: values)
            try context.insert("Sample", values: ["key": "empty"])
            try context.save()
        }
        let context = try SQLiteStore(path: path, model: model).newContext()
        let sample = try #require(context.object("Sample", identity: ["key": "a"]))
        #expect(sample.attributeValue(at: model.entity(named: "Sample")!.attributeIndex(named: "dateValue")!)
            == .date(Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789)))
        #expect(try sample.value(forKey: "decimalValue") as? Decimal == Decimal(exactly: "12345678901234567890.123"))
        #expect(try sample.value(forKey: "integerValue") as? Int64 == .min)
        #expect(try sample.value(forKey: "doubleValue") as? Double == 0.1)
        #expect(try sample.value(forKey: "boolValue") as? Bool == true)
        #expect(try sample.value(forKey: "dataValue") as? Data == Data([0, 1, 255]))
        #expect(try sample.value(forKey: "uuidValue") as? UUID == values["uuidValue"] as? UUID)
        #expect(try sample.value(forKey: "urlValue") as? URL == values["urlValue"] as? URL)
        #expect(try sample.value(forKey: "jsonValue") as? JSON == values["jsonValue"] as? JSON)
        let empty = try #require(context.object("Sample", identity: ["key": "empty"]))
        #expect(try empty.value(forKey: "dateValue") == nil)
        #expect(try context.count(FetchRequest("Sample")) == 2)
    }

    @Test func relationshipsOfEveryKindRoundTrip() throws {
        let path = try Fixtures.temporaryStorePath()
        let model = try Fixtures.companyModel()
        do {
            let context = try SQLiteStore(path: path, model: model).newContext()
            let sales = Department(context: context)
            sales.name = "Sales"
            let ann = Manager(context: context)
            (ann.name, ann.email, ann.level) = ("Ann", "ann@example.com", 2)
            ann.department = sales
            let bob = Employee(context: context)
            (bob.name, bob.email) = ("Bob", "bob@example.com")
            bob.department = sales
            for street in ["3 C St", "1 A St", "2 B St"] {
                let address = Address(context: context)
                address.street = street
                ann.addresses.append(address)
            }
            let apollo = Project(context: context)
            apollo.code = "APOLLO"
            apollo.members = [ann, bob]
            let report = Report(context: context)
            report.title = "Q1"
            report.manager = ann
            try context.save()
            #expect(ann.objectID.number > 0)
        }
        let context = try SQLiteStore(path: path, model: model).newContext()
        let ann = try #require(context.object("Employee", identity: ["email": "ann@example.com"]) as? Manager)
        #expect(!ann.faults.isEmpty)
        #expect(ann.department?.name == "Sales")
        #expect(ann.addresses.map(\.street) == ["3 C St", "1 A St", "2 B St"])
        #expect(ann.projects.map(\.code) == ["APOLLO"])
        #expect(ann.reports.map(\.title) == ["Q1"])
        let sales = try #require(ann.department)
        #expect(Set(sales.employees.map(\.name)) == ["Ann", "Bob"])
        #expect(sales.employees.contains { $0 === ann })  // uniqued
        let apollo = try #require(context.fetch(Project.self).first)
        #expect(Set(apollo.members.map(\.email)) == ["ann@example.com", "bob@example.com"])
    }

    @Test func orderedAndManyToManyChangesSave() throws {
        let path = try Fixtures.temporaryStorePath()
        let model = try Fixtures.companyModel()
        let store = try SQLiteStore(path: path, model: model)
        let context = store.newContext()
        let ann = Employee(context: context)
        (ann.name, ann.email) = ("Ann", "ann@example.com")
        let addresses = ["a", "b", "c"].map { street -> Address in
            let address = Address(context: context)
            address.street = street
            return address
        }
        ann.addresses = addresses
        let p1 = Project(context: context), p2 = Project(context: context)
        (p1.code, p2.code) = ("P1", "P2")
        ann.projects = [p1]
        try context.save()
        ann.addresses = [addresses[2], addresses[0]]
        ann.projects = [p2]
        try context.delete(addresses[1])
        try context.save()

        let other = try SQLiteStore(path: path, model: model).newContext()
        let reread = try #require(other.fetch(Employee.self).first)
        #expect(reread.addresses.map(\.street) == ["c", "a"])
        #expect(reread.projects.map(\.code) == ["P2"])
        #expect(try other.count(FetchRequest("Address")) == 2)
        #expect(try other.fetch(Project.self).first { $0.code == "P1" }?.members.isEmpty == true)
    }

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

    @Test func upsertFindsStoredObjects() throws {
        let store = try SQLiteStore.inMemory(model: try Fixtures.companyModel())
        let first = store.newContext()
        try first.insert("Department", values: ["name": "Sales"])
        try first.save()
        let second = store.newContext()
        let (sales, inserted) = try second.upsert("Department", identity: ["name": "Sales"])
        #expect(!inserted)
        #expect(sales.objectID.number > 0)
        #expect(throws: ObjectError.self) { try second.insert("Department", values: ["name": "Sales"]) }
    }

    @Test func failedSaveLeavesStoreAndContextUnchanged() throws {
        let path = try Fixtures.temporaryStorePath()
        let model = try Fixtures.companyModel()
        let store = try SQLiteStore(path: path, model: model)
        let context = store.newContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        try context.save()
        sales.budget = 5
        for name in ["Ops", "Legal"] { try context.insert("Department", values: ["name": name]) }
        // A row inserted behind the context's back makes the save's last insert fail on the identity index.
        let other = try SQLiteConnection(path: path)
        try other.execute(sql: #"INSERT INTO "Department" ("_id", "_entity", "name") VALUES (100, 'Department', 'Legal')"#)
        #expect(throws: DatabaseError.self) { try context.save() }
        #expect(context.insertedObjects.count == 2)
        #expect(context.updatedObjects.map(\.objectID) == [sales.objectID])
        #expect(context.insertedObjects.allSatisfy { $0.objectID.number < 0 })
        let check = try SQLiteStore(path: path, model: model).newContext()
        #expect(try check.fetch(Department.self).map(\.name).sorted() == ["Legal", "Sales"])
        #expect(try check.fetch(Department.self).first { $0.name == "Sales" }?.budget == nil)
        // Fixing the cause lets the same changes save.
        try other.execute(sql: #"DELETE FROM "Department" WHERE "_id" = 100"#)
        try context.save()
        #expect(try store.newContext().count(FetchRequest("Department")) == 3)
    }

    @Test func rollbackDiscardsAndDeletesSave() throws {
        let store = try SQLiteStore.inMemory(model: try Fixtures.companyModel())
        let context = store.newContext()
        try context.insert("Department", values: ["name": "Sales"])
        try context.save()
        let sales = try #require(context.fetch(Department.self).first)
        sales.name = "Ops"
        context.rollback()
        #expect(sales.name == "Sales")
        try context.delete(sales)
        try context.save()
        #expect(try store.newContext().count(FetchRequest("Department")) == 0)
    }
}
