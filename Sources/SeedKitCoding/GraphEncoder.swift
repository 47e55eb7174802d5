import SeedKitJSON
import SeedKitModel
import SeedKitObjects

/// Writes objects and every object they reach as dictionaries with a `"class"` key, the form ``GraphDecoder`` reads
/// back.
///
///     let json = GraphEncoder().encode([sales])
///     // [{"class": "Department", "name": "Sales", "employees": [{"class": "Employee", "email": "ann@…", …}]}]
///
/// Each object is written in full once; met again (a cycle, a shared object, a many-to-many), it is a reference: an
/// identity stub such as `{"class": "Department", "name": "Sales"}`, else `{"$ref": "Address-1"}`. The same graph
/// gives the same output whatever order it was built in. Keys, dates and references follow the model's template
/// conventions, as ``GraphDecoder`` reads them. See <doc:ObjectGraphsAsDictionaries>.
///
/// An encoder only reads objects: use it in the isolation domain of their context. Encoding recurses once per level
/// of nesting: a chain of tens of thousands of objects without identity needs a thread with a large stack.
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

    /// The nested form of each root as `[String: Any]`, which `JSONSerialization` accepts: the values of
    /// ``encode(_:)`` as Foundation objects, built directly.
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
    package func encodeFlat(_ roots: [ManagedObject]) -> [JSON] {
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
    package func toFlatJSON() -> [JSON] {
        GraphEncoder().encodeFlat([self])
    }
}

/// The state of one export: which objects were met, in what order, and which need an `$id`.
///
/// Only an object without identity can need an `$id`, so an export first writes everything in one pass as if none
/// did, and gives up on meeting the first object without identity. It then starts over in two passes over the same
/// canonical traversal: the first finds the objects met more than once, the second writes, giving `$id` only to
/// those. The sorted member lists of the first pass are replayed in the second, in the order they were made, rather
/// than sorted again. Either way the output is the same.
package struct GraphWalk<Output: GraphOutput> {
    struct Record {
        let object: ManagedObject
        /// Times the object was met again after its first meeting.
        var references = 0
        var id: String?
    }

    /// Thrown by a one-pass export on meeting an object without identity, which may need an `$id`.
    private struct NeedsFirstPass: Error {}

    let nesting: GraphEncodingOptions.Nesting
    /// The objects a one-pass export has met.
    private var metInOnePass = FirstMeetings()
    /// The index in `records` of each object met, once planned.
    private var met = IdentityTable()
    /// Whether a first pass has filled `records` and `sortedLists`.
    private var isPlanned = false
    private var records: [Record] = []
    private var sortedLists: [[ManagedObject]] = []
    private var sortedListCursor = 0
    /// Objects written in full so far; once planned, the records below this index.
    private var writtenCount = 0
    private let layouts = ExportLayouts<Output>()

    init(nesting: GraphEncodingOptions.Nesting) {
        self.nesting = nesting
    }

    mutating func encode(_ roots: [ManagedObject]) -> [Output.Value] {
        do {
            return try encodeInOnePass(roots)
        } catch {
            // The planned export meets at least the objects written before giving up.
            met = IdentityTable(minimumCapacity: writtenCount)
            metInOnePass = FirstMeetings()
            writtenCount = 0
        }
        isPlanned = true
        for root in roots {
            if let index = met.value(for: root) {
                records[index].references += 1
            } else {
                plan(root, layout: layouts.layout(for: root.entity), parent: nil, backIndex: nil)
            }
        }
        assignIDs { $0.references > 0 }
        return roots.map { root in
            let layout = layouts.layout(for: root.entity)
            if met.value(for: root)! < writtenCount { return reference(to: root, layout: layout) }
            do {
                return try write(root, layout: layout, parent: nil, backIndex: nil)
            } catch {
                preconditionFailure("a planned export never starts over")
            }
        }
    }

    mutating func encodeFlat(_ roots: [ManagedObject]) -> [Output.Value] {
        isPlanned = true
        for root in roots where met.value(for: root) == nil {
            plan(root, layout: layouts.layout(for: root.entity), parent: nil, backIndex: nil)
        }
        var referenced = Set<ObjectIdentifier>()
        for record in records {
            Self.forEachFlatLink(of: record.object) { _, _, members in
                for member in members where !GraphWalk.hasIdentity(member) { referenced.insert(ObjectIdentifier(member)) }
            }
        }
        assignIDs { referenced.contains(ObjectIdentifier($0.object)) }
        return records.map { record in
            let object = record.object
            let layout = layouts.layout(for: object.entity)
            var members = MembersBuilder(capacity: layout.slotCount + 1, classValue: layout.classValue)
            writeAttributes(object.attributeValues, layout: layout, id: record.id, into: &members)
            Self.forEachFlatLink(of: object) { index, relationship, related in
                let link = layout.links[index]
                let value =
                    relationship.isToMany
                    ? Output.array(related.map { reference(to: $0, layout: layouts.layout(for: $0.entity), link: link) })
                    : reference(to: related[0], layout: layouts.layout(for: related[0].entity), link: link)
                members.set(value, slot: layout.linkSlot(index), key: link.key)
            }
            return Output.object(members.members)
        }
    }

    // MARK: One pass

    private mutating func encodeInOnePass(_ roots: [ManagedObject]) throws(NeedsFirstPass) -> [Output.Value] {
        var values: [Output.Value] = []
        values.reserveCapacity(roots.count)
        for root in roots {
            let layout = layouts.layout(for: root.entity)
            if metInOnePass.insert(root, root: layout.rootSlot) {
                values.append(reference(to: root, layout: layout))
            } else {
                values.append(try write(root, layout: layout, parent: nil, backIndex: nil))
            }
        }
        return values
    }

    // MARK: First pass

    /// Records `object` and plans what it nests, mirroring ``write(_:layout:parent:backIndex:)`` decision for decision.
    private mutating func plan(_ object: ManagedObject, layout: ExportLayout<Output>, parent: ManagedObject?, backIndex: Int?) {
        _ = met.insert(records.count, for: object)
        records.append(Record(object: object))
        object.fireFaults()
        // Not `layout.links.indices`: an object whose context is gone has had its links removed.
        for index in object.relationshipValues.indices {
            switch object.relationshipValues[index] {
            case .toOne(let target):
                guard let target, index != backIndex else { continue }
                planMember(target, of: object, layout: layout, link: index)
            case .toMany(let related):
                let isOrdered = layout.links[index].isOrdered
                var members = related.members
                if !isOrdered, members.count > 1 {
                    members = GraphEncoder.canonicalOrder(members)
                    sortedLists.append(members)
                }
                let skipsParent = index == backIndex && !isOrdered
                for member in members where !(skipsParent && member === parent) {
                    planMember(member, of: object, layout: layout, link: index)
                }
            }
        }
    }

    private mutating func planMember(_ member: ManagedObject, of object: ManagedObject, layout: ExportLayout<Output>, link: Int) {
        if let index = met.value(for: member) {
            records[index].references += 1
            return
        }
        let memberLayout = layouts.layout(for: member.entity)
        if nests(member, layout: memberLayout, owns: layout.links[link].owns) {
            plan(
                member, layout: memberLayout, parent: object,
                backIndex: layout.inverseIndex(ofLink: link, in: member.entity))
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

    // MARK: Writing

    /// The full form of `object`, which has just been met for the first time.
    private mutating func write(
        _ object: ManagedObject, layout: ExportLayout<Output>, parent: ManagedObject?, backIndex: Int?
    ) throws(NeedsFirstPass) -> Output.Value {
        // Read once: each read of an object's stored property is an exclusivity check.
        object.fireFaults()
        let attributeValues = object.attributeValues
        let relationshipValues = object.relationshipValues
        let id: String?
        if isPlanned {
            id = records[writtenCount].id
        } else {
            guard layout.hasIdentity(attributeValues) else { throw NeedsFirstPass() }
            id = nil
        }
        writtenCount += 1
        var members = layout.builder(
            presence: layout.usesTemplates
                ? presence(attributeValues, relationshipValues, layout: layout, id: id, parent: parent, backIndex: backIndex)
                : 0)
        writeAttributes(attributeValues, layout: layout, id: id, into: &members)
        for index in relationshipValues.indices {
            switch relationshipValues[index] {
            case .toOne(let target):
                guard let target, index != backIndex else { continue }
                let value = try writeMember(
                    target, as: memberEntity(of: target, through: index, of: layout), of: object, link: layout.links[index])
                members.set(value, slot: layout.linkSlot(index), key: layout.links[index].key)
            case .toMany(let related):
                let isOrdered = layout.links[index].isOrdered
                var list = related.members
                if !isOrdered, list.count > 1 {
                    if isPlanned {
                        list = sortedLists[sortedListCursor]
                        sortedListCursor += 1
                    } else {
                        list = GraphEncoder.canonicalOrder(list)
                    }
                }
                let skipsParent = index == backIndex && !isOrdered
                let link = layout.links[index]
                var elements: [Output.Value] = []
                elements.reserveCapacity(list.count)
                var entity: MemberEntity?
                for member in list where !(skipsParent && member === parent) {
                    if entity?.layout.entity !== member.entity {
                        entity = memberEntity(of: member, through: index, of: layout)
                    }
                    elements.append(try writeMember(member, as: entity!, of: object, link: link))
                }
                if !elements.isEmpty {
                    members.set(Output.array(elements), slot: layout.linkSlot(index), key: link.key)
                }
            }
        }
        return Output.object(members.members)
    }

    /// Which slots ``write(_:layout:parent:backIndex:)`` fills for `object`, decided the same way.
    private func presence(
        _ attributeValues: AttributeValues, _ relationshipValues: [RelationshipValue], layout: ExportLayout<Output>,
        id: String?, parent: ManagedObject?, backIndex: Int?
    ) -> UInt64 {
        var presence: UInt64 = id == nil ? 0 : 1
        for index in attributeValues.indices {
            if case .some = attributeValues[index] { presence |= 1 << UInt64(layout.attributeSlot(index)) }
        }
        for index in relationshipValues.indices {
            let isWritten: Bool
            switch relationshipValues[index] {
            case .toOne(let target):
                isWritten = target != nil && index != backIndex
            case .toMany(let related):
                // Every member gives one element, but for the parent when the nesting skips it.
                let skipsParent = index == backIndex && !layout.links[index].isOrdered
                let members = related.members
                isWritten = members.count > 1 || (members.count == 1 && !(skipsParent && members[0] === parent))
            }
            if isWritten { presence |= 1 << UInt64(layout.linkSlot(index)) }
        }
        return presence
    }

    /// A member's layout and the index of the relationship pointing back to the object it is a member of: the same
    /// for every member of one entity in a relationship, so a list works it out when the entity changes.
    private struct MemberEntity {
        let layout: ExportLayout<Output>
        let backIndex: Int?
    }

    private func memberEntity(of member: ManagedObject, through link: Int, of layout: ExportLayout<Output>) -> MemberEntity {
        MemberEntity(
            layout: layouts.layout(for: member.entity), backIndex: layout.inverseIndex(ofLink: link, in: member.entity))
    }

    private mutating func writeMember(
        _ member: ManagedObject, as entity: MemberEntity, of object: ManagedObject, link: ExportLayout<Output>.Link
    ) throws(NeedsFirstPass) -> Output.Value {
        let memberLayout = entity.layout
        guard nests(member, layout: memberLayout, owns: link.owns) else {
            return reference(to: member, layout: memberLayout, link: link)
        }
        if isPlanned {
            // Planning recorded every object that nests.
            if met.value(for: member)! < writtenCount { return reference(to: member, layout: memberLayout, link: link) }
        } else if metInOnePass.insert(member, root: memberLayout.rootSlot) {
            return reference(to: member, layout: memberLayout, link: link)
        }
        return try write(member, layout: memberLayout, parent: object, backIndex: entity.backIndex)
    }

    private func writeAttributes(
        _ attributeValues: AttributeValues, layout: ExportLayout<Output>, id: String?,
        into members: inout MembersBuilder<Output.Value>
    ) {
        if let id { members.set(Output.string(id), slot: 0, key: "$id") }
        for index in attributeValues.indices {
            if let value = attributeValues[index] {
                members.set(layout.output(value, ofAttribute: index), slot: layout.attributeSlot(index), key: layout.attributeKeys[index])
            }
        }
    }

    /// The identity stub of an object with identity — its identity value alone through a relationship given by
    /// identity — else `{"$ref": id}`.
    private func reference(
        to object: ManagedObject, layout: ExportLayout<Output>, link: ExportLayout<Output>.Link? = nil
    ) -> Output.Value {
        let attributeValues = object.attributeValues
        guard layout.hasIdentity(attributeValues) else {
            // Only a planned export meets an object without identity twice.
            let id = isPlanned ? met.value(for: object).flatMap { records[$0].id } : nil
            return Output.object(["$ref": Output.string(id ?? "")])
        }
        if link?.isByIdentity == true {
            // The model allows it only where the identity is one attribute.
            let index = layout.identityIndices[0]
            return layout.output(attributeValues[index]!, ofAttribute: index)
        }
        var members = layout.builder(presence: layout.identityPresence)
        for index in layout.identityIndices {
            members.set(
                layout.output(attributeValues[index]!, ofAttribute: index), slot: layout.attributeSlot(index),
                key: layout.attributeKeys[index])
        }
        return Output.object(members.members)
    }

    // MARK: Rules

    /// Whether `member`, met through a relationship that `owns` it or not, is written in full where first met.
    private func nests(_ member: ManagedObject, layout: ExportLayout<Output>, owns: Bool) -> Bool {
        nesting == .all || owns || !layout.hasIdentity(member.attributeValues)
    }

    /// Whether a stub can name the object: its entity has identity and every identity attribute has a value.
    package static func hasIdentity(_ object: ManagedObject) -> Bool {
        let indices = object.entity.identityIndices
        guard !indices.isEmpty else { return false }
        for index in indices where object.attributeValues[index] == nil { return false }
        return true
    }

    /// Calls `body` with the index of each relationship of `object` the flat form writes, the relationship, and its
    /// members in canonical order.
    private static func forEachFlatLink(
        of object: ManagedObject, _ body: (Int, RelationshipDescription, [ManagedObject]) -> Void
    ) {
        for (index, relationship) in zip(object.relationshipValues.indices, object.entity.relationships) {
            var members = object.related(at: index)
            guard let first = members.first, Self.writesFlatSide(relationship, destination: first.entity) else { continue }
            if relationship.isToMany, !relationship.isOrdered { members = GraphEncoder.canonicalOrder(members) }
            body(index, relationship, members)
        }
    }

    /// Whether the flat form writes this side of an inverse pair (see ``GraphEncoder/encodeFlat(_:)``).
    package static func writesFlatSide(_ relationship: RelationshipDescription, destination: Entity) -> Bool {
        guard let inverseName = relationship.inverse, let inverse = destination.relationship(named: inverseName) else {
            return true
        }
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        if relationship.isOrdered { return true }
        if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
        return (relationship.destination, relationship.name) <= (inverse.destination, inverse.name)
    }
}
