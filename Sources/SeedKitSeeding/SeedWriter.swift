import Dispatch
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The write stage of seeding: a plan (``SeedPlan``) becomes rows, through the store's row interface
/// (``RowStore``), inside the caller's write transaction, with the ledger.
///
///     try store.write {
///         var writer = SeedWriter(schema: schema, resolved: objects, plan: plan)
///         try writer.write(to: store, ledger: sections)
///     }
///
/// Deletions first, then updates (only the slots the plan says, grouped so that rows changing the same slots share
/// a statement), then inserts many rows of one entity at a time, then join lists, then the ledger.
///
/// - Complexity: O(*n*) in the rows written.
struct SeedWriter {
    let schema: SeedSchema
    /// Let go once the rows are written (``write(to:bulkLoading:ledger:)``).
    private(set) var resolved: SeedObjects
    private var objects: [SeedObject] { resolved.objects }
    let plan: SeedPlan
    /// Called with the number of rows written and the number to write, every few thousand rows.
    var progress: ((Int, Int) -> Void)?

    private var templateSlots: TemplateSlots { TemplateSlots(objects: resolved, schema: schema, rowIDs: plan.rowIDs) }

    /// Inserted rows are sent to the store this many at a time.
    private static let batchSize = 4096

    /// Writes the plan, then the ledger's sections, which `ledger` gives once they are ready. The objects are let go
    /// once the rows are written: the indexes and the ledger's pages take their room.
    ///
    /// - Parameter bulkLoading: Whether the rows fill empty tables: written inside ``RowStore/bulkLoad(_:)``, so that
    ///   the store builds its indexes after them — and before the ledger, which is packed while the rows are written
    ///   and can take longer: the indexes are built meanwhile.
    mutating func write(to store: RowStore, bulkLoading: Bool = false, ledger: () -> [String: [UInt8]]) throws {
        if bulkLoading {
            try store.bulkLoad {
                try writeRows(to: store)
                letObjectsGo()
            }
        } else {
            try writeRows(to: store)
            letObjectsGo()
        }
        try store.replaceLedger(ledger())
    }

    /// Lets the objects go, freed on another thread when this was the last holder: freeing 200,000 objects takes
    /// about as long as writing a tenth of their rows, which the indexes and the ledger need not wait for.
    private mutating func letObjectsGo() {
        let objects = resolved
        resolved = SeedObjects()
        releaseInBackground(objects)
    }

    private func writeRows(to store: RowStore) throws {
        var deletions: [Int: [Int64]] = [:]
        for (root, rowID) in plan.deletions { deletions[root, default: []].append(rowID) }
        for (root, rowIDs) in deletions.sorted(by: { $0.key < $1.key }) { try store.delete(root: schema.roots[root], rowIDs: rowIDs) }
        try writeUpdates(to: store)
        try writeInserts(to: store)
    }

    private func writeUpdates(to store: RowStore) throws {
        let templates = templateSlots
        struct Group: Hashable {
            let entity: Int32
            let slots: [Int]
            let changesEntity: Bool
        }
        var groups: [Group: [Int]] = [:]
        for (object, slots) in plan.written {
            groups[Group(entity: objects[Int(object)].entity, slots: slots, changesEntity: plan.entityChanges.contains(Int(object))), default: []]
                .append(Int(object))
        }
        var joins: [String: (isOrdered: Bool, members: [(source: Int64, targets: [Int64])])] = [:]
        for (group, members) in groups.sorted(by: { $0.key.entity < $1.key.entity }) {
            let slots = schema.entities[Int(group.entity)]
            let attributes = group.slots.filter { $0 < slots.attributeCount }
            let toOnes = group.slots.filter { $0 >= slots.attributeCount && $0 < slots.attributeCount + slots.toOnes.count }
                .map { slots.toOnes[$0 - slots.attributeCount].relationship }
            var batch = RowBatch(entity: slots.entity)
            // The attributes the update writes: the others' values are not made, nor read.
            for index in members.sorted() { Self.append(index, to: &batch, templates: templates, attributes: attributes) }
            if group.changesEntity || !attributes.isEmpty || !toOnes.isEmpty {
                try store.update(batch, attributes: attributes, toOnes: toOnes, entityChanges: group.changesEntity)
            }
            for slot in group.slots where slot >= slots.attributeCount + slots.toOnes.count {
                let join = slots.joins[slot - slots.attributeCount - slots.toOnes.count]
                for index in members {
                    joins[join.table, default: (join.isOrdered, [])].members.append(
                        (plan.rowIDs[index], templates.members(slot - slots.attributeCount - slots.toOnes.count, of: index)))
                }
            }
        }
        for (table, list) in joins.sorted(by: { $0.key < $1.key }) {
            try store.replaceJoinMembers(table: table, members: list.members, isOrdered: list.isOrdered, sourcesAreNew: false)
        }
    }

    /// What the thread that makes rows hands to the one that writes them.
    private enum Work: Sendable {
        case rows(RowBatch, written: Int)
        case joins(table: String, isOrdered: Bool, members: [(source: Int64, targets: [Int64])])
    }

    /// Inserts the new objects' rows and join lists: made into batches on another thread while the store writes the
    /// batches before.
    private func writeInserts(to store: RowStore) throws {
        let total = plan.actions.lazy.filter { $0 == .insert }.count
        guard total > 0 else { return }
        progress?(0, total)
        let handOff = HandOff<Work>(capacity: 4)
        let done = DispatchSemaphore(value: 0)
        let templates = templateSlots, actions = plan.actions
        DispatchQueue.global().async {
            Self.makeInsertions(templates: templates, actions: actions, into: handOff)
            handOff.finish()
            done.signal()
        }
        defer { done.wait() }
        do {
            var reported = 0
            while let work = handOff.take() {
                switch work {
                case .rows(let batch, let written):
                    try store.insert(batch)
                    if written / 1024 > reported / 1024, written < total { progress?(written, total) }
                    reported = written
                case .joins(let table, let isOrdered, let members):
                    try store.replaceJoinMembers(table: table, members: members, isOrdered: isOrdered, sourcesAreNew: true)
                }
            }
        } catch {
            handOff.stop()
            throw error
        }
        progress?(total, total)
    }

    /// Makes the rows of the new objects, many of one entity to a batch, then their join lists.
    private static func makeInsertions(templates: TemplateSlots, actions: [SeedPlan.Action], into handOff: HandOff<Work>) {
        let schema = templates.schema, objects = templates.objects.objects
        var batches: [Int32: RowBatch] = [:]
        var joins: [String: (isOrdered: Bool, members: [(source: Int64, targets: [Int64])])] = [:]
        var written = 0
        for index in objects.indices where actions[index] == .insert {
            let entity = objects[index].entity
            let slots = schema.entities[Int(entity)]
            append(index, to: &batches[entity, default: RowBatch(entity: slots.entity)], templates: templates)
            written += 1
            if batches[entity]!.count >= Self.batchSize {
                guard handOff.put(.rows(batches.removeValue(forKey: entity)!, written: written)) else { return }
            }
            for (slot, join) in slots.joins.enumerated() {
                let members = templates.members(slot, of: index)
                if !members.isEmpty { joins[join.table, default: (join.isOrdered, [])].members.append((templates.rowIDs[index], members)) }
            }
        }
        for (_, batch) in batches.sorted(by: { $0.key < $1.key }) {
            guard handOff.put(.rows(batch, written: written)) else { return }
        }
        for (table, list) in joins.sorted(by: { $0.key < $1.key }) {
            guard handOff.put(.joins(table: table, isOrdered: list.isOrdered, members: list.members)) else { return }
        }
    }

    /// Appends an object's row as the templates give it: every attribute (or those of `attributes`, the others nil),
    /// every to-one with its place.
    private static func append(_ index: Int, to batch: inout RowBatch, templates: TemplateSlots, attributes: [Int]? = nil) {
        let slots = templates.schema.entities[Int(templates.objects.objects[index].entity)]
        let relationships = slots.entity.relationships.count
        batch.rowIDs.append(templates.rowIDs[index])
        for attribute in 0..<slots.attributeCount {
            let isWritten = attributes?.contains(attribute) ?? true
            batch.values.append(isWritten ? templates.value(attribute, of: index, slots: slots) : nil)
        }
        let start = batch.targets.count
        batch.targets.append(contentsOf: repeatElement(nil, count: relationships))
        batch.positions.append(contentsOf: repeatElement(nil, count: relationships))
        for (slot, toOne) in slots.toOnes.enumerated() {
            let (target, position) = templates.target(slot, of: index, slots: slots)
            batch.targets[start + toOne.relationship] = target
            batch.positions[start + toOne.relationship] = position
        }
    }
}
