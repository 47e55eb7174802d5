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

    private mutating func add(entity: Entity, values nodeValues: some Collection<AttributeValue?>) {
        entities.append(entity)
        ordinals.append(ordinalOf[ObjectIdentifier(entity)]!)
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

    /// The graph of every row of a store, its links resolved from the rows' columns and the join tables.
    ///
    /// - Complexity: O(*n*) in the rows and join rows, plus sorting each ordered list by place.
    init(store: RowStore) throws {
        self.init(model: store.model)
        var nodes: [String: [Int64: Int32]] = [:]
        // What the links need of each row: its id, targets and places.
        var rowIDs: [Int64] = [], targets: [Int64?] = [], positions: [Int64?] = []
        for root in model.entities where root.parentName == nil {
            var rootNodes: [Int64: Int32] = [:]
            try store.forEachRow(root: root.name) { row in
                guard let entity = model.entity(named: row.entity) else { return }
                rootNodes[row.rowID] = Int32(count)
                add(entity: entity, values: row.values)
                rowIDs.append(row.rowID)
                targets.append(contentsOf: row.targets)
                positions.append(contentsOf: row.positions)
            }
            nodes[root.name] = rootNodes
        }
        // To-ones from the rows' columns; the to-manys they mirror gathered from the members' rows, in row order.
        var members: [ListKey: [(member: Int32, position: Int64)]] = [:]
        for node in 0..<count {
            let entity = entities[node]
            for (index, relationship) in entity.relationships.enumerated() where !relationship.isToMany {
                guard let rowID = targets[linkStarts[node] + index],
                    let target = nodes[model.destination(of: relationship).rootName]?[rowID]
                else { continue }
                links[linkStarts[node] + index] = target
                guard let inverse = relationship.inverse, let inverseIndex = entities[Int(target)].relationshipIndex(named: inverse),
                    entities[Int(target)].relationships[inverseIndex].isToMany
                else { continue }
                members[ListKey(node: target, relationship: Int32(inverseIndex)), default: []]
                    .append((Int32(node), positions[linkStarts[node] + index] ?? 0))
            }
        }
        var joins: [String: [Int64: [Int64]]] = [:]
        for node in 0..<count {
            let entity = entities[node]
            for (index, relationship) in entity.relationships.enumerated() where relationship.isToMany {
                switch model.linkStorage(of: relationship, in: entity) {
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
                    let destination = model.destination(of: relationship).rootName
                    let members = (joins[table]![rowIDs[node]] ?? []).compactMap { nodes[destination]?[$0] }
                    lists[Int(links[linkStarts[node] + index])] = members
                    // The other end's members, in the order of the sources' rows, which is node order.
                    guard let inverse = relationship.inverse else { continue }
                    for target in members {
                        guard let inverseIndex = entities[Int(target)].relationshipIndex(named: inverse) else { continue }
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
            add(entity: object.entity, values: object.attributeValues)
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
