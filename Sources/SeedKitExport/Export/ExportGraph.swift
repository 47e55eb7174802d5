import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore
import SeedKitSeeding

/// An object graph as the canonical export reads it: nodes, each with its entity, attribute values and links, read
/// from a store's rows in bulk (``init(store:)``) or taken from a context's objects (``init(objects:)``).
///
///     let graph = try ExportGraph(store: store)         // every row, and every link, in a few statements
///     try CanonicalExportWriter(graph: graph).write(roots) { bytes in … }
///
/// Links are as a context holds them: a to-one's target; a to-many's members in the relationship's order when it is
/// ordered, else in the order the store keeps them (row order), which the export then sorts.
struct ExportGraph {
    let model: EntityModel
    /// Per node: its entity.
    private(set) var entities: [Entity] = []
    /// Per node: its entity's position in the model's entities.
    private(set) var ordinals: [Int32] = []
    /// Per node: whether a stub can name it (``hasIdentity(_:)``).
    private var identified: [Bool] = []
    private let ordinalOf: [ObjectIdentifier: Int32]
    /// Every node's attribute values, each node's from its start, one per attribute of its entity.
    private var values: [AttributeValue?] = []
    private var valueStarts: [Int] = []
    /// Every node's links, each node's from its start, one per relationship of its entity: a to-one's target node
    /// (-1 for none), or a to-many's index in `lists`.
    private var links: [Int32] = []
    private var linkStarts: [Int] = []
    private var lists: [[Int32]] = []

    var count: Int { entities.count }

    func value(of node: Int, at attribute: Int) -> AttributeValue? { values[valueStarts[node] + attribute] }

    /// The attribute values of a node, in its entity's order.
    func values(of node: Int) -> ArraySlice<AttributeValue?> {
        values[valueStarts[node]..<valueStarts[node] + entities[node].attributes.count]
    }

    /// The target of a to-one, or -1.
    func target(of node: Int, at relationship: Int) -> Int32 { links[linkStarts[node] + relationship] }

    /// The members of a to-many.
    func members(of node: Int, at relationship: Int) -> [Int32] { lists[Int(links[linkStarts[node] + relationship])] }

    /// Whether a stub can name the node: its entity has identity and every identity attribute has a value.
    func hasIdentity(_ node: Int) -> Bool { identified[node] }

    private init(model: EntityModel) {
        self.model = model
        ordinalOf = Dictionary(uniqueKeysWithValues: model.entities.enumerated().map { (ObjectIdentifier($1), Int32($0)) })
    }

    /// Room for `nodes` nodes with `values` attribute values and `links` links in all.
    private mutating func reserveCapacity(nodes: Int, values valueCount: Int, links linkCount: Int) {
        entities.reserveCapacity(nodes)
        ordinals.reserveCapacity(nodes)
        identified.reserveCapacity(nodes)
        valueStarts.reserveCapacity(nodes)
        linkStarts.reserveCapacity(nodes)
        values.reserveCapacity(valueCount)
        links.reserveCapacity(linkCount)
    }

    private mutating func add(entity: Entity, ordinal: Int32, values nodeValues: some Collection<AttributeValue?>) {
        entities.append(entity)
        ordinals.append(ordinal)
        let start = values.count
        valueStarts.append(start)
        values.append(contentsOf: nodeValues)
        let indices = entity.identityIndices
        identified.append(!indices.isEmpty && indices.allSatisfy { values[start + $0] != nil })
        linkStarts.append(links.count)
        for relationship in entity.relationships {
            if relationship.isToMany {
                links.append(Int32(lists.count))
                lists.append([])
            } else {
                links.append(-1)
            }
        }
    }

    private struct ListKey: Hashable {
        let node: Int32
        let relationship: Int32
    }

    /// The nodes of one root entity's rows: consecutive, in row-id order, as the store reads them.
    private struct RootNodes {
        var nodes: Range<Int> = 0..<0
        var firstRowID: Int64 = 0

        /// The node of a row, or nil when the table has no such row. Row ids are usually dense, so the row's place
        /// is tried first, then searched for.
        func node(ofRow rowID: Int64, in rowIDs: [Int64]) -> Int32? {
            guard !nodes.isEmpty else { return nil }
            let guess = rowID &- firstRowID
            if guess >= 0, guess < Int64(nodes.count), rowIDs[nodes.lowerBound + Int(guess)] == rowID {
                return Int32(nodes.lowerBound + Int(guess))
            }
            var low = nodes.lowerBound, high = nodes.upperBound
            while low < high {
                let middle = (low + high) / 2
                if rowIDs[middle] < rowID { low = middle + 1 } else { high = middle }
            }
            return low < nodes.upperBound && rowIDs[low] == rowID ? Int32(low) : nil
        }
    }

    /// What linking needs of one relationship of an entity, worked out once per entity rather than per node.
    private struct LinkPlan {
        /// The destination root's position among the roots.
        let destinationRoot: Int
        let storage: LinkStorage
        /// The inverse and its index in the destination's relationships, which is its index in every entity under
        /// the destination too: an entity's relationships start with its ancestors'.
        let inverse: (name: String, index: Int)?

        init(_ relationship: RelationshipDescription, of entity: Entity, model: EntityModel, destinationRoot: Int) {
            self.destinationRoot = destinationRoot
            storage = model.linkStorage(of: relationship, in: entity)
            let destination = model.destination(of: relationship)
            inverse = relationship.inverse.flatMap { name in destination.relationshipIndex(named: name).map { (name, $0) } }
        }

        /// The inverse's index in the relationships of a target, which a store's rows make an entity under the
        /// destination; nil for no inverse, or a target of another entity.
        func inverseIndex(in target: Entity) -> Int? {
            guard let inverse, inverse.index < target.relationships.count,
                target.relationships[inverse.index].name == inverse.name
            else { return nil }
            return inverse.index
        }
    }

    /// The graph of every row of a store, its links resolved from the rows' columns and the join tables.
    ///
    /// - Complexity: O(*n*) in the rows and join rows, plus sorting each ordered list by place.
    init(store: RowStore) throws {
        self.init(model: store.model)
        let roots = model.entities.filter { $0.parentName == nil }
        var rootNodes = Array(repeating: RootNodes(), count: roots.count)
        // What the links need of each row: its id, targets and places.
        var rowIDs: [Int64] = [], targets: [Int64?] = [], positions: [Int64?] = []
        // Arrays sized for the rows before they are read: grown by doubling, they would hold up to twice the room,
        // and the old and the new beside each other while they grew.
        var rows = 0, valueCount = 0, linkCount = 0
        for root in roots {
            let count = try store.rowCount(root: root.name)
            let tree = model.entities.filter { $0.rootName == root.name }
            rows += count
            valueCount += count * (tree.map(\.attributes.count).max() ?? 0)
            linkCount += count * (tree.map(\.relationships.count).max() ?? 0)
        }
        reserveCapacity(nodes: rows, values: valueCount, links: linkCount)
        rowIDs.reserveCapacity(rows)
        targets.reserveCapacity(linkCount)
        positions.reserveCapacity(linkCount)
        for (rootIndex, root) in roots.enumerated() {
            let start = count
            // The rows of a table nearly always share an entity, whose name the store then gives as the same string.
            var last: (name: String, entity: Entity, ordinal: Int32)?
            try store.forEachRow(root: root.name) { row in
                if last?.name != row.entity {
                    guard let entity = model.entity(named: row.entity) else { return }
                    last = (row.entity, entity, ordinalOf[ObjectIdentifier(entity)]!)
                }
                add(entity: last!.entity, ordinal: last!.ordinal, values: row.values)
                rowIDs.append(row.rowID)
                targets.append(contentsOf: row.targets)
                positions.append(contentsOf: row.positions)
            }
            rootNodes[rootIndex] = RootNodes(nodes: start..<count, firstRowID: count > start ? rowIDs[start] : 0)
        }
        let rootIndex = Dictionary(uniqueKeysWithValues: roots.enumerated().map { ($1.name, $0) })
        let plans: [[LinkPlan]] = model.entities.map { entity in
            entity.relationships.map { relationship in
                LinkPlan(
                    relationship, of: entity, model: model,
                    destinationRoot: rootIndex[model.destination(of: relationship).rootName]!)
            }
        }
        // To-ones from the rows' columns; the to-manys they mirror gathered from the members' rows, in row order.
        var members: [ListKey: [(member: Int32, position: Int64)]] = [:]
        for node in 0..<count {
            let entity = entities[node], ordinal = Int(ordinals[node])
            for (index, relationship) in entity.relationships.enumerated() where !relationship.isToMany {
                guard let rowID = targets[linkStarts[node] + index],
                    let target = rootNodes[plans[ordinal][index].destinationRoot].node(ofRow: rowID, in: rowIDs)
                else { continue }
                links[linkStarts[node] + index] = target
                let targetEntity = entities[Int(target)]
                guard let inverseIndex = plans[ordinal][index].inverseIndex(in: targetEntity),
                    targetEntity.relationships[inverseIndex].isToMany
                else { continue }
                members[ListKey(node: target, relationship: Int32(inverseIndex)), default: []]
                    .append((Int32(node), positions[linkStarts[node] + index] ?? 0))
            }
        }
        var joins: [String: [Int64: [Int64]]] = [:]
        for node in 0..<count {
            let entity = entities[node], ordinal = Int(ordinals[node])
            for (index, relationship) in entity.relationships.enumerated() where relationship.isToMany {
                switch plans[ordinal][index].storage {
                case .sourceColumn:
                    continue
                case .memberColumn(_, let isOrdered):
                    var list = members[ListKey(node: Int32(node), relationship: Int32(index))] ?? []
                    // Stable: members at one place keep their row order.
                    if isOrdered {
                        list = list.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
                            .map(\.element)
                    }
                    lists[Int(links[linkStarts[node] + index])] = list.map(\.member)
                case .joinTable(let table, let isOwner, let isOrdered):
                    guard isOwner else { continue }
                    if joins[table] == nil { joins[table] = try store.joinMembers(table: table, sources: nil, isOrdered: isOrdered) }
                    let destination = rootNodes[plans[ordinal][index].destinationRoot]
                    let members = (joins[table]![rowIDs[node]] ?? []).compactMap { destination.node(ofRow: $0, in: rowIDs) }
                    lists[Int(links[linkStarts[node] + index])] = members
                    // The other end's members, in the order of the sources' rows, which is node order.
                    for target in members {
                        guard let inverseIndex = plans[ordinal][index].inverseIndex(in: entities[Int(target)]) else {
                            continue
                        }
                        lists[Int(links[linkStarts[Int(target)] + inverseIndex])].append(Int32(node))
                    }
                }
            }
        }
    }

    /// The graph of these objects, as their context holds them; links to objects outside them are left out.
    init(objects: [ManagedObject], model: EntityModel) {
        self.init(model: model)
        var nodes: [ObjectIdentifier: Int32] = [:]
        nodes.reserveCapacity(objects.count)
        for object in objects {
            nodes[ObjectIdentifier(object)] = Int32(count)
            add(entity: object.entity, ordinal: ordinalOf[ObjectIdentifier(object.entity)]!, values: object.attributeValues)
        }
        for (node, object) in objects.enumerated() {
            object.fireFaults()
            for index in object.entity.relationships.indices {
                switch object.relationshipValues[index] {
                case .toOne(let target):
                    links[linkStarts[node] + index] = target.flatMap { nodes[ObjectIdentifier($0)] } ?? -1
                case .toMany(let related):
                    lists[Int(links[linkStarts[node] + index])] = related.members.compactMap { nodes[ObjectIdentifier($0)] }
                }
            }
        }
    }
}
