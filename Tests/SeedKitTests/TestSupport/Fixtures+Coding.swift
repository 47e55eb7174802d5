import Foundation
import SeedKit

extension Fixtures {
    /// A model for graph coding tests: nodes without identity holding every attribute type, self references of every
    /// shape (ordered owned children, one-to-one, many-to-many), a subentity, and tags with identity.
    static func graphModel() throws -> EntityModel {
        let optional: [AttributeDescription] = [
            AttributeDescription("count", .integer, isOptional: true),
            AttributeDescription("ratio", .double, isOptional: true),
            AttributeDescription("flag", .bool, isOptional: true),
            AttributeDescription("amount", .decimal, isOptional: true),
            AttributeDescription("at", .date, isOptional: true),
            AttributeDescription("blob", .data, isOptional: true),
            AttributeDescription("uid", .uuid, isOptional: true),
            AttributeDescription("link", .url, isOptional: true),
            AttributeDescription("extra", .json, isOptional: true),
        ]
        return try EntityModel([
            EntityDescription(
                "Node", attributes: [AttributeDescription("title", .string)] + optional,
                relationships: [
                    RelationshipDescription("children", to: "Node", isToMany: true, isOrdered: true, inverse: "parent", owns: true),
                    RelationshipDescription("parent", to: "Node", inverse: "children"),
                    RelationshipDescription("next", to: "Node", inverse: "previous"),
                    RelationshipDescription("previous", to: "Node", inverse: "next"),
                    RelationshipDescription("likes", to: "Node", isToMany: true, inverse: "likedBy"),
                    RelationshipDescription("likedBy", to: "Node", isToMany: true, inverse: "likes"),
                    RelationshipDescription("tags", to: "Tag", isToMany: true, inverse: "nodes"),
                ]),
            EntityDescription("SpecialNode", parent: "Node", attributes: [AttributeDescription("level", .integer)]),
            EntityDescription(
                "Tag", identity: ["label"], attributes: [AttributeDescription("label", .string)],
                relationships: [RelationshipDescription("nodes", to: "Node", isToMany: true, inverse: "tags")]),
        ])
    }
}

/// A graph described independently of any context, so that it can be built in different creation orders.
struct GraphSpec {
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
            if Bool.random(using: &generator) { values["amount"] = .decimal(ScaledDecimal(exactly: "\(Int.random(in: 0...99999, using: &generator)).\(Int.random(in: 1...99, using: &generator))")!) }
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

/// SplitMix64: a small, fast generator whose sequence depends only on its seed, for reproducible random tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
