import CSQLite

extension SQLiteConnection {
    /// When a transaction takes the database's write lock.
    ///
    /// See <https://www.sqlite.org/lang_transaction.html>.
    package enum TransactionKind: Sendable, Hashable {
        /// At its first write; reads see a snapshot from the first read. A later write may fail with
        /// ``SQLiteResultCode/busy`` if another connection wrote since.
        case deferred
        /// At once, waiting up to the busy timeout: the usual choice for a transaction that writes.
        case immediate
        /// At once; in rollback-journal mode it also keeps readers out. In WAL mode it is the same as `immediate`.
        case exclusive

        var beginSQL: String {
            switch self {
            case .deferred: "BEGIN DEFERRED TRANSACTION"
            case .immediate: "BEGIN IMMEDIATE TRANSACTION"
            case .exclusive: "BEGIN EXCLUSIVE TRANSACTION"
            }
        }
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    ///     let departmentID = try connection.inTransaction(.immediate) {
    ///         try connection.execute(sql: "INSERT INTO Department (name) VALUES (?)", arguments: ["Sales"])
    ///         return connection.lastInsertedRowID
    ///     }
    ///
    /// When the commit itself fails (a deferred foreign key violation, a busy database), the transaction is rolled back
    /// and the commit's error thrown. Either way the connection is left outside any transaction, ready for the next.
    /// Transactions don't nest: inside one, use ``inSavepoint(_:)``.
    ///
    /// - Throws: The error `body` threw, or a ``DatabaseError`` from beginning or committing the transaction.
    package func inTransaction<Result>(
        _ kind: TransactionKind = .deferred,
        _ body: () throws -> Result
    ) throws -> Result {
        try cachedStatement(sql: kind.beginSQL).execute()
        let result: Result
        do {
            result = try body()
            try cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
            rollbackIfInsideTransaction()
            throw error
        }
        return result
    }

    /// Runs `body` in a savepoint: its changes are kept when it returns and undone when it throws.
    ///
    ///     try connection.inTransaction {
    ///         try connection.execute(sql: "INSERT INTO Department (name) VALUES ('Sales')")
    ///         try? connection.inSavepoint {
    ///             try connection.execute(sql: "INSERT INTO Department (name) VALUES ('Sales')")  // UNIQUE fails
    ///         }
    ///     }  // commits Sales once
    ///
    /// Savepoints nest, inside a transaction or not. Outside a transaction the savepoint is one: it commits when `body`
    /// returns.
    ///
    /// - Throws: The error `body` threw, or a ``DatabaseError`` from the savepoint statements.
    package func inSavepoint<Result>(_ body: () throws -> Result) throws -> Result {
        let startsTransaction = !isInsideTransaction
        // One name serves every level: RELEASE and ROLLBACK TO act on the innermost savepoint with that name.
        try cachedStatement(sql: "SAVEPOINT seedkit").execute()
        let result: Result
        do {
            result = try body()
        } catch {
            // Some errors (SQLITE_FULL, SQLITE_IOERR, ...) make SQLite roll back the whole transaction by itself, which
            // took the savepoint with it; then there is nothing left to undo. Otherwise any failure here would hide
            // the error the caller needs, which is body's.
            if isInsideTransaction {
                try? cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT seedkit").execute()
                try? cachedStatement(sql: "RELEASE SAVEPOINT seedkit").execute()
            }
            throw error
        }
        do {
            try cachedStatement(sql: "RELEASE SAVEPOINT seedkit").execute()
        } catch {
            // Releasing the outermost savepoint commits, and can fail as a commit does.
            if startsTransaction {
                rollbackIfInsideTransaction()
            }
            throw error
        }
        return result
    }

    private func rollbackIfInsideTransaction() {
        // Same reasoning as in inSavepoint: SQLite may have rolled back already, and the caller needs the first error.
        guard isInsideTransaction else { return }
        try? cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
    }
}
