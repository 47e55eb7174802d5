import SeedKitObjects
import SeedKitStore

/// The first seed of an empty store: the templates' objects are saved as they are.
///
///     if try SeedInsertion.isPossible(in: store, ledger: ledger) {
///         let insertion = try SeedInsertion(saving: templates, to: store)   // or (inserting: rows, into: store)
///         try insertion.ledger.write(to: store.connection)
///     }
///
/// When the store holds no object and the ledger no entry, no template object can meet a stored one: each is an
/// insert. So instead of a ``SeedRun`` copying the templates into the store's context, the templates' own context is
/// attached to the store and saved, and the ledger takes each object's key and value hash — the entries a run would
/// write, as both name objects through ``SeedKeys`` and hash them through ``SeedValueText``. A flat set needs no
/// context at all: its ``SeedRows`` are inserted as they were read, with the same row ids, keys and hashes. The tables
/// being empty, their indexes are built once the rows are in (``SQLiteStore/withIndexesBuiltAfter(includingForeignKeys:_:)``).
///
/// - Complexity: O(*n*) in the number of template objects and their relationships.
struct SeedInsertion {
    /// The ledger entries of the saved objects; the caller adds the fingerprint and files.
    private(set) var ledger = SeedLedger()
    /// Inserted objects per entity.
    private(set) var counts: [String: SeedReport.Counts] = [:]

    /// Whether the store has no row in any entity's table and the ledger no object: a first seed.
    static func isPossible(in store: SQLiteStore, ledger: SeedLedger) throws -> Bool {
        try ledger.objects.isEmpty && tablesAreEmpty(in: store)
    }

    /// Whether the store has no row in any entity's table.
    static func tablesAreEmpty(in store: SQLiteStore) throws -> Bool {
        for table in store.schema.tables.values {
            let statement = try store.connection.prepare(sql: "SELECT EXISTS (SELECT 1 FROM \(table.quoted))")
            if try statement.step(), statement.int64(at: 0) != 0 { return false }
        }
        return true
    }

    /// Saves the templates' objects to the store, inside the caller's transaction, and names and hashes them.
    ///
    /// - Precondition: ``isPossible(in:ledger:)`` said so, inside the same write transaction.
    init(saving templates: ObjectContext, to store: SQLiteStore) throws {
        let objects = templates.insertedObjects
        // Keys before the save: an object without identity or owner is named by its order in the templates.
        var keys = SeedKeys(model: store.model)
        for object in objects { _ = keys.key(of: object) }
        templates.attach(to: store)
        // `save()` without its validation: decoding the templates validated these very objects.
        try store.withIndexesBuiltAfter(includingForeignKeys: Self.referencesPointBackward(objects)) {
            try templates.persistChanges()
        }
        _ = templates.commit()
        var text = SeedValueText(model: store.model)
        ledger.objects.reserveCapacity(objects.count)
        for object in objects {
            let hash = text.valueHash(of: object) { keys.key(of: $0) }
            ledger.objects[keys.key(of: object)] = SeedLedger.Entry(entity: object.entity.name, rowID: object.objectID.number, hash: hash)
            counts[object.entity.name, default: .init()].inserted += 1
        }
    }

    /// Inserts the rows of a flat set into the store, inside the caller's transaction, in the order a decoder creates
    /// the objects.
    ///
    /// - Parameter progress: Called with the number of rows written and the total, every 1,024 rows and at the end.
    /// - Precondition: ``isPossible(in:ledger:)`` said so, inside the same write transaction.
    init(inserting rows: SeedRows, into store: SQLiteStore, progress: ((Int, Int) -> Void)? = nil) throws {
        var writer = SeedRowWriter(store: store)
        try store.withIndexesBuiltAfter(includingForeignKeys: !rows.numbered.refersForward) {
            for (written, index) in rows.numbered.order.enumerated() {
                if written % 1024 == 0 { progress?(written, rows.rows.count) }
                try writer.insert(rows.rows[index...index])
            }
        }
        if !rows.rows.isEmpty { progress?(rows.rows.count, rows.rows.count) }
        ledger = rows.numbered.ledger
        counts = rows.numbered.counts
    }

    /// Whether each object's to-one targets come before it in `objects`, the order they are saved in: then no row
    /// waits for a row it references, which is what makes saving without the foreign keys' indexes safe.
    ///
    /// The templates' context numbers its objects in the order it inserts them, which is the order of `objects`:
    /// comparing numbers says which came first without a set of the objects seen. Were it wrong, the save would only
    /// be slower (or miss the cheaper path), never different.
    ///
    /// - Complexity: O(*n*) in the number of objects and their to-one relationships.
    private static func referencesPointBackward(_ objects: [ManagedObject]) -> Bool {
        for object in objects {
            let number = object.objectID.number
            for (index, relationship) in object.entity.relationships.enumerated() where !relationship.isToMany {
                if let target = object.object(at: index), target.objectID.number >= number { return false }
            }
        }
        return true
    }
}
