import Foundation
import Testing
import SeedKit

@Suite("Round trips: toJSON, fromJSON into an empty context, toJSON again")
struct RoundTripTests {
    /// Decodes `json` into a new context and encodes the first object again.
    private func roundTrip(_ json: JSON, model: EntityModel) throws -> JSON {
        let context = ObjectContext(model: model)
        let objects = try context.fromJSON(json)
        return try withExtendedLifetime(context) { try #require(objects.first).toJSON() }
    }

    @Test func companyGraphWithCyclesManyToManyInheritanceAndOrder() throws {
        let context = try Fixtures.companyContext()
        let sales = Department(context: context)
        sales.name = "Sales"
        sales.budget = Decimal(string: "12345678901234567890.123")!
        let ann = Manager(context: context)
        ann.name = "Ann 👩‍💼"
        ann.email = "ann@example.com"
        ann.level = 3
        ann.hired = Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000).date
        let bob = Employee(context: context)
        bob.name = "Bob \"quoted\" \\ \u{0}"
        bob.email = "bob@example.com"
        for employee in [bob, ann] { employee.department = sales }
        let apollo = Project(context: context)
        apollo.code = "APOLLO"
        let zephyr = Project(context: context)
        zephyr.code = "ZEPHYR"
        ann.projects = [apollo, zephyr]
        bob.projects = [zephyr]
        for street in ["1 Main St", "2 Side St"] {
            let address = Address(context: context)
            address.street = street
            ann.addresses.append(address)
        }
        let json = sales.toJSON()
        #expect(try roundTrip(json, model: context.model) == json)
        // Starting anywhere in the cycle works too.
        let fromAddress = ann.addresses[1].toJSON()
        #expect(try roundTrip(fromAddress, model: context.model) == fromAddress)
    }

    @Test func everyAttributeTypeKeepsItsExactValue() throws {
        let context = ObjectContext(model: try Fixtures.graphModel())
        let node = try context.insert("Node", values: ["title": "emoji 🧪, escapes \"\\/\n\t and \u{0}"])
        let values: [String: AttributeValue] = [
            "count": .integer(.min), "ratio": .double(0.1), "flag": .bool(false),
            "amount": .decimal(ScaledDecimal(exactly: "0.1")!), "at": .date(Timestamp(seconds: 1_714_555_800, nanoseconds: 123_456_000)),
            "blob": .data(Data([0, 1, 254, 255])), "uid": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            "link": .url(URL(string: "https://example.com/a?b=c")!), "extra": .json(["nested": [1, 2.5, nil, "x"]]),
        ]
        for (key, value) in values { try node.setAttributeValue(value, at: node.entity.attributeIndex(named: key)!) }
        let json = node.toJSON()
        #expect(json["at"] == "2024-05-01T09:30:00.123456Z")
        #expect(json["amount"] == .number(JSONNumber(Decimal(string: "0.1")!)))
        #expect(json["blob"] == "AAH+/w==")
        let copyContext = ObjectContext(model: context.model)
        let copy = try #require(try copyContext.fromJSON(json).first)
        for (key, value) in values { #expect(copy.attributeValue(at: copy.entity.attributeIndex(named: key)!) == value) }
        #expect(copy.toJSON() == json)
        // Through text, too: the decimal stays exact and the date keeps its microseconds.
        let text = json.text(style: .canonical)
        let textContext = ObjectContext(model: context.model)
        let fromText = try #require(try textContext.decode(text: text).first)
        #expect(fromText.toJSON() == json)
    }

    @Test func selfReferencesAndSharedObjectsWithoutIdentity() throws {
        let context = ObjectContext(model: try Fixtures.graphModel())
        let a = try context.insert("Node", values: ["title": "a"])
        let b = try context.insert("Node", values: ["title": "b"])
        try a.add(a, to: "likes")  // a self reference
        try a.add(b, to: "likes")
        try b.add(a, to: "likes")
        try a.setValue(b, forKey: "next")
        try b.setValue(a, forKey: "next")
        let json = a.toJSON()
        #expect(json["$id"] == "Node-1")
        #expect(try roundTrip(json, model: context.model) == json)
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomGraphsRoundTripAndDoNotDependOnCreationOrder(batch: UInt64) throws {
        let model = try Fixtures.graphModel()
        var generator = SeededGenerator(seed: 0x5EED_0000 + batch)
        for round in 0..<100 {
            let spec = GraphSpec.random(using: &generator)
            // Objects hold their context weakly: keep each context alive while its objects are used.
            let context = ObjectContext(model: model)
            let root = try spec.build(in: context)
            let json = root.toJSON()
            var shuffler = SeededGenerator(seed: UInt64(round))
            let otherContext = ObjectContext(model: model)
            let reordered = try spec.build(in: otherContext) { $0.shuffle(using: &shuffler) }.toJSON()
            #expect(reordered == json, "batch \(batch) round \(round): creation order changed the export")
            let again = try roundTrip(json, model: model)
            #expect(again == json, "batch \(batch) round \(round): \(json.text(style: .canonical))\n\(again.text(style: .canonical))")
            let flat = root.toFlatJSON()
            let flatContext = ObjectContext(model: model)
            let flatCopy = try #require(try flatContext.fromJSON(.array(flat)).first)
            #expect(flatCopy.toFlatJSON() == flat, "batch \(batch) round \(round): flat form")
            #expect(flatCopy.toJSON() == json, "batch \(batch) round \(round): flat form to nested")
        }
    }

    @Test func theModelsTemplateConventionsRoundTrip() throws {
        let model = try Fixtures.conventionsModel()
        let context = ObjectContext(model: model)
        let sales = try context.insert("Department", values: ["name": "Sales", "budgetTotal": Decimal(string: "10.5")!])
        let ann = try context.insert(
            "Employee",
            values: [
                "fullName": "Ann", "emailAddress": "ann@example.com",
                "hiredAt": Timestamp(seconds: -1, nanoseconds: 500_000_000).date,
            ])
        try ann.setValue(sales, forKey: "department")
        let json = sales.toJSON()
        // Keys in snake_case, dates in their formats; the department met again inside its employee is its name.
        #expect(json["budget_total"] == 10.5)
        #expect(json["employees"]?.arrayValue?.first?["hired_at"] == -0.5)
        #expect(try roundTrip(json, model: model) == json)
        #expect(ann.toFlatJSON()[0]["department"] == "Sales")
        let owned = ann.toJSON(options: GraphEncodingOptions(nesting: .owned))
        #expect(owned["department"] == "Sales")
        let copy = ObjectContext(model: model)
        let annCopy = try #require(try copy.fromJSON(owned).first)
        #expect(annCopy.toJSON(options: GraphEncodingOptions(nesting: .owned)) == owned)
    }
}
