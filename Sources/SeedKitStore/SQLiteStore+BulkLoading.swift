import SeedKitSQLite

extension SQLiteStore {
    /// Runs `body` with the entity tables' indexes dropped, then creates them again: for filling tables with many rows
    /// at once, where building each index once from all the rows is cheaper than updating it row by row.
    ///
    ///     try store.connection.inTransaction(.immediate) {
    ///         try store.withIndexesBuiltAfter(includingForeignKeys: true) { try context.save() }
    ///     }
    ///
    /// Call it inside a transaction: when `body` or the building of an index throws, rolling the transaction back
    /// restores the indexes with the rest. Inside `body`, no identity index refuses a duplicate identity: the unique
    /// index refuses it when it is built, after the rows are in.
    ///
    /// - Parameter includingForeignKeys: Whether the indexes of foreign keys are dropped too, a join table's index of
    ///   its targets among them. Pass true only when every row goes in after the rows it references, or the
    ///   connection does not check foreign keys: while a deferred reference waits for its row, SQLite checks each row
    ///   inserted into the referenced table against the referring tables, which without the foreign key's index is a
    ///   scan of the referring table per inserted row.
    /// - Throws: What `body` throws; ``DatabaseError`` from dropping or building an index. When two rows have one
    ///   identity the error is ``SQLiteResultCode/constraintUnique``, and its message names the table and one of
    ///   the identities.
    /// - Precondition: The connection is inside a transaction.
    /// - Complexity: O(*n* log *n*) for *n* rows in the tables, per index, once `body` is done.
    package func withIndexesBuiltAfter<Result>(includingForeignKeys: Bool, _ body: () throws -> Result) throws -> Result {
        precondition(connection.isInsideTransaction, "indexes are dropped and built inside the caller's transaction")
        // A join table's index of targets goes too: kept, each join row would go into it at a random place.
        let indexes = schema.indexes.filter { $0.isIdentity || includingForeignKeys }
        for index in indexes { try connection.execute(sql: "DROP INDEX IF EXISTS \(index.quoted)") }
        let result = try body()
        for index in indexes {
            do {
                try connection.execute(sql: index.creationSQL)
            } catch let error as DatabaseError where index.isIdentity && error.resultCode == .constraint {
                throw try duplicateIdentityError(index, error)
            }
        }
        return result
    }

    /// The error of a unique index that two rows prevent from being built, naming one identity they share.
    private func duplicateIdentityError(_ index: IndexSchema, _ error: DatabaseError) throws -> DatabaseError {
        let columns = index.columns.map(SQLIdentifier.quote).joined(separator: ", ")
        // NULLs never collide in a unique index.
        let present = index.columns.map { "\(SQLIdentifier.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        let duplicate = try connection.prepare(sql: """
            SELECT \(columns) FROM \(SQLIdentifier.quote(index.table)) WHERE \(present) GROUP BY \(columns) HAVING count(*) > 1 LIMIT 1
            """)
        var message = "\(error.message): two or more rows of \(index.table) have the same identity"
        if try duplicate.step() {
            let values = index.columns.indices.map { duplicate.value(at: $0).description }
            message += " (\(zip(index.columns, values).map { "\($0) = \($1)" }.joined(separator: ", ")))"
        }
        return DatabaseError(resultCode: error.extendedResultCode, message: message, sql: error.sql)
    }
}
