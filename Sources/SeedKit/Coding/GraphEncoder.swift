/// Exports objects and every object they reach as dictionaries with a `"class"` key, the form
/// ``GraphDecoder`` reads back.
///
/// Each object is written in full once. Where it is met again — a cycle, an object shared by two parents, the other
/// side of a many-to-many relationship — it is written as a reference, never dropped and never duplicated:
///
/// - an object with identity as its **identity stub**, `{"class": "Department", "name": "Sales"}`;
/// - any other object as `{"$ref": "Address-1"}`, its full form then carrying `"$id": "Address-1"`.
///
/// The output is canonical: the same graph gives the same output whatever order its objects were created or linked
/// in. Objects are visited depth-first from the roots, relationships in the entity's layout order, ordered to-many
/// members in their order and unordered ones sorted by identity, else by attribute values (see
/// ``canonicalOrder(_:)``). `$id`s are the entity name and a number counting, per entity, the objects that need one
/// in that visiting order: `"Address-1"`, `"Address-2"`, …
///
/// An object nested under its parent does not repeat the back-pointer the nesting already states: an employee nested
/// in `department.employees` has no `"department"` key, and a project nested in `employee.projects` leaves that
/// employee out of its `"members"`. The one exception is an ordered to-many inverse, where the parent's position is
/// information: there it is written as a reference. Reading the output back restores every link through inverses.
///
///     let encoder = GraphEncoder()
///     let json = encoder.encode([sales])
///     // [{"class": "Department", "name": "Sales", "employees": [{"class": "Employee", "email": "ann@…", …}]}]
///
/// The visited state belongs to each call, never to the objects, so a second export of the same objects writes
/// the same thing. Encoding recurses once per level of nesting: a chain of tens of thousands of objects without
/// identity needs a thread with a large stack, or ``encodeFlat(_:)``.
///
/// An encoder only reads objects: use it in the isolation domain of their context.
public struct GraphEncoder: Sendable {
    public var options: GraphEncodingOptions

    public init(options: GraphEncodingOptions = GraphEncodingOptions()) {
        self.options = options
    }

    /// The nested form of each root, sharing one namespace of references: a root already written inside an earlier
    /// one is a reference.
    ///
    /// - Complexity: O(*n* + *e*) for *n* objects and *e* links reached, plus the sorting of unordered to-many members
    ///   that are not already in canonical order.
    public func encode(_ roots: [ManagedObject]) -> [JSON] {
        var walk = GraphWalk<JSONOutput>(nesting: options.nesting)
        return walk.encode(roots)
    }

    /// The nested form of each root as `[String: Any]`, which `JSONSerialization` accepts; the same values as
    /// ``JSON/anyValue`` of ``encode(_:)``, built directly.
    ///
    /// - Complexity: as ``encode(_:)``.
    public func encodeDictionaries(_ roots: [ManagedObject]) -> [[String: Any]] {
        var walk = GraphWalk<FoundationOutput>(nesting: options.nesting)
        return walk.encode(roots).map { $0 as! [String: Any] }
    }

    /// The flat form: every object the roots reach, once each, in canonical order, with every relationship written
    /// as references. The options' nesting does not apply.
    ///
    /// Each link of an inverse pair is written on one side only: the ordered side of a pair where one side is ordered
    /// (its order is information), else the to-one side (like a foreign key), else the side whose destination and
    /// name sort first; a pair whose sides are both ordered is written on both.
    ///
    ///     GraphEncoder().encodeFlat([sales])
    ///     // [{"class": "Department", "name": "Sales"},
    ///     //  {"class": "Employee", "email": "ann@…", "department": {"class": "Department", "name": "Sales"}}]
    ///
    /// - Complexity: as ``encode(_:)``.
    public func encodeFlat(_ roots: [ManagedObject]) -> [JSON] {
        var walk = GraphWalk<JSONOutput>(nesting: .all)
        return walk.encodeFlat(roots)
    }
}

extension ManagedObject {
    /// The object and everything it reaches, as a JSON object with a `"class"` key (see ``GraphEncoder``).
    ///
    ///     sales.toJSON()
    ///     // {"class": "Department", "name": "Sales", "budget": 1250000.5,
    ///     //  "employees": [{"class": "Employee", "email": "ann@example.com", "name": "Ann"}]}
    ///
    /// - Complexity: O(*n* + *e*) for the *n* objects and *e* links reached, plus sorting unordered to-many members.
    public func toJSON(options: GraphEncodingOptions = GraphEncodingOptions()) -> JSON {
        GraphEncoder(options: options).encode([self])[0]
    }

    /// The object and everything it reaches as Foundation objects that `JSONSerialization` accepts: the
    /// `anyValue` of ``toJSON(options:)``, built directly.
    ///
    ///     let data = try JSONSerialization.data(withJSONObject: employee.toDictionary())
    ///
    /// - Complexity: as ``toJSON(options:)``.
    public func toDictionary(options: GraphEncodingOptions = GraphEncodingOptions()) -> [String: Any] {
        GraphEncoder(options: options).encodeDictionaries([self])[0]
    }

    /// Every object this one reaches, itself first, once each with relationships as references
    /// (see ``GraphEncoder/encodeFlat(_:)``).
    ///
    /// - Complexity: as ``toJSON(options:)``.
    public func toFlatJSON() -> [JSON] {
        GraphEncoder().encodeFlat([self])
    }
}

/// The state of one export: which objects were met, in what order, and which need an `$id`.
///
/// Two passes over the same canonical traversal: the first finds the objects met more than once, the second writes,
/// giving `$id` only to those. The sorted member lists of the first pass are replayed in the second, in the order
/// they were made, rather than sorted again.
struct GraphWalk<Output: GraphOutput> {
    struct Record {
        let object: ManagedObject
        /// Times the object was met again after its first meeting.
        var references = 0
        var id: String?
    }

    let nesting: GraphEncodingOptions.Nesting
    /// The index in `records` of each object met, in first-meeting order.
    private var recordIndex: [ObjectIdentifier: Int] = [:]
    private var records: [Record] = []
    private var sortedLists: [[ManagedObject]] = []
    private var sortedListCursor = 0
    /// Objects written in full by the second pass: records below this index.
    private var writtenCount = 0

    init(nesting: GraphEncodingOptions.Nesting) {
        self.nesting = nesting
    }

    mutating func encode(_ roots: [ManagedObject]) -> [Output.Value] {
        for root in roots {
            if let index = recordIndex[ObjectIdentifier(root)] {
                records[index].references += 1
            } else {
                plan(root, parent: nil, backIndex: nil)
            }
        }
        assignIDs { $0.references > 0 }
        return roots.map { root in
            let index = recordIndex[ObjectIdentifier(root)]!
            return index < writtenCount ? reference(to: root) : write(root, parent: nil, backIndex: nil)
        }
    }

    mutating func encodeFlat(_ roots: [ManagedObject]) -> [Output.Value] {
        for root in roots where recordIndex[ObjectIdentifier(root)] == nil {
            plan(root, parent: nil, backIndex: nil)
        }
        var referenced = Set<ObjectIdentifier>()
        for record in records {
            forEachFlatLink(of: record.object) { _, members in
                for member in members where !Self.hasIdentity(member) { referenced.insert(ObjectIdentifier(member)) }
            }
        }
        assignIDs { referenced.contains(ObjectIdentifier($0.object)) }
        return records.map { record in
            let object = record.object
            var members = Output.members(capacity: object.attributeValues.count + object.relationshipValues.count + 2)
            writeAttributes(of: object, id: record.id, into: &members)
            forEachFlatLink(of: object) { relationship, related in
                let value =
                    relationship.isToMany ? Output.array(related.map { reference(to: $0) }) : reference(to: related[0])
                Output.set(value, forKey: relationship.name, in: &members)
            }
            return Output.object(members)
        }
    }

    // MARK: First pass

    /// Records `object` and plans what it nests, mirroring ``write(_:parent:backIndex:)`` decision for decision.
    private mutating func plan(_ object: ManagedObject, parent: ManagedObject?, backIndex: Int?) {
        recordIndex[ObjectIdentifier(object)] = records.count
        records.append(Record(object: object))
        let relationships = object.entity.relationships
        // Not `relationships.indices`: an object whose context is gone has had its links removed.
        for index in object.relationshipValues.indices {
            let relationship = relationships[index]
            switch object.relationshipValues[index] {
            case .toOne(let target):
                guard let target, index != backIndex else { continue }
                planMember(target, of: object, through: relationship)
            case .toMany(let related):
                var members = related.members
                if !relationship.isOrdered, members.count > 1 {
                    members = GraphEncoder.canonicalOrder(members)
                    sortedLists.append(members)
                }
                let skipsParent = index == backIndex && !relationship.isOrdered
                for member in members where !(skipsParent && member === parent) {
                    planMember(member, of: object, through: relationship)
                }
            }
        }
    }

    private mutating func planMember(_ member: ManagedObject, of object: ManagedObject, through relationship: RelationshipDescription) {
        if let index = recordIndex[ObjectIdentifier(member)] {
            records[index].references += 1
        } else if nests(member, through: relationship) {
            plan(member, parent: object, backIndex: Self.inverseIndex(of: relationship, in: member))
        }
    }

    /// Numbers the objects without identity that `needsID` selects, per entity, in first-meeting order.
    private mutating func assignIDs(where needsID: (Record) -> Bool) {
        var counts: [String: Int] = [:]
        for index in records.indices where needsID(records[index]) && !Self.hasIdentity(records[index].object) {
            let name = records[index].object.entity.name
            let number = counts[name, default: 0] + 1
            counts[name] = number
            records[index].id = "\(name)-\(number)"
        }
    }

    // MARK: Second pass

    private mutating func write(_ object: ManagedObject, parent: ManagedObject?, backIndex: Int?) -> Output.Value {
        let record = records[writtenCount]
        writtenCount += 1
        var members = Output.members(capacity: object.attributeValues.count + object.relationshipValues.count + 2)
        writeAttributes(of: object, id: record.id, into: &members)
        let relationships = object.entity.relationships
        for index in object.relationshipValues.indices {
            let relationship = relationships[index]
            switch object.relationshipValues[index] {
            case .toOne(let target):
                guard let target, index != backIndex else { continue }
                Output.set(writeMember(target, of: object, through: relationship), forKey: relationship.name, in: &members)
            case .toMany(let related):
                var list = related.members
                if !relationship.isOrdered, list.count > 1 {
                    list = sortedLists[sortedListCursor]
                    sortedListCursor += 1
                }
                let skipsParent = index == backIndex && !relationship.isOrdered
                var elements: [Output.Value] = []
                elements.reserveCapacity(list.count)
                for member in list where !(skipsParent && member === parent) {
                    elements.append(writeMember(member, of: object, through: relationship))
                }
                if !elements.isEmpty { Output.set(Output.array(elements), forKey: relationship.name, in: &members) }
            }
        }
        return Output.object(members)
    }

    private mutating func writeMember(
        _ member: ManagedObject, of object: ManagedObject, through relationship: RelationshipDescription
    ) -> Output.Value {
        if let index = recordIndex[ObjectIdentifier(member)], index < writtenCount {
            return reference(to: member)
        }
        guard nests(member, through: relationship) else { return reference(to: member) }
        return write(member, parent: object, backIndex: Self.inverseIndex(of: relationship, in: member))
    }

    private func writeAttributes(of object: ManagedObject, id: String?, into members: inout Output.Members) {
        Output.set(Output.string(object.entity.name), forKey: "class", in: &members)
        if let id { Output.set(Output.string(id), forKey: "$id", in: &members) }
        let attributes = object.entity.attributes
        for index in attributes.indices {
            if let value = object.attributeValues[index] {
                Output.set(Output.attribute(value), forKey: attributes[index].name, in: &members)
            }
        }
    }

    /// The identity stub of an object with identity, else `{"$ref": id}`.
    private func reference(to object: ManagedObject) -> Output.Value {
        let entity = object.entity
        guard Self.hasIdentity(object) else {
            var members = Output.members(capacity: 1)
            let id = recordIndex[ObjectIdentifier(object)].flatMap { records[$0].id } ?? ""
            Output.set(Output.string(id), forKey: "$ref", in: &members)
            return Output.object(members)
        }
        var members = Output.members(capacity: entity.identityIndices.count + 1)
        Output.set(Output.string(entity.name), forKey: "class", in: &members)
        for (name, index) in zip(entity.identity, entity.identityIndices) {
            Output.set(Output.attribute(object.attributeValues[index]!), forKey: name, in: &members)
        }
        return Output.object(members)
    }

    // MARK: Rules

    private func nests(_ member: ManagedObject, through relationship: RelationshipDescription) -> Bool {
        nesting == .all || relationship.owns || !Self.hasIdentity(member)
    }

    /// Whether a stub can name the object: its entity has identity and every identity attribute has a value.
    static func hasIdentity(_ object: ManagedObject) -> Bool {
        let indices = object.entity.identityIndices
        guard !indices.isEmpty else { return false }
        for index in indices where object.attributeValues[index] == nil { return false }
        return true
    }

    /// The index, in the member's entity, of the relationship that points back along `relationship`.
    static func inverseIndex(of relationship: RelationshipDescription, in member: ManagedObject) -> Int? {
        relationship.inverse.flatMap { member.entity.relationshipIndex(named: $0) }
    }

    /// Calls `body` with each relationship of `object` the flat form writes, and its members in canonical order.
    private func forEachFlatLink(of object: ManagedObject, _ body: (RelationshipDescription, [ManagedObject]) -> Void) {
        for (index, relationship) in zip(object.relationshipValues.indices, object.entity.relationships) {
            var members = object.related(at: index)
            guard let first = members.first, Self.writesFlatSide(relationship, destination: first.entity) else { continue }
            if relationship.isToMany, !relationship.isOrdered { members = GraphEncoder.canonicalOrder(members) }
            body(relationship, members)
        }
    }

    /// Whether the flat form writes this side of an inverse pair (see ``GraphEncoder/encodeFlat(_:)``).
    static func writesFlatSide(_ relationship: RelationshipDescription, destination: Entity) -> Bool {
        guard let inverseName = relationship.inverse, let inverse = destination.relationship(named: inverseName) else {
            return true
        }
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        if relationship.isOrdered { return true }
        if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
        return (relationship.destination, relationship.name) <= (inverse.destination, inverse.name)
    }
}
