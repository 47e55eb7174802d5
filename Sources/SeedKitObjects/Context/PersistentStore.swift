import SeedKitModel

/// What a context needs of persistent storage: the rows of a fetch, counts, faults, identity lookups, atomic saves
/// and transactions. ``SQLiteStore`` implements it; the context writes no SQL.
///
///     let context = ObjectContext(model: model, persistentStore: store)
///     let engineers = try context.fetch(FetchRequest("Employee"))   // store.fetch(_:into:)
///     try context.save()                                           // store.save(_:)
///
/// Calls are per batch, never per row: a store reads a whole fetch, fault or batch of to-one destinations in one
/// call, writing each row's values straight into a new object's storage (see ``StoredRows``), and saves a whole
/// change set in one. Nothing in the requirements is specific to SQL: row ids are the objects' permanent
/// ``ObjectID`` numbers (positive), and row versions count the updates of a row, for conflict detection.
///
/// A store is confined to one isolation domain with its contexts.
package protocol PersistentStore: AnyObject {
    /// The model whose objects the store holds.
    var model: EntityModel { get }

    /// Reads the stored objects a fetch asks for into `rows`.
    ///
    /// - Returns: Whether the store applied all of the fetch — the predicate, the sort, the offset and the limit — so
    ///   that the rows are the final result. When false, the rows are candidates: a superset of the rows the
    ///   predicate holds for (all of its entity's rows at worst), and the context finishes the fetch in memory.
    func fetch(_ fetch: StoreFetch, into rows: inout StoredRows) throws -> Bool

    /// The number of stored objects a fetch's predicate holds for, ignoring its offset and limit; nil when the store
    /// cannot count them exactly (a condition it cannot run).
    func count(_ fetch: StoreFetch) throws -> Int?

    /// Reads the rows of a root entity with these row ids, in any order, into `rows`; ids with no row are skipped.
    func fetchRows(root: String, rowIDs: [Int64], into rows: inout StoredRows) throws

    /// Reads the stored members of a to-many relationship of a stored object, in the relationship's order, into
    /// `rows`.
    func fetchMembers(of owner: ManagedObject, relationship index: Int, into rows: inout StoredRows) throws

    /// The row id of the stored object with this identity, or nil.
    func rowID(of identity: IdentityKey) throws -> Int64?

    /// A stored object's row as the store holds it now, or nil when the row is gone.
    func storedValues(of object: ManagedObject) throws -> StoredValues?

    /// Writes a change set in one transaction — or, inside a transaction the caller opened with ``write(_:)``, in a
    /// savepoint of it — and says which row ids and versions the objects now have.
    ///
    /// Nothing is written when it throws.
    ///
    /// - Throws: ``StoreError`` of kind `conflict` for a row changed in the store since it was fetched, when the
    ///   merge policy doesn't settle it (see ``StoreChanges/settle(_:slots:stored:rowID:)``); the store's own errors for a
    ///   failed write.
    func save(_ changes: StoreChanges) throws -> StoreSaveResult

    /// Runs `body` in one read transaction, so that everything it fetches is one snapshot of the store; inside a
    /// transaction already, simply runs it.
    func read<Result>(_ body: () throws -> Result) throws -> Result

    /// Runs `body` in one write transaction that holds the store's write lock from the start, committing when it
    /// returns and rolling back when it throws. Saves inside `body` join it; inside a transaction already, simply runs
    /// it.
    func write<Result>(_ body: () throws -> Result) throws -> Result
}

/// A fetch as a store runs it: the request resolved against its entity.
///
/// It keeps the request's paging and subentity choice rather than the request, whose copy would retain and release
/// each of its references on every fetch.
package struct StoreFetch {
    package var entity: Entity
    package var includesSubentities: Bool
    package var limit: Int?
    package var offset: Int
    /// The request's predicate, resolved; nil for every object, and when the store is not to filter: while the
    /// context has unsaved changes to objects its key paths pass through, stored values would decide wrongly which
    /// rows are candidates.
    package var predicate: ResolvedPredicate?
    /// The request's sort keys, resolved.
    package var sortKeys: [(path: AttributePath, ascending: Bool)]
    /// Whether the result may be final: false while the context has unsaved changes, which the store cannot see,
    /// so that sorting and limiting are left to the context.
    package var mayBeFinal: Bool
}

extension StoreFetch {
    /// Delegates to the memberwise initializer, which hands the values over as they are (see ``FetchRequest``'s).
    package init(
        request: FetchRequest, entity: Entity, predicate: ResolvedPredicate?,
        sortKeys: [(path: AttributePath, ascending: Bool)], mayBeFinal: Bool
    ) {
        self.init(
            entity: entity, includesSubentities: request.includesSubentities, limit: request.limit,
            offset: request.offset, predicate: predicate, sortKeys: sortKeys, mayBeFinal: mayBeFinal)
    }
}

/// The objects of the rows a store reads: the registered object of a row the context has, else a new object that
/// the store fills and the context registers.
///
///     while let rowID = cursor.next() {
///         guard rows.isNew(rowID: rowID) else { continue }       // registered (kept in `objects`) or deleted
///         let object = rows.makeObject(entity, rowID: rowID, version: version)
///         object.attributeValues.withUnsafeMutableBufferPointer { … }   // straight from the cursor
///         rows.add(object)
///     }
///
/// One value reads the rows of one root entity.
///
/// - Complexity: O(1) per row besides filling it: a registry lookup by row id, and queueing it for the identity index.
package struct StoredRows {
    package let context: ObjectContext
    private let table: RowTable
    /// The row ids of the context's deleted objects of the root entity; nil when it has deleted none, the usual case.
    private let deletedRowIDs: Set<Int64>?
    /// The objects of the rows read so far, in the order read; deleted ones left out.
    package private(set) var objects: [ManagedObject] = []

    /// Borrows `root`, which the registry only compares and the table keeps a copy of when it is new, and `context`,
    /// whose one copy is the one kept: taken, the context was retained by the caller and again here.
    init(context: borrowing ObjectContext, root: borrowing String) {
        self.context = copy context
        table = context.registered.table(named: root)
        deletedRowIDs = context.deleted.isEmpty
            ? nil : Set(context.deletedObjects.compactMap { $0.objectID.entityName == root ? $0.objectID.number : nil })
    }

    /// The objects read, handed over as they are: reading ``objects`` copied the array, retaining it, and the rows'
    /// end released it.
    consuming func takeObjects() -> [ManagedObject] {
        objects
    }

    /// The root entity whose rows are read: its table's name, rather than a copy of it kept beside the table.
    package var root: String { table.name }

    /// Whether the row needs a new object. When the context has the row's object registered, it goes to
    /// ``objects`` as it is, unsaved changes kept; a row whose object the context deleted is left out.
    package mutating func isNew(rowID: Int64) -> Bool {
        if let registered = table[rowID] {
            objects.append(registered)
            return false
        }
        return deletedRowIDs?.contains(rowID) != true
    }

    /// A new object of `entity` for a row, of its bound class, with the row's id and version: the store fills its
    /// ``ManagedObject/attributeValues`` and ``ManagedObject/faults``, then gives it to ``add(_:)``.
    package func makeObject(_ entity: Entity, rowID: Int64, version: Int64) -> ManagedObject {
        let object = context.instantiate(entity)
        // The object's id names its entity's root already, which is this one.
        assert(object.objectID.entityName == root, "a row of \(root)'s table is of an entity of its tree")
        object.objectID.number = rowID
        object.rowVersion = version
        return object
    }

    /// Registers a filled object and keeps it in ``objects``, which takes the caller's reference.
    package mutating func add(_ object: consuming ManagedObject) {
        table[object.objectID.number] = object
        context.registerIdentity(of: object)
        // A fetch by identity reads one row: its array is made for it at once rather than grown from empty.
        if objects.isEmpty { objects = [object] } else { objects.append(object) }
    }
}

/// A row's values as the store holds them.
package struct StoredValues {
    package var version: Int64
    /// Per attribute of the object's entity.
    package var attributes: [AttributeValue?]
    /// Per relationship: the destination row id of a to-one; nil for none and for to-many.
    package var foreignKeys: [Int64?]

    package init(version: Int64, attributes: [AttributeValue?], foreignKeys: [Int64?]) {
        self.version = version
        self.attributes = attributes
        self.foreignKeys = foreignKeys
    }
}

/// The unsaved changes of a context, for a store to write.
package struct StoreChanges {
    /// Objects to insert, in insertion order; their ids are temporary (negative).
    package var inserted: [ManagedObject]
    /// Stored objects with changed properties (see ``changedColumns(of:)``).
    package var updated: [ManagedObject]
    /// Stored objects to delete.
    package var deleted: [ManagedObject]
    package var mergePolicy: MergePolicy
    /// Called with the number of inserted objects written so far and their total, every thousand or so objects.
    package var insertionProgress: ((Int, Int) -> Void)?

    /// The changed properties of an updated object that live in its row — attributes, then to-one relationships —
    /// as change slots (see ``Entity/propertyName(slot:)``).
    package func changedColumns(of object: ManagedObject) -> [Int] {
        let entity = object.entity
        let attributeCount = entity.attributes.count
        return object.changedSlots.indices.filter { slot in
            object.changedSlots[slot] && (slot < attributeCount || !entity.relationships[slot - attributeCount].isToMany)
        }
    }

    /// What to write of an updated object whose row changed in the store since it was fetched, by the merge policy:
    /// the slots to write without checking the version again, and the stored attribute values the object adopts.
    ///
    /// - Parameters:
    ///   - slots: The ``changedColumns(of:)`` of `object`.
    ///   - stored: The row as stored now; nil when it is gone.
    ///   - rowID: The row id of an object, new or stored.
    /// - Throws: ``StoreError`` of kind `conflict` when the row is gone, or under ``MergePolicy/rejectConflicts``.
    package func settle(
        _ object: ManagedObject, slots: [Int], stored: StoredValues?, rowID: (ManagedObject?) -> Int64?
    ) throws -> (slots: [Int], adoptions: [(slot: Int, value: AttributeValue?)]) {
        let entity = object.entity
        let attributeCount = entity.attributes.count
        guard let stored else {
            throw StoreError(
                .conflict, object: object.description, keys: object.changedKeys.sorted(),
                "the row was deleted from the store since the object was fetched")
        }
        let changedInStore = slots.filter { slot in
            guard slot < attributeCount else {
                return stored.foreignKeys[slot - attributeCount] != rowID(object.snapshotObject(at: slot - attributeCount))
            }
            return stored.attributes[slot] != object.snapshot?.attributes[slot]
        }
        switch mergePolicy {
        case .rejectConflicts:
            let keys = changedInStore.isEmpty
                ? object.changedKeys.sorted() : changedInStore.map { entity.propertyName(slot: $0) }
            throw StoreError(
                .conflict, object: object.description, keys: keys,
                "the row changed in the store since it was fetched (version \(stored.version), fetched at "
                    + "\(object.rowVersion))")
        case .inMemoryWins:
            return (slots, [])
        case .storeWins:
            // Relationships keep their in-memory value: adopting a stored one would have to relink inverses.
            let adopted = changedInStore.filter { $0 < attributeCount }
            return (
                slots.filter { !adopted.contains($0) }, adopted.map { ($0, stored.attributes[$0]) }
            )
        }
    }

    /// Writes a stored object's changed columns with `update`, checking its row version; when the row changed or
    /// went since the fetch, writes what the merge policy settles instead. Records the object's new version and the
    /// values it adopts in `result`; nothing when no column changed.
    ///
    /// - Parameters:
    ///   - storedValues: The object's row as stored now; nil when it is gone.
    ///   - update: Writes the slots (``changedColumns(of:)`` or fewer), checking the row version when asked: the
    ///     new version, or nil when no row matched.
    /// - Throws: What ``settle(_:slots:stored:rowID:)`` throws; the store's errors.
    package func writeUpdate(
        of object: ManagedObject, rowID: (ManagedObject?) -> Int64?, result: inout StoreSaveResult,
        storedValues: (ManagedObject) throws -> StoredValues?,
        update: (_ slots: [Int], _ checkingVersion: Bool) throws -> Int64?
    ) throws {
        let slots = changedColumns(of: object)
        guard !slots.isEmpty else { return }
        if let version = try update(slots, true) {
            result.versions.append((object, version))
            return
        }
        let settled = try settle(object, slots: slots, stored: storedValues(object), rowID: rowID)
        result.adoptions += settled.adoptions.map { (object, $0.slot, $0.value) }
        if let version = try update(settled.slots, false) { result.versions.append((object, version)) }
    }

    /// The error of a deletion refused because the row changed in the store since it was fetched.
    package func deletionConflict(_ object: ManagedObject, stored: StoredValues) -> StoreError {
        StoreError(
            .conflict, object: object.description,
            "cannot delete: the row changed in the store since it was fetched (version \(stored.version), fetched at "
                + "\(object.rowVersion))")
    }

    /// Permanent row ids for the inserted objects, each root's continuing after its largest stored one, in the order
    /// of ``inserted``; and the row id of any object of the save, new or stored (nil for none).
    ///
    /// Call it under the store's write lock: nobody else may take these ids before the save commits.
    ///
    /// - Parameter largestRowID: The largest row id stored in a root entity's table (0 for none).
    /// - Complexity: O(*n*) for *n* inserted objects, and one `largestRowID` call per root among them.
    package func newRowIDs(
        largestRowID: (String) throws -> Int64
    ) rethrows -> (inserted: [Int64], rowID: (ManagedObject?) -> Int64?) {
        var rowIDs: [Int64] = []
        var newRowIDs: [ObjectIdentifier: Int64] = [:]
        var nextRowID: [String: Int64] = [:]
        rowIDs.reserveCapacity(inserted.count)
        for object in inserted {
            let root = object.entity.rootName
            let rowID = try nextRowID[root] ?? (largestRowID(root) + 1)
            newRowIDs[ObjectIdentifier(object)] = rowID
            rowIDs.append(rowID)
            nextRowID[root] = rowID + 1
        }
        return (rowIDs, { object in object.map { newRowIDs[ObjectIdentifier($0)] ?? $0.objectID.number } })
    }
}

/// What a save gave the objects it wrote.
package struct StoreSaveResult {
    /// The permanent row id of each inserted object, in the order of ``StoreChanges/inserted``; each has version 1.
    package var rowIDs: [Int64]
    /// The new row version of each updated object that had columns to write.
    package var versions: [(object: ManagedObject, version: Int64)]
    /// Stored attribute values updated objects adopt under ``MergePolicy/storeWins``.
    package var adoptions: [(object: ManagedObject, slot: Int, value: AttributeValue?)]

    package init(
        rowIDs: [Int64], versions: [(object: ManagedObject, version: Int64)],
        adoptions: [(object: ManagedObject, slot: Int, value: AttributeValue?)]
    ) {
        self.rowIDs = rowIDs
        self.versions = versions
        self.adoptions = adoptions
    }
}

extension Entity {
    /// The name of the property at a change slot: attributes, then relationships.
    package func propertyName(slot: Int) -> String {
        slot < attributes.count ? attributes[slot].name : relationships[slot - attributes.count].name
    }
}

extension ManagedObject {
    /// The object a to-one relationship pointed to at the last save.
    package func snapshotObject(at index: Int) -> ManagedObject? {
        guard case .toOne(let target)? = snapshot?.relationships[index] else { return nil }
        return target
    }
}
