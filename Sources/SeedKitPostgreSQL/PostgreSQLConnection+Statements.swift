import CPostgreSQL

extension PostgreSQLConnection {
    /// Runs an SQL script: every statement in `sql`, in order, in one round trip (the simple query protocol).
    ///
    ///     try connection.execute(sql: """
    ///         CREATE TABLE Department (id bigint PRIMARY KEY, name text NOT NULL UNIQUE);
    ///         CREATE TABLE Employee (id bigint PRIMARY KEY, department bigint REFERENCES Department (id));
    ///         """)
    ///
    /// Outside a transaction the script runs as one: a failing statement undoes the ones before it. Rows the script
    /// returns are ignored.
    ///
    /// - Throws: ``PostgreSQLError`` carrying `sql`.
    package func execute(sql: String) throws {
        try checkHasNoNUL(sql)
        _ = try check(libpq.PQexec(handle, sql), statement: sql)
    }

    /// Runs the single statement in `sql` with `arguments` for its parameters `$1`, `$2`, …
    ///
    ///     try connection.execute(sql: "UPDATE Department SET name = $1 WHERE id = $2", arguments: ["Sales", 1])
    ///
    /// The statement is parsed for this call only; use ``cachedStatement(sql:)`` for SQL that runs often.
    ///
    /// - Returns: The number of rows the statement inserted, updated, deleted, copied or selected.
    @discardableResult
    package func execute(sql: String, arguments: [PostgreSQLValue]) throws -> Int {
        try query(sql: sql, arguments: arguments).affectedRowCount
    }

    /// Runs the single statement in `sql` with `arguments` and returns its rows.
    ///
    ///     for row in try connection.query(sql: "SELECT id, name FROM Department WHERE id > $1", arguments: [10]) {
    ///         print(try row.int64(at: 0)!, try row.text(at: 1)!)
    ///     }
    ///
    /// - Throws: ``PostgreSQLError`` carrying `sql`.
    package func query(sql: String, arguments: [PostgreSQLValue] = []) throws -> PostgreSQLResult {
        try checkHasNoNUL(sql)
        let layout = try PostgreSQLArguments(arguments, parameterTypes: nil, sql: sql)
        let result = layout.withUnsafeArrays { count, types, values, lengths, formats in
            libpq.PQexecParams(handle, sql, count, types, values, lengths, formats, 1)
        }
        return try check(result, statement: sql)
    }

    /// The connection's prepared statement for `sql`, prepared on the server on first use and kept for the session.
    ///
    ///     let insert = try connection.cachedStatement(sql: "INSERT INTO Department (id, name) VALUES ($1, $2)")
    ///     for (id, name) in departments {
    ///         try insert.execute(arguments: [.integer(id), .text(name)])
    ///     }
    ///
    /// The server infers the parameters' types from the SQL, as for literals; arguments of those types go in binary.
    /// A statement whose result columns changed under it (`ALTER TABLE`) fails once with `cached plan must not
    /// change result type` and is prepared again on the next call.
    ///
    /// - Complexity: O(*n*) in the length of `sql` to look it up; the first call costs two round trips.
    package func cachedStatement(sql: String) throws -> PostgreSQLStatement {
        if let prepared = statementCache[sql] {
            return PostgreSQLStatement(connection: self, prepared: prepared)
        }
        try checkHasNoNUL(sql)
        preparedStatementCount += 1
        let name = "seedkit_\(preparedStatementCount)"
        _ = try check(libpq.PQprepare(handle, name, sql, 0, nil), statement: sql)
        let description = try check(libpq.PQdescribePrepared(handle, name), statement: sql)
        let prepared = PreparedStatement(
            name: name, sql: sql,
            parameterTypes: (0..<libpq.PQnparams(description.handle)).map {
                PostgreSQLType(oid: libpq.PQparamtype(description.handle, $0))
            })
        statementCache[sql] = prepared
        return PostgreSQLStatement(connection: self, prepared: prepared)
    }

    /// Takes `result` over: returns it when its command succeeded, else clears it and throws its error.
    func check(_ result: OpaquePointer?, statement: String?) throws -> PostgreSQLResult {
        guard let result else {
            throw PostgreSQLError(result: nil, connection: handle, statement: statement)
        }
        let owned = PostgreSQLResult(handle: result)
        switch libpq.PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT:
            return owned
        default:
            throw PostgreSQLError(result: result, connection: handle, statement: statement)
        }
    }

    /// libpq takes SQL as a C string: a U+0000 would cut it short.
    private func checkHasNoNUL(_ sql: String) throws {
        if sql.utf8.contains(0) {
            throw PostgreSQLError(kind: .misuse, message: "SQL can't contain U+0000", statement: sql)
        }
    }
}

/// A statement prepared on the server: its name there, and the parameter types the server inferred.
struct PreparedStatement {
    let name: String
    let sql: String
    let parameterTypes: [PostgreSQLType]
}

/// A statement the connection prepared once and runs by name: see ``PostgreSQLConnection/cachedStatement(sql:)``.
///
/// Like its connection, a statement stays on one thread or isolation domain at a time.
package struct PostgreSQLStatement {
    package let connection: PostgreSQLConnection
    let prepared: PreparedStatement

    package var sql: String {
        prepared.sql
    }

    /// The types of `$1`, `$2`, …, as the server inferred them from the SQL.
    package var parameterTypes: [PostgreSQLType] {
        prepared.parameterTypes
    }

    /// Runs the statement with `arguments`.
    ///
    /// - Returns: The number of rows the statement inserted, updated, deleted or selected.
    @discardableResult
    package func execute(arguments: [PostgreSQLValue] = []) throws -> Int {
        try query(arguments: arguments).affectedRowCount
    }

    /// Runs the statement with `arguments` and returns its rows.
    ///
    /// - Throws: ``PostgreSQLError`` carrying the SQL; of kind ``PostgreSQLError/Kind/misuse`` when the number of
    ///   arguments isn't the number of parameters.
    package func query(arguments: [PostgreSQLValue] = []) throws -> PostgreSQLResult {
        let layout = try PostgreSQLArguments(arguments, parameterTypes: prepared.parameterTypes, sql: prepared.sql)
        let result = layout.withUnsafeArrays { count, _, values, lengths, formats in
            libpq.PQexecPrepared(connection.handle, prepared.name, count, values, lengths, formats, 1)
        }
        do {
            return try connection.check(result, statement: prepared.sql)
        } catch let error as PostgreSQLError where error.sqlState == "0A000" {
            // "cached plan must not change result type": the server keeps the old plan; prepare anew next time.
            connection.statementCache[prepared.sql] = nil
            throw error
        }
    }
}

// A statement is bound to its connection's thread or isolation domain, like the connection itself.
@available(*, unavailable)
extension PostgreSQLStatement: Sendable {}
