import Foundation
import Testing
@testable import SeedKit

/// A graph described independently of any context, so that it can be built in different creation orders.
private struct GraphSpec {
    struct NodeSpec {
        var isSpecial: Bool
        var values: [String: AttributeValue]
    }
    var nodes: [NodeSpec] = []
    var tags: [String] = []
    var children: [(parent: Int, child: Int)] = []
    var next: [(Int, Int)] = []
    var likes: [(Int, Int)] = []
    var tagLinks: [(node: Int, tag: Int)] = []

    static func random(using generator: inout SeededGenerator) -> GraphSpec {
        var spec = GraphSpec()
        let nodeCount = Int.random(in: 1...12, using: &generator)
        for index in 0..<nodeCount {
            // A unique title: nodes have no identity, so their canonical order needs values that tell them apart.
            var values: [String: AttributeValue] = ["title": .string("n\(index)-\(generator.next() % 1000)")]
            if Bool.random(using: &generator) { values["count"] = .integer(Int64.random(in: -1000...1000, using: &generator)) }
            if Bool.random(using: &generator) { values["ratio"] = .double(Double(Int.random(in: -500...500, using: &generator)) / 8) }
            if Bool.random(using: &generator) { values["flag"] = .bool(Bool.random(using: &generator)) }
            if Bool.random(using: &generator) { values["amount"] = .decimal(Decimal(string: "\(Int.random(in: 0...99999, using: &generator)).\(Int.random(in: 1...99, using: &generator))")!) }
            if Bool.random(using: &generator) {
                values["at"] = .date(Timestamp(seconds: Int64.random(in: -1_000_000_000...2_000_000_000, using: &generator), nanoseconds: Int32.random(in: 0..<1_000_000, using: &generator) * 1000))
            }
            if Bool.random(using: &generator) { values["blob"] = .data(Data((0..<Int.random(in: 0...6, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })) }
            if Bool.random(using: &generator) { values["extra"] = .json(["k": .number(JSONNumber(Int64.random(in: 0...9, using: &generator))), "s": "\u{0}é"]) }
            let isSpecial = Int.random(in: 0..<4, using: &generator) == 0
            if isSpecial { values["level"] = .integer(Int64.random(in: 0...5, using: &generator)) }
            spec.nodes.append(NodeSpec(isSpecial: isSpecial, values: values))
        }
        spec.tags = (0..<Int.random(in: 0...3, using: &generator)).map { "tag\($0)" }
        // Children form a forest: a node's parent is an earlier node.
        for child in 1..<max(nodeCount, 1) where Int.random(in: 0..<3, using: &generator) == 0 {
            spec.children.append((Int.random(in: 0..<child, using: &generator), child))
        }
        var nextFree = Set(0..<nodeCount), previousFree = Set(0..<nodeCount)
        for _ in 0..<nodeCount / 3 {
            let a = Int.random(in: 0..<nodeCount, using: &generator), b = Int.random(in: 0..<nodeCount, using: &generator)
            if nextFree.contains(a), previousFree.contains(b) {
                nextFree.remove(a)
                previousFree.remove(b)
                spec.next.append((a, b))
            }
        }
        for _ in 0..<nodeCount {
            let a = Int.random(in: 0..<nodeCount, using: &generator), b = Int.random(in: 0..<nodeCount, using: &generator)
            if !spec.likes.contains(where: { $0 == (a, b) }) { spec.likes.append((a, b)) }
        }
        if !spec.tags.isEmpty {
            for node in 0..<nodeCount where Bool.random(using: &generator) {
                spec.tagLinks.append((node, Int.random(in: 0..<spec.tags.count, using: &generator)))
            }
        }
        return spec
    }

    /// Builds the graph, creating objects and links in an order that `shuffle` may change; returns node 0.
    func build(in context: ObjectContext, shuffle: ((inout [Int]) -> Void)? = nil) throws -> ManagedObject {
        var order = Array(nodes.indices)
        shuffle?(&order)
        var objects: [Int: ManagedObject] = [:]
        for index in order {
            let node = try context.insert(nodes[index].isSpecial ? "SpecialNode" : "Node")
            for (key, value) in nodes[index].values {
                try node.setAttributeValue(value, at: node.entity.attributeIndex(named: key)!)
            }
            objects[index] = node
        }
        var tagObjects: [ManagedObject] = []
        for label in tags { tagObjects.append(try context.insert("Tag", values: ["label": label])) }
        var links: [() throws -> Void] = []
        for (parent, child) in children { links.append { try objects[parent]!.add(objects[child]!, to: "children") } }
        for (a, b) in next { links.append { try objects[a]!.setValue(objects[b]!, forKey: "next") } }
        for (a, b) in likes { links.append { try objects[a]!.add(objects[b]!, to: "likes") } }
        for (node, tag) in tagLinks { links.append { try objects[node]!.add(tagObjects[tag], to: "tags") } }
        // Ordered children must keep their order, so only the other links are shuffled.
        let childLinks = links.prefix(children.count)
        var otherLinks = Array(links.dropFirst(children.count))
        if shuffle != nil { otherLinks.reverse() }
        for link in childLinks { try link() }
        for link in otherLinks { try link() }
        return objects[0]!
    }
}

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
            "amount": .decimal(Decimal(string: "0.1")!), "at": .date(Timestamp(seconds: 1_714_555_800, nanoseconds: 123_456_000)),
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
}
