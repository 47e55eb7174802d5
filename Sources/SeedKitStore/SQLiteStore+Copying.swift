import SeedKitSQLite
import SeedKitModel

extension SQLiteStore {
    /// Opens a private store in memory holding a copy of what `store` holds: its tables, rows, metadata and seed
    /// ledger, page for page.
    ///
    ///     let seeded = try SQLiteStore(path: "seed.sqlite", model: model)
    ///     let scratch = try SQLiteStore.inMemory(copying: seeded)
    ///     try scratch.newContext().insert("Department", values: ["name": "Trial"])   // seed.sqlite is untouched
    ///
    /// For trying changes, or starting many runs from one state, without writing the store or building its state
    /// again: copying pages costs less than creating a schema, let alone filling it. The copy is `store`'s database
    /// as committed when this runs, copied by SQLite's online backup, and opened with `store`'s model as
    /// ``inMemory(model:)`` opens a store: an older schema `store` has not migrated yet is migrated in the copy. The
    /// two stores are independent afterwards.
    ///
    /// - Throws: ``DatabaseError`` of code ``SQLiteResultCode/busy`` while `store` is inside a write transaction, or
    ///   when another connection holds a lock on its file the copy needs; ``StoreError`` as
    ///   ``init(path:model:options:)`` throws for a database that is not a store of the model.
    /// - Complexity: O(*n*) in the size of `store`'s database, plus reading its schema.
    public static func inMemory(copying store: SQLiteStore) throws -> SQLiteStore {
        // The model's layout is the store's: worked out again, it would cost more than the copy.
        try SQLiteStore(model: store.model, schema: store.schema, options: Options()) { configuration in
            let copy = try SQLiteConnection.inMemory(configuration: configuration)
            try store.connection.backup(to: copy)
            return copy
        }
    }
}
