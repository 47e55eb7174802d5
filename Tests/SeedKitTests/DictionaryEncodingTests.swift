import Foundation
import Testing
@testable import SeedKit

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

    @Test func exportingTwiceGivesTheSameResult() throws {
        let (context, sales, _, _) = try company()
        #expect(sales.toJSON() == sales.toJSON())
        withExtendedLifetime(context) {}
    }
}
