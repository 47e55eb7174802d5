import Foundation
import Testing
import SeedKit

@Suite("toJSON / toDictionary: nesting, references, canonical order")
struct DictionaryEncodingTests {
    /// Sales with Ann and Bob, both on project APOLLO; Ann owns one address.
    private func company() throws -> (ObjectContext, Department, Employee, Employee) {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        let apollo = Project(context: context)
        apollo.code = "APOLLO"
        // Created Bob first: the export must still list Ann first.
        let bob = Employee(context: context)
        bob.name = "Bob"
        bob.email = "bob@example.com"
        let ann = Employee(context: context)
        ann.name = "Ann"
        ann.email = "ann@example.com"
        for employee in [bob, ann] {
            employee.department = sales
            employee.projects = [apollo]
        }
        let home = Address(context: context)
        home.street = "1 Main St"
        ann.addresses = [home]
        return (context, sales, ann, bob)
    }

    @Test func nestsOnceAndWritesIdentityStubsForLaterMeetings() throws {
        let (context, sales, _, _) = try company()
        let json = sales.toJSON()
        let expected: JSON = [
            "class": "Department", "name": "Sales",
            "employees": [
                [
                    "class": "Employee", "name": "Ann", "email": "ann@example.com", "address": "",
                    "addresses": [["class": "Address", "street": "1 Main St"]],
                    "projects": [["class": "Project", "code": "APOLLO", "members": [
                        ["class": "Employee", "name": "Bob", "email": "bob@example.com", "address": "",
                         "department": ["class": "Department", "name": "Sales"]],
                    ]]],
                ],
                ["class": "Employee", "email": "bob@example.com"],
            ],
        ]
        #expect(json == expected)
        withExtendedLifetime(context) {}
    }

    @Test func ownedNestingWritesStubsForEverythingElse() throws {
        let (context, _, ann, _) = try company()
        let json = ann.toJSON(options: GraphEncodingOptions(nesting: .owned))
        #expect(json["department"] == ["class": "Department", "name": "Sales"])
        #expect(json["projects"] == [["class": "Project", "code": "APOLLO"]])
        #expect(json["addresses"] == [["class": "Address", "street": "1 Main St"]])
        withExtendedLifetime(context) {}
    }

    @Test func sharedObjectsWithoutIdentityGetDeterministicIDs() throws {
        let context = ObjectContext(model: try Fixtures.graphModel())
        let shared = try context.insert("Node", values: ["title": "shared"])
        let root = try context.insert("Node", values: ["title": "root"])
        let second = try context.insert("Node", values: ["title": "b"])
        let first = try context.insert("Node", values: ["title": "a"])
        for node in [second, first] {
            try root.add(node, to: "likes")
            try node.add(shared, to: "likes")
        }
        let json = root.toJSON()
        // Everything reachable nests where first met: "a", then what "a" likes, and who likes that, in turn.
        let expected: JSON = [
            "class": "Node", "$id": "Node-1", "title": "root",
            "likes": [
                ["class": "Node", "title": "a", "likes": [
                    ["class": "Node", "title": "shared", "likedBy": [
                        ["class": "Node", "$id": "Node-2", "title": "b", "likedBy": [["$ref": "Node-1"]]],
                    ]],
                ]],
                ["$ref": "Node-2"],
            ],
        ]
        #expect(json == expected)
    }

    @Test func flatFormListsEachObjectOnceWithOneSideOfEachInverse() throws {
        let (context, sales, _, _) = try company()
        let flat = sales.toFlatJSON()
        #expect(flat.count == 5)
        #expect(flat[0] == ["class": "Department", "name": "Sales"])
        let ann = try #require(flat.first { $0["email"] == "ann@example.com" })
        #expect(ann["department"] == ["class": "Department", "name": "Sales"])
        #expect(ann["addresses"] == [["$ref": "Address-1"]])
        let address = try #require(flat.first { $0["class"] == "Address" })
        #expect(address["$id"] == "Address-1")
        #expect(address["resident"] == nil)
        withExtendedLifetime(context) {}
    }

    @Test func dictionaryFormIsAcceptedByJSONSerializationAndMatchesJSON() throws {
        let (context, sales, _, _) = try company()
        sales.budget = Decimal(string: "1250000.50")!
        let dictionary = sales.toDictionary()
        #expect(JSONSerialization.isValidJSONObject(dictionary))
        let data = try JSONSerialization.data(withJSONObject: dictionary)
        #expect(try JSON(any: dictionary) == sales.toJSON())
        #expect(!data.isEmpty)
        withExtendedLifetime(context) {}
    }

    @Test func decimalsKeepTheirScaleInTheDictionaryAndThroughJSONSerialization() throws {
        let (context, sales, _, _) = try company()
        try sales.setValue(ScaledDecimal(exactly: "1250000.00")!, forKey: "budget")
        let dictionary = sales.toDictionary()
        // A Decimal would print 1250000: the digits come as the string a template writes them with.
        #expect(dictionary["budget"] as? String == "1250000.00")
        let data = try JSONSerialization.data(withJSONObject: dictionary)
        #expect(String(decoding: data, as: UTF8.self).contains(#""budget":"1250000.00""#))
        #expect(try JSON(any: dictionary) == sales.toJSON())
        // Read back, the value has its scale again; a decimal without trailing zeros stays a Decimal.
        let copy = try ObjectContext(model: context.model).fromDictionary(dictionary)
        #expect(copy.attributeValue(at: copy.entity.attributeIndex(named: "budget")!) == .decimal(ScaledDecimal(exactly: "1250000.00")!))
        sales.budget = Decimal(string: "1250000.5")!
        #expect(sales.toDictionary()["budget"] as? Decimal == Decimal(string: "1250000.5")!)
        withExtendedLifetime(context) {}
    }

    @Test func exportingTwiceGivesTheSameResult() throws {
        let (context, sales, _, _) = try company()
        #expect(sales.toJSON() == sales.toJSON())
        withExtendedLifetime(context) {}
    }

    @Test func objectsOfTwoContextsWithTheSameNumbersAreEachWrittenInFull() throws {
        let first = try Fixtures.companyContext(), second = try Fixtures.companyContext()
        let ann = Employee(context: first), bob = Employee(context: second)
        ann.name = "Ann"
        ann.email = "ann@example.com"
        bob.name = "Bob"
        bob.email = "bob@example.com"
        #expect(ann.objectID == bob.objectID)
        let json = GraphEncoder().encode([ann, bob, ann])
        #expect(json == [
            ["class": "Employee", "name": "Ann", "email": "ann@example.com", "address": ""],
            ["class": "Employee", "name": "Bob", "email": "bob@example.com", "address": ""],
            ["class": "Employee", "email": "ann@example.com"],
        ])
        withExtendedLifetime((first, second)) {}
    }

    @Test func membersWithIdentitySortAsSwiftOrdersTheirStrings() throws {
        let context = try Fixtures.companyContext()
        // Shared eight-byte prefixes, a prefix of another email, case, and non-ASCII text in the second department.
        let emails = [
            ["abcdefgh2@x", "abcdefgh1@x", "abcdefgh@x", "abcdefg@x", "Zed@x", "zed@x", "a\u{0}b@x", "a@x"],
            ["émile@x", "emile@x", "fred@x", "abcdefgh2@x.org", "abcdefgh1@x.org", "Éva@x", "eva@x"],
        ]
        for (number, list) in emails.enumerated() {
            let department = Department(context: context)
            department.name = "D\(number)"
            for email in list {
                let employee = Employee(context: context)
                employee.name = email
                employee.email = email
                employee.department = department
            }
            let written = department.toJSON()["employees"]?.arrayValue?.compactMap { $0["email"]?.stringValue }
            #expect(written == list.sorted())
        }
    }

    @Test func everyKeySetOfAnEntityIsWrittenExactly() throws {
        // Sixty-four parts with every combination of six optional values, and items too wide for one presence mask.
        let parts = (0..<6).map { AttributeDescription("p\($0)", .integer, isOptional: true) }
        let wide = (0..<70).map { AttributeDescription("v\($0)", .integer, isOptional: true) }
        let context = ObjectContext(model: try EntityModel([
            EntityDescription(
                "Box", identity: ["label"], attributes: [AttributeDescription("label", .string)],
                relationships: [
                    RelationshipDescription("parts", to: "Part", isToMany: true, inverse: "box"),
                    RelationshipDescription("items", to: "Item", isToMany: true, inverse: "box"),
                ]),
            EntityDescription(
                "Part", identity: ["code"], attributes: [AttributeDescription("code", .string)] + parts,
                relationships: [RelationshipDescription("box", to: "Box", inverse: "parts")]),
            EntityDescription(
                "Item", identity: ["code"], attributes: [AttributeDescription("code", .string)] + wide,
                relationships: [RelationshipDescription("box", to: "Box", inverse: "items")]),
        ]))
        let box = try context.insert("Box", values: ["label": "B"])
        var expectedParts: [JSON] = [], expectedItems: [JSON] = []
        for number in 0..<64 {
            let code = "p" + String(100 + number)
            var values: [String: Any] = ["code": code]
            for bit in 0..<6 where number & (1 << bit) != 0 { values["p\(bit)"] = number * 10 + bit }
            try box.add(try context.insert("Part", values: values), to: "parts")
            expectedParts.append(try JSON(any: values.merging(["class": "Part"]) { $1 }))
        }
        for number in 0..<5 {
            let code = "i\(number)"
            var values: [String: Any] = ["code": code]
            for index in 0..<70 where (index + number) % 3 == 0 { values["v\(index)"] = index }
            try box.add(try context.insert("Item", values: values), to: "items")
            expectedItems.append(try JSON(any: values.merging(["class": "Item"]) { $1 }))
        }
        let expected: JSON = ["class": "Box", "label": "B", "parts": .array(expectedParts), "items": .array(expectedItems)]
        #expect(box.toJSON() == expected)
        #expect(try JSON(any: box.toDictionary()) == expected)
    }

    @Test func anObjectWithoutIdentityMetAfterManyWithIdentityIsWrittenOnce() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        var employees: [JSON] = []
        for number in 0..<40 {
            let employee = number == 39 ? Manager(context: context) : Employee(context: context)
            employee.name = "E\(number)"
            employee.email = "e\(100 + number)@example.com"
            employee.department = sales
            var json: JSON = [
                "class": "Employee", "name": .string("E\(number)"), "email": .string("e\(100 + number)@example.com"),
                "address": "",
            ]
            if let manager = employee as? Manager {
                manager.level = 2
                let report = Report(context: context)
                report.title = "Q3"
                manager.reports = [report]
                json = ["class": "Manager", "name": "E39", "email": "e139@example.com", "address": "", "level": 2,
                        "reports": [["class": "Report", "title": "Q3"]]]
            }
            employees.append(json)
        }
        let expected: JSON = ["class": "Department", "name": "Sales", "employees": .array(employees)]
        #expect(sales.toJSON() == expected)
        #expect(try JSON(any: sales.toDictionary()) == expected)
    }
}

/// Objects fetched from a store encode their relationships, whether or not their faults have fired yet.
@Suite struct StoredObjectEncodingTests {
    @Test func fetchedObjectsEncodeTheirUnfiredRelationships() throws {
        let store = try SQLiteStore.inMemory(model: try Fixtures.sampleModel())
        let writer = store.newContext()
        let sales = try writer.insert("Department", values: ["name": "Sales"])
        let ann = try writer.insert("Employee", values: ["name": "Ann", "email": "ann@example.com"])
        try ann.setValue(sales, forKey: "department")
        let apollo = try writer.insert("Project", values: ["code": "APOLLO", "title": "Apollo"])
        try ann.add(apollo, to: "projects")
        try writer.save()

        let reader = store.newContext()
        let employee = try #require(try reader.fetch("Employee").first)
        let json = employee.toJSON()
        #expect(json["department"] == .object(["class": "Department", "name": "Sales"]))
        #expect(json["projects"]?.arrayValue?.first?["code"] == "APOLLO")
        let department = try #require(try reader.fetch("Department").first)
        #expect(department.toJSON()["employees"]?.arrayValue?.count == 1)
    }
}
