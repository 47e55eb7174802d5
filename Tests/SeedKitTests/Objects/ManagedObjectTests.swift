import Foundation
import Testing
import SeedKit

@Suite("Managed objects")
struct ManagedObjectTests {
    @Test func typedPropertiesAndKeyValueCodingShareStorage() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        ann.name = "Ann"
        #expect(try ann.value(forKey: "name") as? String == "Ann")
        try ann.setValue("Ann Lee", forKey: "name")
        #expect(ann.name == "Ann Lee")
        #expect(ann.address == "", "a default applies to new objects")
        #expect(ann.hired == nil)
        let hired = Date(timeIntervalSince1970: 1_700_000_000.123456)
        ann.hired = hired
        #expect(try ann.value(forKey: "hired") as? Date == hired)
    }

    @Test("Objects of an entity start from its default values, and a change is the changed object's alone")
    func defaultsAreSharedUntilChanged() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        let bob = Employee(context: context)
        #expect(ann.address == "" && bob.address == "")
        ann.address = "1 Main St"
        bob.name = "Bob"
        #expect(ann.address == "1 Main St")
        #expect(bob.address == "", "another object's change leaves this one's defaults as they were")
        #expect(try context.insert("Employee").value(forKey: "address") as? String == "")
        #expect(ann.entity.defaultValues[ann.entity.attributeIndex(named: "address")!] == .string(""))
    }

    @Test func plainObjectsOfEntitiesWithoutClasses() throws {
        let context = ObjectContext(model: try EntityModel(Fixtures.fileModelDeclarations))
        let sales = try context.insert("Department", values: ["name": "Sales", "budget": Decimal(string: "1250000.50")!])
        let bob = try context.insert("Manager", values: ["name": "Bob", "email": "bob@example.com", "level": 3])
        try bob.setValue(sales, forKey: "department")
        #expect(type(of: sales) == ManagedObject.self)
        #expect(try bob.value(forKeyPath: "department.name") as? String == "Sales")
        #expect(try sales.value(forKeyPath: "employees.name") as? [String] == ["Bob"])
        #expect(try sales.value(forKey: "budget") as? Decimal == Decimal(string: "1250000.50"))
        #expect(try bob.value(forKey: "level") as? Int64 == 3)
        #expect(try bob.value(forKey: "address") as? String == "")
    }

    @Test func setValueChecksTypes() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        ann.email = "ann@example.com"
        let mismatch = #expect(throws: ObjectError.self) { try ann.setValue("yesterday", forKey: "hired") }
        #expect(mismatch?.kind == .typeMismatch)
        #expect(mismatch?.description == #"Employee[email=ann@example.com].hired: expected a date (Date or Timestamp), got String "yesterday""#)
        #expect(ann.hired == nil, "a refused value changes nothing")
        #expect(throws: ObjectError.self) { try ann.setValue(true, forKey: "name") }
        #expect(throws: ObjectError.self) { try ann.setValue(Double.nan, forKeyPath: "name") }
        let project = Project(context: context)
        let wrongEntity = #expect(throws: ObjectError.self) { try ann.setValue(project, forKey: "department") }
        #expect(wrongEntity?.message.hasPrefix("expected a Department object, got Project") == true)
        #expect(throws: ObjectError.self) { try ann.setValue(project, forKey: "projects") }
    }

    @Test func integersOfEveryWidthAndNullClear() throws {
        let context = try Fixtures.companyContext()
        let boss = Manager(context: context)
        try boss.setValue(UInt8(7), forKey: "level")
        #expect(boss.level == 7)
        #expect(throws: ObjectError.self) { try boss.setValue(UInt64.max, forKey: "level") }
        boss.hired = Date()
        try boss.setValue(NSNull(), forKey: "hired")
        #expect(boss.hired == nil)
    }

    @Test func unknownKeySuggestsTheNearestName() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        let error = #expect(throws: ObjectError.self) { try ann.value(forKey: "nmae") }
        #expect(error?.kind == .unknownKey)
        #expect(error?.message.hasPrefix("Employee has no property 'nmae'; did you mean 'name'?") == true)
        #expect(throws: ObjectError.self) { try ann.setValue("x", forKey: "nmae") }
    }

    @Test func keyPathsThroughMissingObjects() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        #expect(try ann.value(forKeyPath: "department.name") == nil)
        let error = #expect(throws: ObjectError.self) { try ann.setValue("Sales", forKeyPath: "department.name") }
        #expect(error?.kind == .brokenKeyPath)
        #expect(throws: ObjectError.self) { try ann.value(forKeyPath: "name.length") }
        let sales = Department(context: context)
        ann.department = sales
        try ann.setValue("Sales", forKeyPath: "department.name")
        #expect(sales.name == "Sales")
    }

    @Test func toOneInverseMovesBetweenOwners() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context), support = Department(context: context)
        let ann = Employee(context: context)
        ann.department = sales
        #expect(sales.employees == [ann])
        ann.department = support
        #expect(sales.employees.isEmpty)
        #expect(support.employees == [ann])
        ann.department = nil
        #expect(support.employees.isEmpty)
    }

    @Test func oneToManyInverseFromTheManySide() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context), support = Department(context: context)
        let ann = Employee(context: context), bob = Employee(context: context)
        sales.employees = [ann, bob]
        #expect(ann.department === sales && bob.department === sales)
        support.employees = [bob]
        #expect(sales.employees == [ann], "bob left sales when support took him")
        #expect(bob.department === support)
        try sales.remove(ann, from: "employees")
        #expect(ann.department == nil)
        try sales.add(ann, to: "employees")
        #expect(ann.department === sales)
    }

    @Test func manyToManyBothWays() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context), bob = Employee(context: context)
        let apollo = Project(context: context), gemini = Project(context: context)
        ann.projects = [apollo, gemini]
        bob.projects = [apollo]
        #expect(Set(apollo.members) == [ann, bob])
        #expect(gemini.members == [ann])
        apollo.members = [bob]
        #expect(ann.projects == [gemini])
        #expect(bob.projects == [apollo])
    }

    @Test func orderedRelationshipsKeepTheirOrder() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        let home = Address(context: context), work = Address(context: context), cabin = Address(context: context)
        ann.addresses = [work, home, cabin]
        #expect(ann.addresses == [work, home, cabin])
        ann.addresses = [cabin, work]
        #expect(ann.addresses == [cabin, work])
        #expect(home.resident == nil)
        try ann.remove(cabin, from: "addresses")
        #expect(ann.addresses == [work])
    }

    @Test func changeTrackingPerObject() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        try context.save()
        #expect(sales.changedKeys.isEmpty && !sales.hasChanges)
        sales.budget = 10
        let ann = Employee(context: context)
        ann.department = sales
        #expect(sales.changedKeys == ["budget", "employees"])
        #expect(sales.hasChanges)
        sales.budget = 10
        #expect(context.updatedObjects == [sales])
    }

    @Test func descriptionNamesIdentity() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        #expect(sales.description.hasPrefix("Department#"))
        sales.name = "Sales"
        #expect(sales.description == "Department[name=Sales]")
    }

    @Test func descriptionQuotesIdentityValuesThatCouldBeMisreadOrHoldControlCharacters() throws {
        let context = try Fixtures.companyContext()
        let department = Department(context: context)
        let cases = [
            ("A, B", #"Department[name="A, B"]"#), ("x\n+y", #"Department[name="x\n+y"]"#),
            (" padded", #"Department[name=" padded"]"#), ("", #"Department[name=""]"#),
            ("bell\u{7}", #"Department[name="bell\u0007"]"#), ("R&D (Zürich)", "Department[name=R&D (Zürich)]"),
        ]
        for (name, spelling) in cases {
            department.name = name
            #expect(department.description == spelling)
        }
    }
}
