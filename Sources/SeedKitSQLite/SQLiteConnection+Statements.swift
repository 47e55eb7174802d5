import CSQLite

extension SQLiteConnection {
    /// Runs an SQL script: every statement in `sql`, in order, each to its end.
    ///
    ///     try connection.execute(sql: """
    ///         CREATE TABLE Department (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    ///         CREATE TABLE Employee (id INTEGER PRIMARY KEY, departmentID INTEGER REFERENCES Department(id));
    ///         """)
    ///
    /// Statements before a failing one keep their effect, unless the script runs inside a transaction.
    ///
    /// - Throws: ``DatabaseError`` carrying the SQL from the failing statement on.
    package func execute(sql: String) throws {
        var script = sql
        try script.withUTF8 { utf8 in
            try utf8.withMemoryRebound(to: CChar.self) { text in
                var offset = 0
                while offset < text.count {
                    let rest = UnsafeBufferPointer(rebasing: text[offset...])
                    guard let (statementHandle, length) = try Statement.prepareFirst(in: rest, database: handle, flags: 0)
                    else { return }
                    offset += length
                    try Statement(handle: statementHandle).execute()
                }
            }
        }
    }

    /// Runs the single statement in `sql` with `arguments` bound to its parameters, in order.
    ///
    ///     try connection.execute(sql: "INSERT INTO Department (name) VALUES (?)", arguments: ["Sales"])
    ///
    /// The statement is prepared for this call only; use ``cachedStatement(sql:)`` for SQL that runs often.
    package func execute(sql: String, arguments: [SQLiteValue]) throws {
        try prepare(sql: sql).execute(arguments: arguments)
    }

    /// Compiles the single statement in `sql`.
    ///
    ///     let select = try connection.prepare(sql: "SELECT name FROM Department WHERE id = ?")
    ///
    /// - Throws: ``DatabaseError`` if `sql` doesn't compile, or holds no statement or more than one.
    package func prepare(sql: String) throws -> Statement {
        try Statement(sql: sql, database: handle)
    }

    /// The connection's statement for `sql`, compiled on first use and kept until the connection goes.
    ///
    ///     let insert = try connection.cachedStatement(sql: "INSERT INTO Department (name) VALUES (?)")
    ///     try insert.execute(arguments: ["Sales"])
    ///
    /// Every call with the same SQL returns the same statement, reset and with its bindings cleared: don't ask for a
    /// statement again while stepping through its rows.
    ///
    /// - Complexity: O(*n*) in the length of `sql`, to look it up.
    package func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try Statement(sql: sql, database: handle, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        statementCache[sql] = statement
        return statement
    }
}
