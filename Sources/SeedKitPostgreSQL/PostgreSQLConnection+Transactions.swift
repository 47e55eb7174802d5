import CPostgreSQL

extension PostgreSQLConnection {
    /// How much a transaction sees of others running at the same time.
    ///
    /// See <https://www.postgresql.org/docs/current/transaction-iso.html>.
    package enum IsolationLevel: Sendable, Hashable {
        /// Each statement sees what was committed before it began: PostgreSQL's default.
        case readCommitted
        /// Every statement sees what was committed before the transaction's first statement; a write to a row
        /// another transaction changed since fails with ``PostgreSQLError/Kind/serializationFailure``.
        case repeatableRead
        /// As if transactions ran one after the other; a conflict fails with
        /// ``PostgreSQLError/Kind/serializationFailure``, to be retried.
        case serializable

        var beginSQL: String {
            switch self {
            case .readCommitted: "BEGIN ISOLATION LEVEL READ COMMITTED"
            case .repeatableRead: "BEGIN ISOLATION LEVEL REPEATABLE READ"
            case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
            }
        }
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    ///     try connection.inTransaction {
    ///         try connection.lockAdvisory(key: ledgerLockKey)
    ///         try connection.execute(sql: "INSERT INTO Department VALUES ($1, $2)", arguments: [1, "Sales"])
    ///     }
    ///
    /// A failing statement aborts a PostgreSQL transaction: everything after it fails until the rollback. So when
    /// `body` returns after catching such an error itself, the transaction is rolled back and a
    /// ``PostgreSQLError/Kind/transactionAborted`` error thrown rather than committing part of it (use
    /// ``inSavepoint(_:)`` around statements that may fail). When the commit fails (a deferred constraint, a
    /// serialization failure), the transaction is gone and the commit's error is thrown. Either way the connection
    /// is left outside any transaction, unless it broke: then the server rolled back, except when the connection
    /// broke during the commit itself, whose outcome can't be known.
    ///
    /// - Throws: The error `body` threw, or a ``PostgreSQLError`` from beginning or committing the transaction.
    package func inTransaction<Result>(
        _ isolation: IsolationLevel = .readCommitted,
        _ body: () throws -> Result
    ) throws -> Result {
        if isInsideTransaction {
            throw PostgreSQLError(
                kind: .misuse, message: "a transaction is already open; use inSavepoint inside a transaction")
        }
        try execute(sql: isolation.beginSQL)
        let result: Result
        do {
            result = try body()
        } catch {
            rollbackIfInsideTransaction()
            throw error
        }
        if libpq.PQtransactionStatus(handle) == PQTRANS_INERROR {
            rollbackIfInsideTransaction()
            throw PostgreSQLError(
                kind: .transactionAborted, sqlState: "25P02",
                message: "the transaction was rolled back: a statement in it failed and the error was caught")
        }
        try execute(sql: "COMMIT")
        return result
    }

    /// Begins a transaction that outlives the call, for a caller that holds it open across calls and ends it with
    /// ``rollBack()``; ``inTransaction(_:_:)`` is the usual way.
    ///
    ///     try writer.beginTransaction(.repeatableRead)
    ///     let snapshot = try writer.exportSnapshot()
    ///     try reader.beginTransaction(.repeatableRead, readOnly: true, snapshot: snapshot)   // sees what writer sees
    ///     try writer.execute(sql: "DELETE FROM \"Department\"")                             // reader still sees them
    ///     writer.rollBack()
    ///
    /// - Parameters:
    ///   - readOnly: Whether the transaction refuses writes.
    ///   - snapshot: A snapshot another session's transaction exported (``exportSnapshot()``), which this one then
    ///     sees: the same committed rows, whatever commits meanwhile. Needs `.repeatableRead` or `.serializable`.
    /// - Throws: ``PostgreSQLError/Kind/misuse`` inside a transaction; the server's errors (a snapshot that is gone).
    package func beginTransaction(_ isolation: IsolationLevel, readOnly: Bool = false, snapshot: String? = nil) throws {
        if isInsideTransaction {
            throw PostgreSQLError(kind: .misuse, message: "a transaction is already open")
        }
        try execute(sql: isolation.beginSQL + (readOnly ? " READ ONLY" : ""))
        guard let snapshot else { return }
        do {
            // A statement of its own, and the transaction's first: the snapshot is a literal, never an argument.
            try execute(sql: "SET TRANSACTION SNAPSHOT '\(snapshot.replacingOccurrences(of: "'", with: "''"))'")
        } catch {
            rollbackIfInsideTransaction()
            throw error
        }
    }

    /// The transaction's snapshot, for other sessions to see the same rows (see
    /// ``beginTransaction(_:readOnly:snapshot:)``); valid while the transaction is open.
    package func exportSnapshot() throws -> String {
        guard isInsideTransaction else {
            throw PostgreSQLError(kind: .misuse, message: "exportSnapshot() needs an open transaction")
        }
        return try query(sql: "SELECT pg_export_snapshot()")[0].text(at: 0) ?? ""
    }

    /// Rolls back the open transaction, if any. A connection that broke has none left: the server rolled it back.
    package func rollBack() {
        rollbackIfInsideTransaction()
    }

    /// Runs `body` in a savepoint: its changes are kept when it returns and undone when it throws, and the
    /// transaction around it goes on either way.
    ///
    ///     try connection.inTransaction {
    ///         try connection.execute(sql: "INSERT INTO Department (id, name) VALUES (1, 'Sales')")
    ///         try? connection.inSavepoint {
    ///             try connection.execute(sql: "INSERT INTO Department (id, name) VALUES (1, 'Sales')")  // fails
    ///         }
    ///     }  // commits Sales once
    ///
    /// Savepoints nest. Outside a transaction, the savepoint is a transaction of its own.
    ///
    /// - Throws: The error `body` threw, or a ``PostgreSQLError`` from the savepoint statements.
    package func inSavepoint<Result>(_ body: () throws -> Result) throws -> Result {
        guard isInsideTransaction else {
            return try inTransaction(.readCommitted, body)
        }
        // One name serves every level: RELEASE and ROLLBACK TO act on the innermost savepoint of that name.
        try execute(sql: "SAVEPOINT seedkit")
        let result: Result
        do {
            result = try body()
        } catch {
            // A broken connection has no savepoint left to roll back to, and the caller needs body's error.
            try? execute(sql: "ROLLBACK TO SAVEPOINT seedkit; RELEASE SAVEPOINT seedkit")
            throw error
        }
        try execute(sql: "RELEASE SAVEPOINT seedkit")
        return result
    }

    /// Takes the transaction-scoped advisory lock `key`, waiting while another session holds it (up to
    /// `lock_timeout`); the lock goes at the end of the transaction, commit or rollback.
    ///
    ///     try connection.inTransaction {
    ///         try connection.lockAdvisory(key: 0x5EED)
    ///         // one session at a time, across hosts
    ///     }
    ///
    /// - Throws: ``PostgreSQLError/Kind/misuse`` outside a transaction (the lock would go at once),
    ///   ``PostgreSQLError/Kind/lockTimeout`` when `lock_timeout` expires, ``PostgreSQLError/Kind/deadlock``.
    package func lockAdvisory(key: Int64) throws {
        try checkInsideTransaction(for: "lockAdvisory(key:)")
        try cachedStatement(sql: "SELECT pg_advisory_xact_lock($1)").execute(arguments: [.integer(key)])
    }

    /// Takes the transaction-scoped advisory lock `key` if no other session holds it.
    ///
    /// - Returns: Whether the lock was taken.
    package func tryLockAdvisory(key: Int64) throws -> Bool {
        try checkInsideTransaction(for: "tryLockAdvisory(key:)")
        let result = try cachedStatement(sql: "SELECT pg_try_advisory_xact_lock($1)").query(arguments: [.integer(key)])
        return try result[0].bool(at: 0) == true
    }

    private func checkInsideTransaction(for method: String) throws {
        guard isInsideTransaction else {
            throw PostgreSQLError(
                kind: .misuse,
                message: "\(method) takes a transaction-scoped lock: call it inside inTransaction")
        }
    }

    private func rollbackIfInsideTransaction() {
        // A broken connection can't roll back (the server did), and the caller needs the first error.
        guard isInsideTransaction else { return }
        try? execute(sql: "ROLLBACK")
    }
}
