import Foundation
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding

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
            if Bool.random(using: &generator) {
                // Now and then longer than a store binds through its batch buffer.
                let isLong = Int.random(in: 0..<8, using: &generator) == 0
                members["title"] = .string(isLong ? String(repeating: "Long title of \(group) ✓ ", count: 4_000) : "Title of \(group) ✓ \"q\"")
            }
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
            files.append(TemplateSet.File(relativePath: path, displayDirectory: ".", bytes: bytes, contentHash: StableHash.value(of: bytes)))
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
