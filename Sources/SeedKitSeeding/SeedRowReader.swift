import SeedKitSupport
import SeedKitJSON
import SeedKitModel

/// Reads one template file's objects into ``SeedRows/Row``s, or finds that the file is not flat; one per thread, as it
/// keeps what it learned of the objects' layouts.
///
///     var reader = SeedRowReader(model: model)
///     reader.rows(in: file)          // nil: not flat, or not valid — the decoder will say which
///
/// Objects with the same keys share a key layout once parsed (``JSONObject``): a reader works out once per layout and
/// entity which key is which attribute or relationship (a plan), and reads each object's values by position.
///
/// - Complexity: O(*n*) in the size of the file.
struct SeedRowReader {
    /// What each key of an object layout is, for one entity.
    private struct Plan {
        /// The attributes by position in the object's values, with what reading a value needs of them.
        var attributes: [(position: Int, index: Int, type: AttributeType, isOptional: Bool)] = []
        /// The to-one relationships by position, in the order of their keys' names.
        var toOnes: [(position: Int, index: Int, destination: Entity)] = []
    }

    /// What a stub's keys are: the position of each identity value, in identity order.
    private struct StubPlan {
        var identityPositions: [Int]
    }

    private struct LayoutKey: Hashable {
        let layout: ObjectIdentifier
        let entity: ObjectIdentifier
    }

    private let model: EntityModel
    private var text: SeedValueText
    // Keyed by layout address: valid while the file's document, which holds the layouts, is alive.
    private var plans: [LayoutKey: Plan?] = [:]
    private var stubPlans: [LayoutKey: StubPlan?] = [:]
    private var defaults: [ObjectIdentifier: [AttributeValue?]] = [:]
    private var recentClasses: [(name: String, entity: Entity)] = []
    private var lastDefaults: (entity: ObjectIdentifier, values: [AttributeValue?])?
    /// The keys of objects named by stubs with a one-value identity, by entity and the value as written.
    private var stubKeys: [SingleValueStub: Prehashed] = [:]

    private struct SingleValueStub: Hashable {
        let entity: ObjectIdentifier
        let value: JSON
    }
    private var lastPlan: (key: LayoutKey, plan: Plan?)?
    /// The value texts of the file's rows, one after another, and where each is: hashed once the file is read.
    private var valueTexts: [UInt8] = []
    private var valueTextRanges: [Range<Int>] = []
    private var lastStubPlan: (key: LayoutKey, plan: StubPlan?)?

    init(model: EntityModel) {
        self.model = model
        text = SeedValueText(model: model)
    }

    /// The file's objects as rows, or nil when the file is not flat or has a problem.
    mutating func rows(in file: TemplateSet.File) -> [SeedRows.Row]? {
        defer {
            plans.removeAll(keepingCapacity: true)
            stubPlans.removeAll(keepingCapacity: true)
            lastPlan = nil
            lastStubPlan = nil
        }
        guard let value = try? JSONDocument(parsing: file.bytes, file: file.displayPath).value else { return nil }
        valueTexts.removeAll(keepingCapacity: true)
        valueTextRanges.removeAll(keepingCapacity: true)
        var rows: [SeedRows.Row] = []
        if case .array(let elements) = value {
            rows.reserveCapacity(elements.count)
            for element in elements {
                guard let row = row(element) else { return nil }
                rows.append(row)
            }
        } else {
            guard let row = row(value) else { return nil }
            rows.append(row)
        }
        // The file's value texts hashed together: several at a time go faster than one by one.
        for (index, hash) in StableHash.values(of: valueTexts, ranges: valueTextRanges).enumerated() { rows[index].hash = hash }
        return rows
    }

    private mutating func row(_ json: JSON) -> SeedRows.Row? {
        guard case .object(let members) = json, let entity = entity(of: members, expected: nil),
            let plan = plan(members, entity)
        else { return nil }
        var values = defaults(of: entity)
        for (position, index, type, isOptional) in plan.attributes {
            let value = members.values[position]
            if case .null = value {
                guard isOptional else { return nil }
                values[index] = nil
            } else {
                guard let read = try? AttributeValue(json: value, as: type) else { return nil }
                values[index] = read
            }
        }
        var identity: [AttributeValue] = []
        identity.reserveCapacity(entity.identityIndices.count)
        for index in entity.identityIndices {
            guard let value = values[index] else { return nil }
            identity.append(value)
        }
        var targets: [SeedRows.Target] = []
        for (position, index, destination) in plan.toOnes {
            if case .null = members.values[position] {
                targets.append(SeedRows.Target(relationship: index, key: nil, entity: destination))
                continue
            }
            guard let (key, stubEntity) = stub(members.values[position], destination: destination) else { return nil }
            targets.append(SeedRows.Target(relationship: index, key: key, entity: stubEntity))
        }
        let key = text.identityKey(entity, identity)
        let start = valueTexts.count
        text.appendValueText(
            of: entity, attribute: { values[$0] },
            toOne: { index in targets.first { $0.relationship == index }?.key?.value },
            // A flat set states no to-many, and inverses fill only to-manys that value texts leave out.
            toMany: { _ in [] }, to: &valueTexts)
        valueTextRanges.append(start..<valueTexts.count)
        return SeedRows.Row(entity: entity, key: Prehashed(key), values: values, targets: targets)
    }

    /// The key of the object a stub names, and the entity it names; nil for anything but a stub.
    private mutating func stub(_ json: JSON, destination: Entity) -> (Prehashed, Entity)? {
        guard case .object(let members) = json, let entity = entity(of: members, expected: destination),
            let plan = stubPlan(members, entity)
        else { return nil }
        // Many objects name the same few: the key of a one-value identity is made once per value.
        let single = plan.identityPositions.count == 1
            ? SingleValueStub(entity: ObjectIdentifier(entity), value: members.values[plan.identityPositions[0]]) : nil
        if let single, let key = stubKeys[single] { return (key, entity) }
        var identity: [AttributeValue] = []
        identity.reserveCapacity(plan.identityPositions.count)
        for (index, position) in zip(entity.identityIndices, plan.identityPositions) {
            guard let value = try? AttributeValue(json: members.values[position], as: entity.attributes[index].type) else {
                return nil
            }
            identity.append(value)
        }
        let key = Prehashed(text.identityKey(entity, identity))
        if let single {
            // Bounded: a set whose objects each name another object would otherwise keep every key twice.
            if stubKeys.count >= 1 << 16 { stubKeys.removeAll(keepingCapacity: true) }
            stubKeys[single] = key
        }
        return (key, entity)
    }

    /// The entity `"class"` names, a kind of `expected` when given; the destination itself when `"class"` is left
    /// out where the destination has no subentities.
    private mutating func entity(of members: JSONObject, expected: Entity?) -> Entity? {
        guard let name = members["class"] else {
            guard let expected, expected.kinds.count == 1 else { return nil }
            return expected
        }
        guard case .string(let text) = name, let entity = entity(named: text),
            expected.map({ entity.isKind(of: $0.name) }) ?? true
        else { return nil }
        return entity
    }

    /// The entity of a class name: one of the few named lately, most of the time — an object's and its stubs' —
    /// which comparisons find without hashing.
    private mutating func entity(named name: String) -> Entity? {
        if let recent = recentClasses.first(where: { $0.name == name }) { return recent.entity }
        guard let entity = model.entity(named: name) else { return nil }
        if recentClasses.count == 4 { recentClasses.removeFirst() }
        recentClasses.append((name, entity))
        return entity
    }

    private mutating func plan(_ members: JSONObject, _ entity: Entity) -> Plan? {
        let key = LayoutKey(layout: ObjectIdentifier(members.layout), entity: ObjectIdentifier(entity))
        // Objects in a row mostly share their layout: the last plan serves without hashing.
        if let last = lastPlan, last.key == key { return last.plan }
        let plan: Plan?
        if let known = plans[key] {
            plan = known
        } else {
            plan = Self.makePlan(members.keys, entity, model)
            plans[key] = plan
        }
        lastPlan = (key, plan)
        return plan
    }

    private static func makePlan(_ keys: [String], _ entity: Entity, _ model: EntityModel) -> Plan? {
        guard identityIsFlat(entity) else { return nil }
        var plan = Plan()
        var toOneNames: [(name: String, position: Int, index: Int)] = []
        var stated = Set<Int>()
        for (position, key) in keys.enumerated() where key != "class" {
            if let index = entity.attributeIndex(named: key) {
                guard stated.insert(index).inserted else { return nil }
                let attribute = entity.attributes[index]
                plan.attributes.append((position, index, attribute.type, attribute.isOptional))
            } else if let index = entity.relationshipIndex(named: key) {
                let relationship = entity.relationships[index]
                guard !relationship.isToMany, stated.insert(entity.attributes.count + index).inserted,
                    inverseIsFlat(relationship, model)
                else { return nil }
                toOneNames.append((key, position, index))
            } else {
                return nil
            }
        }
        guard entity.identityIndices.allSatisfy(stated.contains) else { return nil }
        // A required attribute left out, with no default: a problem the decoder reports.
        for (index, attribute) in entity.attributes.enumerated() where !stated.contains(index) {
            guard attribute.isOptional || attribute.defaultValue != nil else { return nil }
        }
        // A decoder reads a dictionary's keys sorted, and references in that order number the objects they name.
        plan.toOnes = toOneNames.sorted { $0.name < $1.name }.map {
            ($0.position, $0.index, model.destination(of: entity.relationships[$0.index]))
        }
        return plan
    }

    private mutating func stubPlan(_ members: JSONObject, _ entity: Entity) -> StubPlan? {
        let key = LayoutKey(layout: ObjectIdentifier(members.layout), entity: ObjectIdentifier(entity))
        if let last = lastStubPlan, last.key == key { return last.plan }
        if let plan = stubPlans[key] {
            lastStubPlan = (key, plan)
            return plan
        }
        var plan: StubPlan?
        if Self.identityIsFlat(entity) {
            var positions = [Int?](repeating: nil, count: entity.identityIndices.count)
            var isStub = true
            for (position, name) in members.keys.enumerated() where name != "class" {
                guard let index = entity.attributeIndex(named: name), let slot = entity.identityIndices.firstIndex(of: index),
                    positions[slot] == nil
                else {
                    isStub = false
                    break
                }
                positions[slot] = position
            }
            if isStub, positions.allSatisfy({ $0 != nil }) { plan = StubPlan(identityPositions: positions.map { $0! }) }
        }
        stubPlans[key] = plan
        lastStubPlan = (key, plan)
        return plan
    }

    /// Whether the entity has identity, all of types whose equal values have one text.
    private static func identityIsFlat(_ entity: Entity) -> Bool {
        !entity.identityIndices.isEmpty && entity.identityIndices.allSatisfy { index in
            switch entity.attributes[index].type {
            case .string, .integer, .bool, .uuid: true
            default: false
            }
        }
    }

    /// Whether setting the to-one changes nothing but its own column: it has no inverse, or an unordered to-many.
    private static func inverseIsFlat(_ relationship: RelationshipDescription, _ model: EntityModel) -> Bool {
        guard let name = relationship.inverse else { return true }
        guard let inverse = model.destination(of: relationship).relationship(named: name) else { return false }
        return inverse.isToMany && !inverse.isOrdered
    }

    private mutating func defaults(of entity: Entity) -> [AttributeValue?] {
        if let last = lastDefaults, last.entity == ObjectIdentifier(entity) { return last.values }
        let values = defaults[ObjectIdentifier(entity)] ?? entity.attributes.map(\.defaultValue)
        defaults[ObjectIdentifier(entity)] = values
        lastDefaults = (ObjectIdentifier(entity), values)
        return values
    }
}
