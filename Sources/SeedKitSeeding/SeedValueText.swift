import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitObjects

/// Writes the canonical JSON texts the seeder names and hashes objects by, straight from attribute storage: the
/// bytes a `JSON` value of the same members would serialize to in the canonical style, without building one.
///
///     var text = SeedValueText(model: model)
///     text.identityKey(employee.entity, employee.identityValues!)   // Employee["ann@example.com"]
///     text.valueHash(of: employee) { key(of: $0) }                  // FNV-1a of {"$class":"Employee","email":…}
///
/// A value text is an object of `"$class"`, every attribute (`null` when unset) and every hashed relationship (see
/// ``isHashed(_:)``), whose related objects appear as their keys. Ledgers hold hashes of these exact bytes, so the
/// text must not change: a stored hash would no longer match the values it was taken of.
///
/// - Complexity: O(*n*) in the size of the text, plus sorting the keys of each unordered to-many.
struct SeedValueText {
    /// One member of an entity's value text.
    private enum Member {
        case entityName
        case attribute(Int)
        case toOne(Int)
        case toMany(Int, isOrdered: Bool)
    }

    private let model: EntityModel
    private var emitter = JSONEmitter(style: .canonical)
    /// Each entity's members, in canonical key order (UTF-8 byte order), each with its key as written: the name in
    /// quotes and a colon, after a comma but for the first.
    private var layouts: [ObjectIdentifier: Layout] = [:]
    /// The layout of the entity last hashed: objects of one entity mostly come in runs.
    private var lastLayout: (entity: ObjectIdentifier, layout: Layout)?

    /// An entity's members, and their keys as written, one after another in one array: the members then hold no
    /// reference, so that writing a text retains nothing per member.
    private struct Layout {
        var keys: [UInt8] = []
        var members: [(key: Range<Int>, member: Member)] = []
    }

    init(model: EntityModel) {
        self.model = model
    }

    /// The key of an object with identity: its root entity, then the identity values as a canonical JSON array.
    mutating func identityKey(_ entity: Entity, _ identity: [AttributeValue]) -> String {
        emitter.bytes.removeAll(keepingCapacity: true)
        emitter.bytes.append(contentsOf: entity.rootName.utf8)
        emitter.bytes.append(UInt8(ascii: "["))
        for (position, value) in identity.enumerated() {
            if position > 0 { emitter.bytes.append(UInt8(ascii: ",")) }
            write(value)
        }
        emitter.bytes.append(UInt8(ascii: "]"))
        return String(decoding: emitter.bytes, as: UTF8.self)
    }

    /// The FNV-1a hash of the object's value text, with `key` naming its related objects, as the ledger's text.
    mutating func valueHash(of object: ManagedObject, key: (ManagedObject) -> String) -> String {
        writeValueText(
            of: object.entity, attribute: { object.attributeValue(at: $0) }, toOne: { object.object(at: $0).map(key) },
            toMany: { object.objects(at: $0).map(key) })
        return StableHash.hex(of: emitter.bytes)
    }

    /// Appends the value text of an object of `entity` given by its parts to `texts`: `attribute` gives the value
    /// of the attribute at an index, `toOne` the key of a to-one's target, `toMany` the keys of a to-many's members.
    ///
    /// For hashing many objects' texts at once, which is faster than one at a time (``StableHash/values(of:ranges:)``).
    mutating func appendValueText(
        of entity: Entity, attribute: (Int) -> AttributeValue?, toOne: (Int) -> String?, toMany: (Int) -> [String],
        to texts: inout [UInt8]
    ) {
        writeValueText(of: entity, attribute: attribute, toOne: toOne, toMany: toMany)
        texts.append(contentsOf: emitter.bytes)
    }

    private mutating func writeValueText(
        of entity: Entity, attribute: (Int) -> AttributeValue?, toOne: (Int) -> String?, toMany: (Int) -> [String]
    ) {
        let layout = layout(of: entity)
        emitter.bytes.removeAll(keepingCapacity: true)
        emitter.bytes.append(UInt8(ascii: "{"))
        for (key, member) in layout.members {
            layout.keys.withUnsafeBufferPointer { keys in emitter.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: keys[key])) }
            switch member {
            case .entityName:
                emitter.write(entity.name)
            case .attribute(let index):
                if let value = attribute(index) { write(value) } else { emitter.append("null") }
            case .toOne(let index):
                if let target = toOne(index) { emitter.write(target) } else { emitter.append("null") }
            case .toMany(let index, let isOrdered):
                var targets = toMany(index)
                // The order keys had as `String`s: the hashes of ledgers already written depend on it.
                if !isOrdered { targets.sort() }
                emitter.bytes.append(UInt8(ascii: "["))
                for (offset, target) in targets.enumerated() {
                    if offset > 0 { emitter.bytes.append(UInt8(ascii: ",")) }
                    emitter.write(target)
                }
                emitter.bytes.append(UInt8(ascii: "]"))
            }
        }
        emitter.bytes.append(UInt8(ascii: "}"))
    }

    /// Whether a relationship is part of the value text: to-ones, and to-manys not mirrored by a to-one inverse
    /// (those are covered from the other side).
    func isHashed(_ relationship: RelationshipDescription) -> Bool {
        guard relationship.isToMany else { return true }
        guard let inverse = relationship.inverse, let destination = model.entity(named: relationship.destination),
            let inverseRelationship = destination.relationship(named: inverse)
        else { return true }
        return inverseRelationship.isToMany
    }

    private mutating func write(_ value: AttributeValue) {
        switch value {
        case .string(let string):
            emitter.write(string)
        case .integer(let integer):
            // Digits straight into the text: the canonical form of an integer, without a `JSON` number to hold it.
            NumberText.appendInteger(integer, to: &emitter.bytes)
        case .date(let timestamp):
            // The JSON string of the date, written in place: its characters never need escaping.
            emitter.bytes.append(UInt8(ascii: "\""))
            timestamp.appendISO8601Text(keepingEveryFractionDigit: false, to: &emitter.bytes)
            emitter.bytes.append(UInt8(ascii: "\""))
        default:
            emitter.write(value.json, indent: 0)
        }
    }

    private mutating func layout(of entity: Entity) -> Layout {
        if let last = lastLayout, last.entity == ObjectIdentifier(entity) { return last.layout }
        if let layout = layouts[ObjectIdentifier(entity)] {
            lastLayout = (ObjectIdentifier(entity), layout)
            return layout
        }
        var members: [(name: String, member: Member)] = [("$class", .entityName)]
        for (index, attribute) in entity.attributes.enumerated() { members.append((attribute.name, .attribute(index))) }
        for (index, relationship) in entity.relationships.enumerated() where isHashed(relationship) {
            members.append((relationship.name, relationship.isToMany ? .toMany(index, isOrdered: relationship.isOrdered) : .toOne(index)))
        }
        members.sort { JSONEmitter.precedes($0.name, $1.name) }
        var keyEmitter = JSONEmitter(style: .canonical)
        var layout = Layout()
        for (position, member) in members.enumerated() {
            let start = keyEmitter.bytes.count
            if position > 0 { keyEmitter.bytes.append(UInt8(ascii: ",")) }
            keyEmitter.writeKey(member.name)
            layout.members.append((start..<keyEmitter.bytes.count, member.member))
        }
        layout.keys = keyEmitter.bytes
        layouts[ObjectIdentifier(entity)] = layout
        lastLayout = (ObjectIdentifier(entity), layout)
        return layout
    }
}
