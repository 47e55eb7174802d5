import Foundation
import Testing
import SeedKit

/// What a context does over a store, checked on every backend: the same saves, reopenings, relationships and
/// conflicts over SQLite and PostgreSQL (which runs where a test server is; see ``StoreBackend/available``).
@Suite("Stores: save, reopen, fetch, conflicts on each backend")
struct StoreSaveTests {
    @Test(arguments: StoreBackend.available) func everyAttributeTypeRoundTripsExactly(_ backend: StoreBackend) throws {
        let storage = try backend.makeStorage()
        let model = try Fixtures.everyTypeModel()
        let values: [String: Any] = [
            "key": "a", "integerValue": Int64.min, "doubleValue": 0.1, "boolValue": true,
            "decimalValue": Decimal(exactly: "12345678901234567890.123")!,
            "dateValue": Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789),
            "dataValue": Data([0, 1, 255]), "uuidValue": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            "urlValue": URL(string: "https://example.com/a?b=c")!, "jsonValue": JSON.object(["b": [1, nil], "a": "x"]),
        ]
        do {
            let context = try storage.newContext(model)
            try context.insert("Sample", values: values)
            try context.insert("Sample", values: ["key": "empty"])
            try context.save()
        }
        let context = try storage.newContext(model)
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
        // Updated values (a date's two columns on PostgreSQL, a value emptied) read back as exactly.
        let later = Timestamp(seconds: -1, nanoseconds: 999_999_999)
        try empty.setValue(later, forKey: "dateValue")
        try sample.setValue(nil, forKey: "dateValue")
        try sample.setValue(Decimal(exactly: "-0.5")!, forKey: "decimalValue")
        try context.save()
        let reread = try storage.newContext(model)
        let dateIndex = try #require(model.entity(named: "Sample")?.attributeIndex(named: "dateValue"))
        #expect(try reread.object("Sample", identity: ["key": "empty"])?.attributeValue(at: dateIndex) == .date(later))
        let changed = try #require(reread.object("Sample", identity: ["key": "a"]))
        #expect(try changed.value(forKey: "dateValue") == nil)
        #expect(try changed.value(forKey: "decimalValue") as? Decimal == Decimal(exactly: "-0.5"))
        #expect(changed.rowVersion == 2)
    }

    @Test(arguments: StoreBackend.available) func decimalsKeepTheirScale(_ backend: StoreBackend) throws {
        let storage = try backend.makeStorage()
        let model = try Fixtures.everyTypeModel()
        let texts = ["a": "1250000.00", "b": "0.10", "c": "-12.500", "d": "0.000", "e": "0.00000010", "f": "15"]
        do {
            let context = try storage.newContext(model)
            for (key, text) in texts {
                try context.insert("Sample", values: ["key": key, "decimalValue": ScaledDecimal(exactly: text)!])
            }
            try context.save()
        }
        let context = try storage.newContext(model)
        let decimalIndex = try #require(model.entity(named: "Sample")?.attributeIndex(named: "decimalValue"))
        func stored(_ context: ObjectContext, _ key: String) throws -> ScaledDecimal? {
            guard case .decimal(let value)? = try #require(context.object("Sample", identity: ["key": key]))
                .attributeValue(at: decimalIndex)
            else { return nil }
            return value
        }
        for (key, text) in texts {
            #expect(try stored(context, key)?.description == text, "\(key)")
            #expect(try stored(context, key) == ScaledDecimal(exactly: text), "\(key)")
        }
        #expect(try context.object("Sample", identity: ["key": "a"])?.toJSON()["decimalValue"] == "1250000.00")
        // Predicates compare the numbers, whatever the scale.
        let million = try context.fetch(FetchRequest("Sample", predicate: FetchKey("decimalValue") == 1_250_000))
        #expect(try million.map { try $0.value(forKey: "key") as? String } == ["a"])
        let small = FetchRequest("Sample", predicate: FetchKey("decimalValue") < Decimal(1), sortedBy: [SortKey("key")])
        #expect(try context.fetch(small).map { try $0.value(forKey: "key") as? String } == ["b", "c", "d", "e"])
        // The same number at another scale is a change, saved as such.
        let tenth = try #require(context.object("Sample", identity: ["key": "b"]))
        try tenth.setValue(ScaledDecimal(exactly: "0.1")!, forKey: "decimalValue")
        #expect(context.hasChanges)
        try context.save()
        #expect(try stored(try storage.newContext(model), "b")?.description == "0.1")
    }

    @Test(arguments: StoreBackend.available) func relationshipsOfEveryKindRoundTrip(_ backend: StoreBackend) throws {
        let storage = try backend.makeStorage()
        let model = try Fixtures.companyModel()
        do {
            let context = try storage.newContext(model)
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
        let context = try storage.newContext(model)
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

    @Test(arguments: StoreBackend.available) func orderedAndManyToManyChangesSave(_ backend: StoreBackend) throws {
        let storage = try backend.makeStorage()
        let model = try Fixtures.companyModel()
        let store = try storage.open(model)
        let context = ObjectContext(model: model, persistentStore: store)
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

        let other = try storage.newContext(model)
        let reread = try #require(other.fetch(Employee.self).first)
        #expect(reread.addresses.map(\.street) == ["c", "a"])
        #expect(reread.projects.map(\.code) == ["P2"])
        #expect(try other.count(FetchRequest("Address")) == 2)
        #expect(try other.fetch(Project.self).first { $0.code == "P1" }?.members.isEmpty == true)
    }

    @Test(arguments: StoreBackend.available) func upsertFindsStoredObjects(_ backend: StoreBackend) throws {
        let model = try Fixtures.companyModel()
        let store = try backend.makeStorage().open(model)
        let first = ObjectContext(model: model, persistentStore: store)
        try first.insert("Department", values: ["name": "Sales"])
        try first.save()
        let second = ObjectContext(model: model, persistentStore: store)
        let (sales, inserted) = try second.upsert("Department", identity: ["name": "Sales"])
        #expect(!inserted)
        #expect(sales.objectID.number > 0)
        #expect(throws: ObjectError.self) { try second.insert("Department", values: ["name": "Sales"]) }
    }

    @Test(arguments: StoreBackend.available)
    func failedSaveLeavesStoreAndContextUnchanged(_ backend: StoreBackend) throws {
        let storage = try backend.makeStorage()
        let model = try Fixtures.companyModel()
        let store = try storage.open(model)
        let context = ObjectContext(model: model, persistentStore: store)
        let sales = Department(context: context)
        sales.name = "Sales"
        try context.save()
        sales.budget = 5
        for name in ["Ops", "Legal"] { try context.insert("Department", values: ["name": name]) }
        // A row inserted behind the context's back makes the save's last insert fail on the identity index.
        try storage.execute(
            sql: #"INSERT INTO "Department" ("_id", "_entity", "name") VALUES (100, 'Department', 'Legal')"#)
        let error = try #require(throws: (any Error).self) { try context.save() }
        #expect(storage.isDuplicateIdentity(error), "\(error)")
        #expect(context.insertedObjects.count == 2)
        #expect(context.updatedObjects.map(\.objectID) == [sales.objectID])
        #expect(context.insertedObjects.allSatisfy { $0.objectID.number < 0 })
        let check = try storage.newContext(model)
        #expect(try check.fetch(Department.self).map(\.name).sorted() == ["Legal", "Sales"])
        #expect(try check.fetch(Department.self).first { $0.name == "Sales" }?.budget == nil)
        // Fixing the cause lets the same changes save.
        try storage.execute(sql: #"DELETE FROM "Department" WHERE "_id" = 100"#)
        try context.save()
        #expect(try ObjectContext(model: model, persistentStore: store).count(FetchRequest("Department")) == 3)
    }

    /// A save inside a transaction the caller opened commits or rolls back with the caller's own writes.
    @Test(arguments: StoreBackend.available) func aSaveJoinsTheCallersTransaction(_ backend: StoreBackend) throws {
        struct Abandon: Error {}
        let model = try Fixtures.companyModel()
        let storage = try backend.makeStorage()
        let store = try storage.open(model)
        let context = ObjectContext(model: model, persistentStore: store)
        try context.insert("Department", values: ["name": "Sales"])
        #expect(throws: Abandon.self) {
            try store.write {
                try context.save()
                throw Abandon()
            }
        }
        #expect(try storage.newContext(model).count(FetchRequest("Department")) == 0)
        // The context took that save as done, so it is discarded (see ObjectContext.persistChanges).
        let next = ObjectContext(model: model, persistentStore: store)
        let ops = try next.insert("Department", values: ["name": "Ops"])
        _ = try store.write { try next.save() }
        #expect(ops.objectID.number > 0)
        #expect(try storage.newContext(model).fetch(Department.self).map(\.name) == ["Ops"])
    }

    @Test(arguments: StoreBackend.available) func rollbackDiscardsAndDeletesSave(_ backend: StoreBackend) throws {
        let model = try Fixtures.companyModel()
        let store = try backend.makeStorage().open(model)
        let context = ObjectContext(model: model, persistentStore: store)
        try context.insert("Department", values: ["name": "Sales"])
        try context.save()
        let sales = try #require(context.fetch(Department.self).first)
        sales.name = "Ops"
        context.rollback()
        #expect(sales.name == "Sales")
        try context.delete(sales)
        try context.save()
        #expect(try ObjectContext(model: model, persistentStore: store).count(FetchRequest("Department")) == 0)
    }

    /// Two contexts over one store, each holding the saved "Sales" department.
    private func twoContexts(
        _ backend: StoreBackend
    ) throws -> (ObjectContext, ObjectContext, Department, Department, StoreStorage) {
        let model = try Fixtures.companyModel()
        let storage = try backend.makeStorage()
        let setup = try storage.newContext(model)
        let sales = Department(context: setup)
        sales.name = "Sales"
        sales.budget = 100
        try setup.save()
        let first = try storage.newContext(model), second = try storage.newContext(model)
        return (
            first, second, try #require(first.fetch(Department.self).first),
            try #require(second.fetch(Department.self).first), storage
        )
    }

    @Test(arguments: StoreBackend.available) func conflictingSaveNamesObjectAndKeys(_ backend: StoreBackend) throws {
        let (first, second, sales, otherSales, storage) = try twoContexts(backend)
        sales.budget = 1
        try first.save()
        otherSales.budget = 2
        let error = try #require(throws: StoreError.self) { try second.save() }
        #expect(error.kind == .conflict)
        #expect(error.keys == ["budget"])
        #expect(error.object == "Department[name=Sales]")
        #expect(second.hasChanges)
        #expect(try storage.newContext(first.model).fetch(Department.self).first?.budget == 1)
    }

    @Test(arguments: StoreBackend.available)
    func storeWinsAndInMemoryWinsSettlePropertyByProperty(_ backend: StoreBackend) throws {
        for policy in [MergePolicy.storeWins, .inMemoryWins] {
            let (first, second, sales, otherSales, storage) = try twoContexts(backend)
            second.mergePolicy = policy
            sales.budget = 1
            try first.save()
            otherSales.budget = 2
            try second.save()
            let expected: Decimal = policy == .storeWins ? 1 : 2
            #expect(otherSales.budget == expected)
            #expect(try storage.newContext(first.model).fetch(Department.self).first?.budget == expected)
        }
    }

    @Test(arguments: StoreBackend.available) func deletingARowChangedSinceIsAConflict(_ backend: StoreBackend) throws {
        let (first, second, sales, otherSales, storage) = try twoContexts(backend)
        sales.budget = 1
        try first.save()
        try second.delete(otherSales)
        let error = try #require(throws: StoreError.self) { try second.save() }
        #expect(error.kind == .conflict)
        #expect(try storage.newContext(first.model).count(FetchRequest("Department")) == 1)
    }
}
