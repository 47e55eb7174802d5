import CSQLite

/// A prepared SQL statement: bind its parameters, step through its rows, reset it and run it again.
///
///     let insert = try connection.prepare(sql: "INSERT INTO Employee (name, departmentID) VALUES (?, ?)")
///     for employee in employees {
///         try insert.bind(employee.name, at: 1)
///         try insert.bind(employee.departmentID, at: 2)
///         try insert.execute()
///     }
///
/// Parameters are numbered from 1, columns from 0, as in SQLite's C API.
///
/// A statement belongs to the connection that prepared it and, like it, is confined to one thread or isolation
/// domain at a time. Don't use a statement after its connection is gone: SQLite keeps the connection's memory until
/// the last statement is released, but the database is closed.
package final class Statement {
    /// The `sqlite3_stmt`.
    @usableFromInline let handle: OpaquePointer

    /// Prepares the single statement in `sql`.
    ///
    /// - Throws: ``DatabaseError`` if `sql` doesn't compile, is empty, or holds more than one statement.
    init(sql: String, database: OpaquePointer, flags: UInt32 = 0) throws {
        var utf8SQL = sql
        handle = try utf8SQL.withUTF8 { utf8 in
            try utf8.withMemoryRebound(to: CChar.self) { text in
                guard let (first, length) = try Statement.prepareFirst(in: text, database: database, flags: flags) else {
                    throw DatabaseError(resultCode: .misuse, message: "no SQL statement to prepare", sql: sql)
                }
                // sqlite3_prepare would silently ignore a second statement: refuse it instead.
                let second: (OpaquePointer, length: Int)?
                do {
                    second = try Statement.prepareFirst(
                        in: UnsafeBufferPointer(rebasing: text[length...]), database: database, flags: 0)
                } catch {
                    sqlite3_finalize(first)
                    throw error
                }
                if let (secondHandle, _) = second {
                    sqlite3_finalize(secondHandle)
                    sqlite3_finalize(first)
                    throw DatabaseError(
                        resultCode: .misuse,
                        message: "prepare(sql:) takes a single statement; run scripts with execute(sql:)",
                        sql: sql)
                }
                return first
            }
        }
    }

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Prepares the first statement in `text`.
    ///
    /// - Returns: The statement handle and the number of bytes it spans, or nil if `text` holds only whitespace and
    ///   comments.
    static func prepareFirst(
        in text: UnsafeBufferPointer<CChar>,
        database: OpaquePointer,
        flags: UInt32
    ) throws -> (OpaquePointer, length: Int)? {
        guard let start = text.baseAddress, !text.isEmpty else { return nil }
        var handle: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v3(database, start, Int32(text.count), flags, &handle, &tail)
        guard code == SQLITE_OK else {
            let sql = String(decoding: UnsafeRawBufferPointer(text), as: UTF8.self)
            throw DatabaseError(code: code, database: database, sql: sql)
        }
        guard let handle else { return nil }
        return (handle, tail.map { $0 - start } ?? text.count)
    }

    /// The SQL text of the statement.
    package var sql: String {
        String(cString: sqlite3_sql(handle))
    }

    /// Whether the statement leaves the database unchanged, like `SELECT`.
    package var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }

    /// Steps to the next row.
    ///
    /// Call ``reset()`` before binding new values: SQLite refuses bindings while a statement is running or done.
    ///
    ///     while try statement.step() {
    ///         names.append(statement.text(at: 0))
    ///     }
    ///
    /// - Returns: true when a row is available for the column accessors, false when the statement is done.
    /// - Throws: ``DatabaseError``. The statement is then reset, ready to run again; its bindings are kept.
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = DatabaseError(code: code, database: sqlite3_db_handle(handle), sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    /// Rewinds the statement to run again from the start, keeping its bindings.
    ///
    /// Resetting a statement left in the middle of its rows also releases the read transaction it holds.
    package func reset() {
        // sqlite3_reset returns the error of the last step, which step() already threw.
        sqlite3_reset(handle)
    }

    /// Sets every parameter to NULL.
    package func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Runs the statement from the start to its end with its current bindings, ignoring any rows, and resets it,
    /// ready for new bindings.
    ///
    /// - Complexity: One `sqlite3_step` per row the statement produces, plus one.
    package func execute() throws {
        rewindIfRunning()
        while try step() {}
        // SQLite refuses new bindings until the statement is reset.
        sqlite3_reset(handle)
    }

    /// Binds `arguments` to the parameters, in order, then runs the statement to its end and resets it.
    ///
    ///     try statement.execute(arguments: ["Sales", 3])
    ///
    /// - Throws: ``DatabaseError`` if the number of arguments isn't the number of parameters, or if the statement fails;
    ///   the error then carries the arguments.
    package func execute(arguments: [SQLiteValue]) throws {
        // Unconditionally: a statement stepped to its end without a reset is not running, yet refuses bindings.
        sqlite3_reset(handle)
        let parameterCount = self.parameterCount
        guard arguments.count == parameterCount else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "wrong number of arguments: the statement has \(parameterCount) parameters, got \(arguments.count)",
                sql: sql,
                arguments: arguments)
        }
        do {
            for (offset, argument) in arguments.enumerated() {
                try bind(argument, at: offset + 1)
            }
            while try step() {}
            sqlite3_reset(handle)
        } catch let error as DatabaseError {
            throw error.with(arguments: arguments)
        }
    }

    /// Resets a statement left in the middle of its rows. A statement at its start, as in a bind-and-execute loop,
    /// needs no reset, and one stepped to its end resets itself on the next step.
    private func rewindIfRunning() {
        if sqlite3_stmt_busy(handle) != 0 {
            sqlite3_reset(handle)
        }
    }
}

// A statement is bound to its connection's thread or isolation domain, like the connection itself.
@available(*, unavailable)
extension Statement: Sendable {}
