import CPostgreSQL

extension PostgreSQLConnection {
    /// Loads rows into `table` with `COPY … FROM STDIN` in binary format: `body` appends them to a writer that sends
    /// them in large chunks.
    ///
    ///     let count = try connection.copy(into: "Department", columns: ["id", "name"]) { writer in
    ///         for (id, name) in departments {
    ///             try writer.append(id)
    ///             try writer.append(name)
    ///             try writer.endRow()
    ///         }
    ///     }
    ///
    /// The column types come from the catalog first, so that the writer encodes each value for its column. The
    /// rows are checked by the server as they arrive, but a refusal (a duplicate key, say) is only reported once
    /// all are sent. When `body` throws, the COPY is abandoned and no row of it is kept. Outside a transaction the
    /// COPY is a transaction of its own, so a failure leaves the table as it was; inside one, a failure aborts the
    /// transaction, as any failed statement does (``inSavepoint(_:)`` lets it go on).
    ///
    /// - Parameters:
    ///   - table: The table's name, unquoted: `Department`.
    ///   - columns: The columns `body` fills, in order; all of the table's, in order, when empty.
    /// - Returns: The number of rows loaded.
    /// - Throws: The error `body` threw, or ``PostgreSQLError``: ``PostgreSQLError/Kind/undefinedTable`` or
    ///   ``PostgreSQLError/Kind/undefinedColumn`` for a table or column that doesn't exist, the writer's errors for
    ///   values that don't fit, the server's for rows it refuses.
    @discardableResult
    package func copy(
        into table: String,
        columns: [String] = [],
        _ body: (inout PostgreSQLCopyWriter) throws -> Void
    ) throws -> Int {
        let copyColumns = try self.columns(of: table, named: columns)
        let sql = "COPY \(Self.quoted(table)) (\(copyColumns.map { Self.quoted($0.name) }.joined(separator: ", "))) "
            + "FROM STDIN (FORMAT binary)"
        _ = try check(libpq.PQexec(handle, sql), statement: sql)
        var writer = PostgreSQLCopyWriter(columns: copyColumns) { [handle] chunk in
            let sent = chunk.withUnsafeBytes { bytes in
                libpq.PQputCopyData(handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
            }
            guard sent == 1 else { throw PostgreSQLError(result: nil, connection: handle, statement: sql) }
        }
        do {
            try body(&writer)
            if let failure = writer.failure { throw failure }
            try writer.finish()
        } catch {
            // The message makes the server fail the COPY, which undoes it; its error is not the one to report.
            _ = libpq.PQputCopyEnd(handle, "abandoned by the client: \(error)")
            _ = try? finalResult(statement: sql)
            throw error
        }
        guard libpq.PQputCopyEnd(handle, nil) == 1 else {
            throw PostgreSQLError(result: nil, connection: handle, statement: sql)
        }
        return try finalResult(statement: sql).affectedRowCount
    }

    /// Reads the rows of `query` with `COPY (query) TO STDOUT` in binary format, one at a time, without holding
    /// them all in memory.
    ///
    ///     try connection.copy(from: "SELECT id, name, budget FROM Department ORDER BY name") { row in
    ///         departments.append((try row.int64(at: 0)!, try row.text(at: 1)!, try row.numeric(at: 2)))
    ///     }
    ///
    /// The query is described first, for its columns' names and types. A row is valid only during its call of
    /// `body`. When `body` throws, the remaining rows are read and dropped, leaving the connection ready for the
    /// next statement.
    ///
    /// - Parameter query: A `SELECT` (or `VALUES`, or `TABLE name`) without parameters.
    /// - Returns: The number of rows read.
    @discardableResult
    package func copy(from query: String, _ body: (PostgreSQLCopyRow) throws -> Void) throws -> Int {
        var query = Substring(query)
        while let last = query.last, last == ";" || last.isWhitespace { query.removeLast() }
        _ = try check(libpq.PQprepare(handle, "", String(query), 0, nil), statement: String(query))
        let description = try check(libpq.PQdescribePrepared(handle, ""), statement: String(query))
        let columns = (0..<description.columnCount).map {
            PostgreSQLColumn(name: description.columnName(at: $0), type: description.columnType(at: $0))
        }
        let sql = "COPY (\(query)) TO STDOUT (FORMAT binary)"
        _ = try check(libpq.PQexec(handle, sql), statement: sql)
        var reader = PostgreSQLCopyReader(columns: columns)
        var failure: (any Error)?
        while true {
            var chunk: UnsafeMutablePointer<CChar>?
            let length = libpq.PQgetCopyData(handle, &chunk, 0)
            guard length > 0, let chunk else { break }
            defer { libpq.PQfreemem(chunk) }
            if failure != nil { continue }
            do {
                try reader.read(UnsafeRawBufferPointer(start: chunk, count: Int(length)), body)
            } catch {
                failure = error
            }
        }
        let result = try finalResult(statement: sql)
        if let failure { throw failure }
        return result.affectedRowCount
    }

    /// The result of the COPY that just ended, after reading every result up to the end of the command.
    private func finalResult(statement: String) throws -> PostgreSQLResult {
        let first = libpq.PQgetResult(handle)
        while let next = libpq.PQgetResult(handle) { libpq.PQclear(next) }
        return try check(first, statement: statement)
    }

    /// The names and types of `table`'s `columns` (all of them when empty), a domain's as its base type's.
    private func columns(of table: String, named names: [String]) throws -> [PostgreSQLColumn] {
        let catalog = try cachedStatement(sql: """
            SELECT a.attname, CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE a.atttypid END
            FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
            WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """)
        let tableColumns = try catalog.query(arguments: [.text(Self.quoted(table))]).map { row in
            PostgreSQLColumn(
                name: try row.text(at: 0)!, type: PostgreSQLType(oid: UInt32(try row.int64(at: 1)!)))
        }
        if names.isEmpty { return tableColumns }
        return try names.map { name in
            guard let column = tableColumns.first(where: { $0.name == name }) else {
                throw PostgreSQLError(
                    kind: .undefinedColumn, message: "column \"\(name)\" of relation \"\(table)\" does not exist")
            }
            return column
        }
    }

    /// `name` as an SQL identifier: between double quotes, inner double quotes doubled.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
