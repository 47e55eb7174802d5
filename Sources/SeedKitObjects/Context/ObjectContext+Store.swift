import Foundation
import SeedKitModel

/// How a context settles an object changed both in memory and in the store since it was fetched, property by
/// property.
public enum MergePolicy: Sendable, Hashable {
    /// Saving fails with a ``StoreError`` of kind `conflict`; merging keeps the unsaved values and the old row
    /// version, so the next save reports the conflict. The default.
    case rejectConflicts
    /// The store's value wins for each property changed in both; the others keep the in-memory change.
    case storeWins
    /// The in-memory value wins for each property changed in both; the others take the store's value.
    case inMemoryWins
}

extension ObjectContext {
    // MARK: Fetching

    /// Runs a fetch in the store. The result is final when the store did all of it; otherwise it is the candidates —
    /// stored objects the store's part of the predicate holds for, plus the changed and inserted objects — for the
    /// in-memory pass.
    func fetchFromStore(_ fetch: StoreFetch) throws -> (objects: [ManagedObject], isFinal: Bool) {
        let store = store!
        // The root's name is read where the entity holds it: a copy of it was retained and released.
        if fetch.predicate == nil, fetch.limit == nil, let count = try store.count(fetch) {
            // Growing the registry row by row copies it again and again; one count is far cheaper for a big fetch.
            registered.table(named: fetch.entity.rootName).reserve(count)
        }
        var rows = StoredRows(context: self, root: fetch.entity.rootName)
        let isFinal = try store.fetch(fetch, into: &rows)
        var objects = rows.takeObjects()
        noteFaultSiblings(objects)
        if !isFinal {
            // Unsaved objects and values are candidates too; the in-memory pass decides.
            var seen = Set(objects.map(ObjectIdentifier.init))
            for object in insertedObjects + updatedObjects
            where object.entity.isKind(of: fetch.entity.rootName) && seen.insert(ObjectIdentifier(object)).inserted {
                objects.append(object)
            }
        }
        return (objects, isFinal)
    }

    /// Whether the predicate's key paths pass through objects whose unsaved changes the store can't see: a stored
    /// object whose destination changed in memory matches by the new values, so the store must not filter by them.
    func passesChangedDestinations(_ predicate: ResolvedPredicate) -> Bool {
        let roots = predicate.destinationRoots
        return !roots.isEmpty && (updatedObjects + deletedObjects).contains { roots.contains($0.entity.rootName) }
    }

    /// The count of a request in the store, after its offset and up to its limit, or nil when it needs the in-memory
    /// pass.
    func countInStore(_ request: FetchRequest) throws -> Int? {
        guard let store, !hasChanges, let entity = model.entity(named: request.entityName) else { return nil }
        let fetch = StoreFetch(
            request: request, entity: entity, predicate: try request.predicate?.resolved(for: entity, in: model),
            sortKeys: [], mayBeFinal: true)
        guard let count = try store.count(fetch) else { return nil }
        return min(max(0, count - max(0, request.offset)), request.limit.map { max(0, $0) } ?? .max)
    }

    /// The object of a root entity's row, registered or read from the store; nil when the row is gone.
    func object(root: String, rowID: Int64) throws -> ManagedObject? {
        if let registered = registered[ObjectID(entityName: root, number: rowID)] { return registered }
        var rows = StoredRows(context: self, root: root)
        try store!.fetchRows(root: root, rowIDs: [rowID], into: &rows)
        return rows.objects.first
    }

    // MARK: Faults

    /// Loads a relationship of a stored object: the to-one's destination row, or the to-many's rows in one call.
    ///
    /// A fault fires from a property read, which can't throw: when the store fails, the relationship reads as empty
    /// and stays a fault, to be loaded again on the next access.
    ///
    /// - Precondition: this is `object`'s context. An object of this context is registered or deleted: the paths that
    ///   unregister an object otherwise (saving its deletion, rolling back its insertion) take it out of the context,
    ///   so no registry lookup is needed here.
    func loadFault(of object: ManagedObject, relationship index: Int) {
        guard let store else {
            if parent != nil { return loadFaultFromParent(of: object, relationship: index) }
            object.faults = []
            return
        }
        let pending = object.faults[index]
        // Loaded from here on: loading the members must not come back to this slot.
        object.faults[index] = -1
        // Most faults are to-ones (the only faults with a row id) whose destination is registered already.
        if pending > 0, let destination = toOneDestinations(of: object.entity)[index]?[pending] {
            return settle(object, relationship: index, as: .toOne(destination))
        }
        let relationship = object.entity.relationships[index]
        let root = model.entity(named: relationship.destination)!.rootName
        let value: RelationshipValue
        do {
            if relationship.isToMany {
                var rows = StoredRows(context: self, root: root)
                try store.fetchMembers(of: object, relationship: index, into: &rows)
                value = .toMany(Self.related(noteFaultSiblings(rows.objects)))
            } else if pending <= 0 {
                value = .toOne(nil)
            } else {
                try loadDestinations(of: object, relationship: index, rowID: pending, root: root)
                value = .toOne(try self.object(root: root, rowID: pending))
            }
        } catch {
            object.faults[index] = pending
            return
        }
        settle(object, relationship: index, as: value)
    }

    /// Gives a relationship whose fault just fired its loaded value.
    func settle(_ object: ManagedObject, relationship index: Int, as value: RelationshipValue) {
        object.relationshipValues[index] = value
        // The snapshot holds the saved state, which is what was just loaded.
        object.snapshot?.relationships[index] = value
        if object.faults.allSatisfy({ $0 == -1 }) { object.faults = [] }
    }

    /// The registry tables of an entity's to-one destinations, by relationship slot (nil for to-many ones).
    ///
    /// Faults fire in runs over one entity, so the tables of the last entity are kept: a fault then finds its
    /// destination without looking anything up by name.
    private func toOneDestinations(of entity: Entity) -> [RowTable?] {
        if let last = lastFaultDestinations, last.entity === entity { return last.tables }
        let tables = entity.relationships.map { relationship -> RowTable? in
            guard !relationship.isToMany else { return nil }
            return registered.table(named: model.entity(named: relationship.destination)!.rootName)
        }
        lastFaultDestinations = (entity, tables)
        return tables
    }

    /// Keeps `objects`, just fetched together, as the ones whose to-one faults load their destinations together.
    @discardableResult
    private func noteFaultSiblings(_ objects: [ManagedObject]) -> [ManagedObject] {
        if objects.count > 1 {
            faultSiblings = objects
            faultSiblingsCursor = 0
        }
        return objects
    }

    /// Loads the destination `rowID` of a to-one fault of `object`, and with it the unregistered destinations of the
    /// same relationship pending in the objects fetched with it: one store call per `destinationBatchSize` rows
    /// instead of one per object.
    ///
    /// The siblings are scanned from a cursor that only moves forward, so faults fired in fetch order cost O(1)
    /// each, amortized.
    ///
    ///     for item in try context.fetch(Item.self) { _ = item.tag }   // one store call per 500 distinct tags
    ///
    /// - Complexity: O(*k*) for the *k* siblings scanned, plus one store call per batch.
    private func loadDestinations(of object: ManagedObject, relationship index: Int, rowID: Int64, root: String) throws {
        var rowIDs: [Int64] = [rowID]
        var seen: Set<Int64> = [rowID]
        var position = faultSiblingsCursor
        let registeredRows = registered.table(named: root)
        while rowIDs.count < Self.destinationBatchSize && position < faultSiblings.count {
            let sibling = faultSiblings[position]
            position += 1
            guard sibling.entity === object.entity, !sibling.faults.isEmpty, case let id = sibling.faults[index], id > 0,
                registeredRows[id] == nil, seen.insert(id).inserted
            else { continue }
            rowIDs.append(id)
        }
        faultSiblingsCursor = position
        var rows = StoredRows(context: self, root: root)
        try store!.fetchRows(root: root, rowIDs: rowIDs, into: &rows)
    }

    /// How many to-one destinations one fault loads at most.
    static let destinationBatchSize = 500

    static func related(_ objects: [ManagedObject]) -> RelatedObjects {
        var related = RelatedObjects()
        for object in objects { related.append(object) }
        return related
    }

    // MARK: Identity

    /// The stored object of a tree with these identity values, when no registered object stands for its row.
    func storedObject(_ identity: IdentityKey) -> ManagedObject? {
        guard let store, let rowID = try? store.rowID(of: identity),
            // A registered object of that row has other identity values in memory now, or it would be in the index.
            registered[ObjectID(entityName: identity.root, number: rowID)] == nil
        else { return nil }
        return try? object(root: identity.root, rowID: rowID)
    }

    // MARK: Saving

    /// Writes every unsaved change to the store in one transaction, then gives inserted objects their permanent
    /// ids and every written object its new row version.
    ///
    /// Nothing in the context changes when it throws: the store writes nothing and the changes stay unsaved.
    ///
    /// Inside a transaction the caller opened (``PersistentStore/write(_:)``), the save joins it, so the caller can
    /// write its own rows atomically with the objects (the seeder's ledger does). The context takes the save as done
    /// when it returns: a caller that later rolls its transaction back must discard the context.
    ///
    /// - Throws: ``StoreError`` of kind `conflict` for a row changed in the store since it was fetched, when the
    ///   merge policy doesn't settle it; the store's errors for a failed write (a UNIQUE identity, a busy store).
    /// - Complexity: What the store's save costs: about one statement per changed object.
    package func persistChanges() throws {
        guard let store, hasChanges else { return }
        let inserted = insertedObjects
        let result = try store.save(
            StoreChanges(
                inserted: inserted, updated: updatedObjects, deleted: deletedObjects, mergePolicy: mergePolicy,
                insertionProgress: insertionProgress))
        for (object, rowID) in zip(inserted, result.rowIDs) {
            registered[object.objectID] = nil
            object.objectID = ObjectID(entityName: object.entity.rootName, number: rowID)
            object.rowVersion = 1
            registered[object.objectID] = object
        }
        for (object, version) in result.versions { object.rowVersion = version }
        for (object, slot, value) in result.adoptions {
            let oldIdentity = object.identityValues
            object.attributeValues[slot] = value
            if object.entity.identityIndices.contains(slot) { identityDidChange(object, from: oldIdentity) }
        }
    }
}
