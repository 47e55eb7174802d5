import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// How the seeding pipeline sees a model: per entity, the slots a row holds — its attributes, its to-one columns
/// and the join lists it owns — and where a link through each relationship lands.
///
///     let schema = SeedSchema(model: model)
///     let employee = schema.slots(of: model.entity(named: "Employee")!)
///     employee.slotCount          // attributes, then to-ones, then owned join lists
///
/// A link is planned, hashed and written at the end that stores it (``EntityModel/linkStorage(of:in:)``): an
/// employee listed in `department.employees` is a fact about the employee's `department` column, and a project
/// listed in `employee.projects` a fact about the join list of whichever end owns the join table. Planning by slot
/// is what lets a later seed apply a template's change to one property while keeping the application's change to
/// another.
///
/// - Complexity: O(*e* · *p*) to make, for *e* entities of *p* properties; O(1) per lookup.
struct SeedSchema: Sendable {
    let model: EntityModel
    /// Per entity, in the model's order (``EntitySlots/ordinal``).
    let entities: [EntitySlots]
    /// The root entities' names, by root ordinal (``EntitySlots/root``).
    let roots: [String]
    /// Whether the entity of one ordinal is the other or a subentity of it, by ordinals.
    private let kinds: [[Bool]]
    private let ordinals: [String: Int]
    private let ordinalsByEntity: [ObjectIdentifier: Int]

    init(model: EntityModel) {
        self.model = model
        var ordinals: [String: Int] = [:]
        for (ordinal, entity) in model.entities.enumerated() { ordinals[entity.name] = ordinal }
        let roots = model.entities.filter { $0.parentName == nil }.map(\.name)
        let rootOrdinals = Dictionary(uniqueKeysWithValues: roots.enumerated().map { ($1, $0) })
        entities = model.entities.enumerated().map { ordinal, entity in
            EntitySlots(
                entity: entity, ordinal: ordinal, root: rootOrdinals[entity.rootName]!, model: model, rootOrdinals: rootOrdinals,
                ordinals: ordinals)
        }
        kinds = model.entities.map { entity in model.entities.map { entity.isKind(of: $0.name) } }
        self.roots = roots
        self.ordinals = ordinals
        ordinalsByEntity = Dictionary(uniqueKeysWithValues: model.entities.enumerated().map { (ObjectIdentifier($1), $0) })
    }

    /// The slots of an entity of the model.
    func slots(of entity: Entity) -> EntitySlots { entities[ordinalsByEntity[ObjectIdentifier(entity)]!] }

    /// Whether the entity of ordinal `entity` is the entity of ordinal `other` or a subentity of it.
    func isKind(_ entity: Int, of other: Int) -> Bool { kinds[entity][other] }

    /// The ordinal of the entity named `name`, or nil when the model has none.
    func ordinal(of name: String) -> Int? { ordinals[name] }
}

/// The slots of one entity's rows and the routes of its relationships' links: a class, so that the hot loops that
/// look an entity's slots up share one reference instead of copying its arrays.
final class EntitySlots: Sendable {
    /// A to-one relationship: a column of the row holding the target's row id, and, when the inverse is an ordered
    /// to-many, the row's place in the target's list.
    struct ToOne: Sendable {
        let relationship: Int
        let name: String
        let destinationRoot: Int
        let isPositioned: Bool
        let owns: Bool
    }

    /// A to-many whose links the entity's rows keep in a join table, as its `source` end.
    struct Join: Sendable {
        let relationship: Int
        let name: String
        let table: String
        let destinationRoot: Int
        let isOrdered: Bool
        let owns: Bool
    }

    /// Where a link through one relationship is a fact.
    enum Route: Sendable {
        /// In the source's to-one slot; `inverse` says what the link also states about the target.
        case toOne(slot: Int, inverse: InverseFact)
        /// In each member's to-one slot for the inverse (relationship index `inverse` in the member's entity), with
        /// the member's place when ordered.
        case memberColumn(inverse: Int, isOrdered: Bool)
        /// In the source's join list.
        case ownJoin(slot: Int)
        /// In each member's join list for the inverse.
        case memberJoin(inverse: Int)
    }

    /// What a to-one link states about its target through the inverse.
    enum InverseFact: Sendable {
        /// Nothing: no inverse, or an unordered to-many (kept by the source's column alone).
        case none
        /// The target's own to-one (a one-to-one), relationship index in the target's entity.
        case toOne(Int)
        /// The source's place in the target's ordered list, relationship index in the target's entity.
        case orderedList(Int)
    }

    let entity: Entity
    let ordinal: Int
    /// The root entity's ordinal among the schema's roots.
    let root: Int
    let attributeCount: Int
    let toOnes: [ToOne]
    let joins: [Join]
    /// Per relationship, in the entity's relationship order.
    let routes: [Route]
    /// Per relationship: its to-one slot (counted among ``toOnes``), or -1.
    let toOneIndex: [Int]
    /// Per relationship: its join slot (counted among ``joins``), or -1.
    let joinIndex: [Int]
    /// Per relationship: the destination's ordinal.
    let destinations: [Int]
    /// Per relationship: whether it owns its targets.
    let owns: [Bool]
    /// Per relationship: the index of its inverse among the destination's relationships, if it has one — the same
    /// in every kind of the destination, whose relationships begin with those of its ancestors.
    let inverses: [Int?]
    /// The attributes an object must state: required, without a default.
    let required: [Int]

    init(entity: Entity, ordinal: Int, root: Int, model: EntityModel, rootOrdinals: [String: Int], ordinals: [String: Int]) {
        self.entity = entity
        self.ordinal = ordinal
        self.root = root
        attributeCount = entity.attributes.count
        var toOnes: [ToOne] = [], joins: [Join] = [], routes: [Route] = [], inverses: [Int?] = []
        var toOneIndex = Array(repeating: -1, count: entity.relationships.count)
        var joinIndex = toOneIndex
        for (index, relationship) in entity.relationships.enumerated() {
            let destination = model.destination(of: relationship)
            let inverse = relationship.inverse.flatMap { destination.relationshipIndex(named: $0) }
            inverses.append(inverse)
            let destinationRoot = rootOrdinals[destination.rootName]!
            switch model.linkStorage(of: relationship, in: entity) {
            case .sourceColumn:
                var fact = InverseFact.none
                if let inverse {
                    let other = destination.relationships[inverse]
                    if !other.isToMany { fact = .toOne(inverse) } else if other.isOrdered { fact = .orderedList(inverse) }
                }
                toOneIndex[index] = toOnes.count
                routes.append(.toOne(slot: toOnes.count, inverse: fact))
                toOnes.append(
                    ToOne(
                        relationship: index, name: relationship.name, destinationRoot: destinationRoot,
                        isPositioned: { if case .orderedList = fact { true } else { false } }(), owns: relationship.owns))
            case .memberColumn(_, let isOrdered):
                routes.append(.memberColumn(inverse: inverse!, isOrdered: isOrdered))
            case .joinTable(let table, let isOwner, let isOrdered):
                if isOwner {
                    joinIndex[index] = joins.count
                    routes.append(.ownJoin(slot: joins.count))
                    joins.append(
                        Join(
                            relationship: index, name: relationship.name, table: table, destinationRoot: destinationRoot,
                            isOrdered: isOrdered, owns: relationship.owns))
                } else {
                    routes.append(.memberJoin(inverse: inverse!))
                }
            }
        }
        self.toOnes = toOnes
        self.joins = joins
        self.routes = routes
        self.toOneIndex = toOneIndex
        self.joinIndex = joinIndex
        destinations = entity.relationships.map { ordinals[model.destination(of: $0).name]! }
        owns = entity.relationships.map(\.owns)
        self.inverses = inverses
        required = entity.attributes.indices.filter { !entity.attributes[$0].isOptional && entity.attributes[$0].defaultValue == nil }
    }

    /// Attributes, then to-ones, then join lists.
    var slotCount: Int { attributeCount + toOnes.count + joins.count }

    /// The slot of a to-one slot index.
    func slot(toOne index: Int) -> Int { attributeCount + index }

    /// The slot of a join slot index.
    func slot(join index: Int) -> Int { attributeCount + toOnes.count + index }

    /// The property name of a slot: what the ledger records a slot's hash under.
    func name(ofSlot slot: Int) -> String {
        if slot < attributeCount { return entity.attributes[slot].name }
        if slot < attributeCount + toOnes.count { return toOnes[slot - attributeCount].name }
        return joins[slot - attributeCount - toOnes.count].name
    }

    /// The slot of a property name or alias, as ``name(ofSlot:)`` spells it; nil for a name the entity lacks.
    func slot(named name: String) -> Int? {
        if let index = entity.attributeIndex(named: name) { return index }
        guard let relationship = entity.relationshipIndex(named: name) else { return nil }
        if toOneIndex[relationship] >= 0 { return slot(toOne: toOneIndex[relationship]) }
        if joinIndex[relationship] >= 0 { return slot(join: joinIndex[relationship]) }
        return nil
    }
}
