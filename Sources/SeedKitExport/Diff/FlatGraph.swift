import SeedKitJSON
import SeedKitModel
import SeedKitCoding
import SeedKitSupport

/// The objects of some top-level objects of an export, flattened for comparison: each object with identity or
/// `$id` on its own, its links recorded once per inverse pair, on the side the flat form writes (see
/// ``GraphEncoder/encodeFlat(_:)``), so that a link written by either end, or implied by nesting, compares equal.
struct FlatGraph {
    /// An object written in full.
    struct Record {
        var display: String
        var className: String
        var attributes: [String: JSON]
        /// The object as written, for showing an added or removed object.
        var json: JSON
        /// Where its top-level object starts in the text.
        var offset: Int
    }

    /// The members of one relationship of one object: named objects by key, in order, and unnamed ones as written.
    struct Links {
        var isOrdered: Bool
        var isToMany: Bool
        var keys: [String] = []
        var embedded: [JSON] = []
    }

    let keyer: ObjectKeyer
    private(set) var records: [String: Record] = [:]
    /// Object key → relationship name → members.
    private(set) var links: [String: [String: Links]] = [:]
    /// How objects without identity are shown, by key; identity keys show themselves (``ObjectKeyer/display(ofKey:)``).
    private(set) var names: [String: String] = [:]

    init(model: EntityModel) {
        keyer = ObjectKeyer(model: model)
    }

    /// Adds a top-level object and everything nested in it.
    ///
    /// - Throws: ``ExportError`` with a pointer relative to the object, for content the model cannot read.
    mutating func add(topLevel object: JSON, key: String, offset: Int) throws(ExportError) {
        let entity = try keyer.entity(of: object, pointer: .root, default: nil)
        // Objects nested in full wait here rather than on the call stack: an export may nest thousands deep.
        var pending = [Nested(object: object, entity: entity, key: key, pointer: .root)]
        while let next = pending.popLast() {
            try define(next, offset: offset, nesting: &pending)
        }
    }

    /// An object written in full, waiting to be defined.
    private struct Nested {
        var object: JSON
        var entity: Entity
        var key: String
        var pointer: JSONPointer
    }

    private mutating func define(_ nested: Nested, offset: Int, nesting pending: inout [Nested]) throws(ExportError) {
        let (object, entity, key, pointer) = (nested.object, nested.entity, nested.key, nested.pointer)
        guard case .object(let members) = object else {
            throw ExportError("expected an object of \(entity.name)", pointer: pointer)
        }
        let display = keyer.display(ofKey: key) ?? keyer.display(of: object, entity: entity)
        guard records[key] == nil else {
            throw ExportError("\(display) is written in full twice", pointer: pointer)
        }
        if !ObjectKeyer.isIdentityKey(key) { names[key] = display }
        // Reserved before the relationships are read, so that a nested copy of the same object is refused.
        records[key] = Record(display: display, className: entity.name, attributes: [:], json: object, offset: offset)
        var attributes: [String: JSON] = [:]
        for (name, value) in members where name != "class" && name != "$id" {
            if entity.attribute(named: name) != nil {
                attributes[name] = value
            } else if let relationship = entity.relationship(named: name) {
                try link(key, entity: entity, relationship, to: value, pointer: pointer.appending(name), nesting: &pending)
            } else {
                throw ExportError(
                    "unknown key '\(name)' of \(entity.name)\(Suggestion.didYouMean(name, among: entity.propertyNames))",
                    pointer: pointer.appending(name))
            }
        }
        records[key]!.attributes = attributes
    }

    private mutating func link(
        _ key: String, entity: Entity, _ relationship: RelationshipDescription, to value: JSON, pointer: JSONPointer,
        nesting pending: inout [Nested]
    ) throws(ExportError) {
        let destination = keyer.model.entity(named: relationship.destination)!
        let elements: [JSON]
        switch (value, relationship.isToMany) {
        case (.null, _): elements = []
        case (.array(let array), true): elements = array
        case (.object, false): elements = [value]
        case (_, true):
            throw ExportError("expected an array for to-many relationship '\(relationship.name)' of \(entity.name)", pointer: pointer)
        case (_, false):
            throw ExportError("expected an object or null for to-one relationship '\(relationship.name)' of \(entity.name)", pointer: pointer)
        }
        for (index, element) in elements.enumerated() {
            let elementPointer = relationship.isToMany ? pointer.appending(index) : pointer
            if case .string(let id)? = element["$ref"] {
                let memberKey = "$" + id
                if names[memberKey] == nil { names[memberKey] = ObjectKeySpelling.text(entity: destination.name, id: id) }
                record(key, relationship, memberKey, memberEntity: destination, isNested: false)
                continue
            }
            let member = try keyer.entity(of: element, pointer: elementPointer, default: destination)
            guard member.isKind(of: destination.name) else {
                throw ExportError(
                    "\(member.name) cannot be a member of '\(relationship.name)', which holds \(destination.name) objects",
                    pointer: elementPointer.appending("class"))
            }
            guard let memberKey = keyer.key(of: element, entity: member) else {
                append(embedded: element, to: key, relationship)
                continue
            }
            let isNested = isWrittenInFull(element, of: member, through: relationship)
            if isNested { pending.append(Nested(object: element, entity: member, key: memberKey, pointer: elementPointer)) }
            record(key, relationship, memberKey, memberEntity: member, isNested: isNested)
        }
    }

    /// Whether an element with a key is the object in full rather than a reference: one with `$id`, one nested
    /// under its owner, or one with more than its class and identity.
    private func isWrittenInFull(_ element: JSON, of entity: Entity, through relationship: RelationshipDescription) -> Bool {
        guard case .object(let members) = element else { return false }
        if members["$id"] != nil || relationship.owns { return true }
        return members.keys.contains { $0 != "class" && !entity.identity.contains($0) }
    }

    /// Records a link on the side the flat form writes it.
    ///
    /// A link seen from the other side matters only when the member is nested here: the encoder leaves out a nested
    /// object's pointer back to its parent, while every other object writes all its links itself.
    private mutating func record(
        _ key: String, _ relationship: RelationshipDescription, _ memberKey: String, memberEntity: Entity,
        isNested: Bool
    ) {
        if let inverseName = relationship.inverse, let inverse = memberEntity.relationship(named: inverseName),
            !GraphWalk<JSONOutput>.writesFlatSide(relationship, destination: memberEntity)
        {
            // An ordered side writes its own list, in order, even when nested.
            guard isNested, !inverse.isOrdered else { return }
            append(memberKey: key, to: memberKey, inverse)
        } else {
            append(memberKey: memberKey, to: key, relationship)
        }
    }

    private mutating func append(memberKey: String, to key: String, _ relationship: RelationshipDescription) {
        links[key, default: [:]][relationship.name, default: Links(relationship)].keys.append(memberKey)
    }

    private mutating func append(embedded: JSON, to key: String, _ relationship: RelationshipDescription) {
        links[key, default: [:]][relationship.name, default: Links(relationship)].embedded.append(embedded)
    }
}

extension FlatGraph.Links {
    init(_ relationship: RelationshipDescription) {
        self.init(isOrdered: relationship.isOrdered, isToMany: relationship.isToMany)
    }
}
