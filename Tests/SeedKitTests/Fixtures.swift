import Foundation
import SeedKit
@testable import SeedKitSupport
@testable import SeedKitJSON
@testable import SeedKitSQLite
@testable import SeedKitModel
@testable import SeedKitObjects
@testable import SeedKitCoding
@testable import SeedKitStore
@testable import SeedKitSeeding
@testable import SeedKitExport

// Typed classes of the sample company: departments, employees, a manager subentity, projects shared many-to-many,
// and addresses an employee owns.

final class Department: ManagedObject {
    @Attribute var name: String
    @Attribute var budget: Decimal?
    @Relationship(inverse: "department") var employees: [Employee]
    override class var identity: [String] { ["name"] }
}

class Employee: ManagedObject {
    @Attribute var name: String
    @Attribute var email: String
    @Attribute var hired: Date?
    @Attribute var address: String = ""
    @Relationship(inverse: "employees") var department: Department?
    @Relationship(inverse: "members") var projects: Set<Project>
    @Relationship(inverse: "resident", ordered: true, owns: true) var addresses: [Address]
    override class var identity: [String] { ["email"] }
}

final class Manager: Employee {
    @Attribute var level: Int
    @Relationship(inverse: "manager", deleteRule: .deny) var reports: [Report]
}

final class Project: ManagedObject {
    @Attribute var code: String
    @Relationship(inverse: "projects") var members: [Employee]
    override class var identity: [String] { ["code"] }
}

final class Address: ManagedObject {
    @Attribute var street: String
    @Relationship(inverse: "addresses") var resident: Employee?
}

final class Report: ManagedObject {
    @Attribute var title: String
    @Relationship(inverse: "reports") var manager: Manager?
}

/// Shared fixtures for the test suite: one place for sample models, graphs and temporary files.
enum Fixtures {
    /// The company model, from the typed classes above.
    static func companyModel() throws -> EntityModel {
        try EntityModel(classes: [Department.self, Employee.self, Manager.self, Project.self, Address.self, Report.self])
    }

    /// A context over the company model.
    static func companyContext() throws -> ObjectContext {
        ObjectContext(model: try companyModel())
    }

    /// The model of the issue's model file, as declarations (no Swift classes).
    static let fileModelDeclarations: [EntityDescription] = [
        EntityDescription(
            "Department", identity: ["name"],
            attributes: [AttributeDescription("name", .string), AttributeDescription("budget", .decimal, isOptional: true)],
            relationships: [RelationshipDescription("employees", to: "Employee", isToMany: true, inverse: "department")]),
        EntityDescription(
            "Employee", identity: ["email"],
            attributes: [
                AttributeDescription("name", .string), AttributeDescription("email", .string),
                AttributeDescription("hired", .date, isOptional: true),
                AttributeDescription("address", .string, isOptional: true, defaultValue: .string("")),
            ],
            relationships: [RelationshipDescription("department", to: "Department", inverse: "employees")]),
        EntityDescription("Manager", parent: "Employee", attributes: [AttributeDescription("level", .integer)]),
    ]

    /// The issue's model file text, exactly as written there.
    static let modelFileText = """
        {
          "entities": {
            "Department": {
              "identity": ["name"],
              "attributes": { "name": "string", "budget": "decimal?" },
              "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } }
            },
            "Employee": {
              "identity": ["email"],
              "attributes": {
                "name": "string", "email": "string", "hired": "date?",
                "address": { "type": "string", "optional": true, "default": "" }
              },
              "relationships": { "department": { "to": "Department", "inverse": "employees" } }
            },
            "Manager": { "parent": "Employee", "attributes": { "level": "integer" } }
          }
        }
        """

    /// A fresh temporary directory, removed by the caller with `removeTemporaryDirectory`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The result of running the built `seed` binary.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

extension Fixtures {
    /// The `seed` executable SwiftPM built beside the test bundle (the test target depends on it).
    static var seedExecutable: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("seed")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/seed")
    }

    /// The repository's root directory, for the sample Templates/.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `seed` with `arguments` and collects its exit status and output.
    static func runSeed(_ arguments: [String], in directory: URL? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = seedExecutable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

// Store fixtures: a model with one attribute of every type, and temporary store files.
extension Fixtures {
    /// One entity with an attribute of every type, all optional, identified by `key`.
    static func everyTypeModel() throws -> EntityModel {
        try EntityModel([
            EntityDescription(
                "Sample", identity: ["key"],
                attributes: [AttributeDescription("key", .string)]
                    + AttributeType.allCases.filter { $0 != .string }.map { AttributeDescription("\($0)Value", $0, isOptional: true) }),
        ])
    }

    /// A path for a new store file in a fresh temporary directory.
    static func temporaryStorePath() throws -> String {
        try temporaryDirectory().appendingPathComponent("store.sqlite").path
    }
}

// Seeding fixtures: a private copy of the sample template set, and the store a seed run wrote.
extension Fixtures {
    /// A fresh directory holding a copy of the repository's Templates/ as `Templates`.
    static func sampleTemplatesCopy() throws -> URL {
        let directory = try temporaryDirectory()
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("Templates"), to: directory.appendingPathComponent("Templates"))
        return directory
    }

    /// The sample set's model, read from Templates/model.json.
    static func sampleModel() throws -> EntityModel {
        try EntityModel(contentsOf: packageRoot.appendingPathComponent("Templates/model.json"))
    }

    /// Writes `text` to `path` below `directory`, creating folders.
    static func write(_ text: String, to path: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}

// MARK: - Coding fixtures

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

// MARK: - Export and diff fixtures

extension Fixtures {
    /// Inserts the objects of the sample Templates/ into a context over the sample model, built through the API
    /// rather than read from the templates. With a `shuffleSeed`, the objects are inserted, and the unordered links
    /// made, in an order that seed shuffles; ordered links keep their order.
    ///
    /// - Returns: The objects by identity value (department name, employee email, project code).
    @discardableResult
    static func insertSampleCompany(into context: ObjectContext, shuffleSeed: UInt64? = nil) throws -> [String: ManagedObject] {
        var generator = SeededGenerator(seed: shuffleSeed ?? 0)
        func ordered<Element>(_ elements: [Element]) -> [Element] {
            shuffleSeed == nil ? elements : elements.shuffled(using: &generator)
        }
        let objects: [(key: String, entity: String, values: [String: Any])] = [
            ("Engineering", "Department", ["name": "Engineering", "budget": Decimal(string: "1250000.00")!]),
            ("Sales", "Department", ["name": "Sales", "budget": Decimal(string: "480000.00")!]),
            ("APOLLO", "Project", [
                "code": "APOLLO", "title": "Apollo: the new storefront", "started": Date(timeIntervalSince1970: 1_736_154_000),
            ]),
            ("ORBIT", "Project", ["code": "ORBIT", "title": "Orbit: seed data tooling"]),
            ("ann@example.com", "Employee", [
                "name": "Ann Lee", "email": "ann@example.com", "hired": Date(timeIntervalSince1970: 1_614_589_200),
            ]),
            ("bo@example.com", "Employee", ["name": "Bo Chen", "email": "bo@example.com"]),
            ("dev@example.com", "Employee", ["name": "Dev Patel", "email": "dev@example.com"]),
            ("cleo@example.com", "Manager", ["name": "Cleo Park", "email": "cleo@example.com", "level": 2]),
        ]
        var byKey: [String: ManagedObject] = [:]
        for object in ordered(objects) {
            byKey[object.key] = try context.insert(object.entity, values: object.values)
        }
        var links: [() throws -> Void] = ordered([
            { try byKey["ann@example.com"]!.setValue(byKey["Engineering"]!, forKey: "department") },
            { try byKey["bo@example.com"]!.setValue(byKey["Engineering"]!, forKey: "department") },
            { try byKey["cleo@example.com"]!.setValue(byKey["Engineering"]!, forKey: "department") },
            { try byKey["Sales"]!.add(byKey["dev@example.com"]!, to: "employees") },
            { try byKey["ann@example.com"]!.add(byKey["APOLLO"]!, to: "projects") },
            { try byKey["ORBIT"]!.add(byKey["ann@example.com"]!, to: "members") },
            { try byKey["bo@example.com"]!.add(byKey["ORBIT"]!, to: "projects") },
            { try byKey["APOLLO"]!.add(byKey["dev@example.com"]!, to: "members") },
            { try byKey["cleo@example.com"]!.add(byKey["APOLLO"]!, to: "projects") },
            { try byKey["cleo@example.com"]!.add(byKey["bo@example.com"]!, to: "reports") },
            { try byKey["cleo@example.com"]!.add(byKey["ann@example.com"]!, to: "reports") },
        ])
        let addresses: [(resident: String, values: [String: Any])] = [
            ("ann@example.com", ["street": "1 Harbour Road", "city": "Bristol", "postcode": "BS1 4RN"]),
            ("ann@example.com", ["street": "22 Mill Lane", "city": "Bath"]),
            ("cleo@example.com", ["street": "5 Queen Square", "city": "Bristol"]),
        ]
        var addressObjects: [Int: ManagedObject] = [:]
        for index in ordered(Array(addresses.indices)) {
            addressObjects[index] = try context.insert("Address", values: addresses[index].values)
        }
        // The addresses are an ordered relationship: their links go in among the others, but in their order.
        var position = 0
        for index in addresses.indices {
            position = shuffleSeed == nil ? links.count : Int.random(in: position...links.count, using: &generator)
            links.insert({ try byKey[addresses[index].resident]!.add(addressObjects[index]!, to: "addresses") }, at: position)
            position += 1
        }
        for link in links { try link() }
        return byKey
    }

    /// A context over the sample model, without a store, holding the sample company (see ``insertSampleCompany``).
    static func sampleCompanyContext(shuffleSeed: UInt64? = nil) throws -> ObjectContext {
        let context = ObjectContext(model: try sampleModel())
        try insertSampleCompany(into: context, shuffleSeed: shuffleSeed)
        return context
    }

    /// The text of an export document with `model` (model file JSON) and `objects` (one JSON object each), laid
    /// out as ``GraphExport`` writes: line 1 `{`, the objects from line 6, one per line, at column 5.
    static func exportText(model: String, objects: [String]) -> String {
        """
        {
          "format": "seedkit-export",
          "formatVersion": 1,
          "model": \(model),
          "objects": [
        \(objects.map { "    " + $0 }.joined(separator: ",\n"))
          ]
        }

        """
    }

    /// A small model for hand-written exports: projects with identity, and playlists of tracks in order.
    static let projectsModelText = #"""
        {"entities": {"Project": {"identity": ["code"], "attributes": {"code": "string", "title": "string"}}, "Playlist": {"identity": ["name"], "attributes": {"name": "string"}, "relationships": {"tracks": {"to": "Track", "many": true, "ordered": true, "inverse": "playlists"}}}, "Track": {"identity": ["number"], "attributes": {"number": "integer"}, "relationships": {"playlists": {"to": "Playlist", "many": true, "inverse": "tracks"}}}}}
        """#
}

// MARK: - Flat template sets

extension Fixtures {
    /// A model for flat template sets: identities of each kind a flat set can hold (string, integer, UUID), every
    /// attribute type with and without defaults, aliases, a subentity, to-ones with and without an inverse — and, for
    /// what makes a set not flat, a one-to-one and a to-one whose inverse is ordered.
    static func flatModel() throws -> EntityModel {
        try EntityModel([
            EntityDescription(
                "Group", identity: ["name"],
                attributes: [
                    AttributeDescription("name", .string),
                    AttributeDescription("title", .string, isOptional: true),
                    AttributeDescription("rank", .integer, defaultValue: .integer(7)),
                    AttributeDescription("active", .bool, isOptional: true, defaultValue: .bool(true)),
                    AttributeDescription("weight", .double, isOptional: true),
                    AttributeDescription("amount", .decimal, isOptional: true),
                    AttributeDescription("at", .date, isOptional: true),
                    AttributeDescription("blob", .data, isOptional: true),
                    AttributeDescription("link", .url, isOptional: true),
                    AttributeDescription("extra", .json, isOptional: true),
                ],
                relationships: [
                    RelationshipDescription("items", to: "Item", isToMany: true, inverse: "group"),
                    RelationshipDescription("parent", to: "Group"),
                    RelationshipDescription("featured", to: "Item"),
                ],
                aliases: ["Team"]),
            EntityDescription(
                "Item", identity: ["code"],
                attributes: [
                    AttributeDescription("code", .integer),
                    AttributeDescription("label", .string, isOptional: true, aliases: ["caption"]),
                ],
                relationships: [
                    RelationshipDescription("group", to: "Group", inverse: "items"),
                    RelationshipDescription("maker", to: "Maker"),
                    RelationshipDescription("partner", to: "Item", inverse: "partnerOf"),
                    RelationshipDescription("partnerOf", to: "Item", inverse: "partner"),
                    RelationshipDescription("shelf", to: "Shelf", inverse: "slots"),
                ]),
            EntityDescription("SpecialItem", parent: "Item", attributes: [AttributeDescription("level", .integer, isOptional: true)]),
            EntityDescription(
                "Maker", identity: ["uid"],
                attributes: [AttributeDescription("uid", .uuid), AttributeDescription("name", .string, isOptional: true)]),
            EntityDescription(
                "Shelf", identity: ["code"], attributes: [AttributeDescription("code", .string)],
                relationships: [RelationshipDescription("slots", to: "Item", isToMany: true, isOrdered: true, inverse: "shelf")]),
        ])
    }
}

/// A random flat template set over ``Fixtures/flatModel()``: objects stated once each, at the top level of one to
/// four files, referring to each other by identity stubs, forward or backward, with and without `"class"`.
struct FlatSetSpec {
    /// The objects, in the order the files state them.
    var objects: [JSONObject] = []
    /// How many objects each file holds, in order; a file of one object states it bare, not in an array.
    var fileSizes: [Int] = []

    static func random(using generator: inout SeededGenerator, maxItems: Int = 12) -> FlatSetSpec {
        var spec = FlatSetSpec()
        let groups = (0..<Int.random(in: 1...5, using: &generator)).map { "g\($0)-\(generator.next() % 100)" }
        let makers = (0..<Int.random(in: 0...3, using: &generator)).map { _ in UUID(uuid: randomBytes(&generator)) }
        let items = (0..<Int.random(in: 0...maxItems, using: &generator)).map { index in
            (code: Int64(index) * 1000 + Int64.random(in: 0..<1000, using: &generator), isSpecial: Bool.random(using: &generator))
        }
        func stub(group: String) -> JSON {
            Bool.random(using: &generator) ? ["name": .string(group)] : ["class": Bool.random(using: &generator) ? "Team" : "Group", "name": .string(group)]
        }
        for group in groups {
            var members: JSONObject = ["class": "Group", "name": .string(group)]
            if Bool.random(using: &generator) { members["title"] = .string("Title of \(group) ✓ \"q\"") }
            if Bool.random(using: &generator) { members["rank"] = .number(JSONNumber(Int64.random(in: -9...9, using: &generator))) }
            if Bool.random(using: &generator) { members["active"] = Bool.random(using: &generator) ? .bool(false) : .null }
            if Bool.random(using: &generator) { members["weight"] = .number(JSONNumber(Double(Int.random(in: -99...99, using: &generator)) / 4)) }
            if Bool.random(using: &generator) { members["amount"] = .number(JSONNumber(Decimal(string: "\(Int.random(in: 0...9999, using: &generator)).05")!)) }
            if Bool.random(using: &generator) { members["at"] = .string(["2024-05-01T09:30:00Z", "2001-01-01T00:00:00.123456Z"].randomElement(using: &generator)!) }
            if Bool.random(using: &generator) { members["blob"] = "AAEC/w==" }
            if Bool.random(using: &generator) { members["link"] = .string("https://example.com/\(group)") }
            if Bool.random(using: &generator) { members["extra"] = ["k": [1, "two", .null], "z": true] }
            if let item = items.randomElement(using: &generator), Bool.random(using: &generator) {
                // Named as an Item, or as what it is: a reference may name an ancestor of the object's entity.
                let name = item.isSpecial && Bool.random(using: &generator) ? "SpecialItem" : "Item"
                members["featured"] = ["class": .string(name), "code": .number(JSONNumber(item.code))]
            }
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: members["parent"] = stub(group: groups.randomElement(using: &generator)!)
            case 1: members["parent"] = .null
            default: break
            }
            spec.objects.append(members)
        }
        for maker in makers {
            var members: JSONObject = ["class": "Maker", "uid": .string(maker.uuidString)]
            if Bool.random(using: &generator) { members["name"] = .string("Maker \(maker.uuidString.prefix(4))") }
            spec.objects.append(members)
        }
        for item in items {
            var members: JSONObject = ["class": item.isSpecial ? "SpecialItem" : "Item", "code": .number(JSONNumber(item.code))]
            if Bool.random(using: &generator) { members[Bool.random(using: &generator) ? "label" : "caption"] = .string("item \(item.code)") }
            if item.isSpecial, Bool.random(using: &generator) { members["level"] = .number(JSONNumber(Int64.random(in: 0...3, using: &generator))) }
            if Bool.random(using: &generator) { members["group"] = stub(group: groups.randomElement(using: &generator)!) }
            if let maker = makers.randomElement(using: &generator), Bool.random(using: &generator) {
                members["maker"] = Bool.random(using: &generator) ? ["uid": .string(maker.uuidString)] : ["class": "Maker", "uid": .string(maker.uuidString)]
            }
            spec.objects.append(members)
        }
        spec.objects.shuffle(using: &generator)
        var left = spec.objects.count
        while left > 0 {
            let size = min(left, Int.random(in: 1...max(1, spec.objects.count / 2), using: &generator))
            spec.fileSizes.append(size)
            left -= size
        }
        return spec
    }

    /// The objects in runs of one class each, in a random order of classes, each in the order it had.
    mutating func groupByClass(using generator: inout SeededGenerator) {
        let classes = Array(Set(objects.map { $0["class"] })).shuffled(using: &generator)
        objects = classes.flatMap { name in objects.filter { $0["class"] == name } }
    }

    /// Writes the template files and the model's `model.json` into `templates`, a template directory.
    func write(to templates: URL, model: EntityModel) throws {
        for file in files { try Fixtures.write(String(decoding: file.bytes, as: UTF8.self), to: file.relativePath, in: templates) }
        try model.write(to: templates.appendingPathComponent("model.json"))
    }

    /// The template files, named so that they sort in order.
    var files: [TemplateSet.File] {
        var files: [TemplateSet.File] = []
        var start = 0
        for (number, size) in fileSizes.enumerated() {
            let objects = objects[start..<start + size].map(JSON.object)
            start += size
            let bytes = (objects.count == 1 ? objects[0] : .array(objects)).serialized(style: .pretty)
            let path = "part-\(number).template"
            files.append(TemplateSet.File(relativePath: path, displayPath: path, bytes: bytes, hash: StableHash.hex(of: bytes)))
        }
        return files
    }

    private static func randomBytes(_ generator: inout SeededGenerator) -> uuid_t {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        return (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
    }
}
