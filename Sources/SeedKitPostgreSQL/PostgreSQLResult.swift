import CPostgreSQL

/// The rows a statement returned, in binary format, with their columns' names and types: a collection of
/// ``PostgreSQLRow`` values.
///
///     let result = try connection.query(sql: "SELECT name, budget FROM Department ORDER BY name")
///     for row in result {
///         print(try row.text(at: 0)!, try row.numeric(at: 1) ?? "no budget")
///     }
///
/// libpq holds all the rows in memory; read large tables with ``PostgreSQLConnection/copy(from:_:)`` instead.
package final class PostgreSQLResult: RandomAccessCollection {
    /// The libpq `PGresult`, cleared when the result goes.
    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        libpq.PQclear(handle)
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { Int(libpq.PQntuples(handle)) }

    package subscript(row: Int) -> Row {
        precondition(indices.contains(row), "row \(row) out of range")
        return Row(result: self, row: Int32(row))
    }

    package var columnCount: Int {
        Int(libpq.PQnfields(handle))
    }

    package func columnName(at column: Int) -> String {
        LibPQ.text(libpq.PQfname(handle, Int32(column)))
    }

    package func columnType(at column: Int) -> PostgreSQLType {
        PostgreSQLType(oid: libpq.PQftype(handle, Int32(column)))
    }

    /// The number of rows the command inserted, updated, deleted, copied or selected; 0 for other commands.
    package var affectedRowCount: Int {
        Int(LibPQ.text(libpq.PQcmdTuples(handle))) ?? 0
    }

    /// One row of a result; it keeps the result alive.
    package struct Row: PostgreSQLRow {
        let result: PostgreSQLResult
        let row: Int32

        package var columnCount: Int {
            result.columnCount
        }

        package func columnName(at column: Int) -> String {
            result.columnName(at: column)
        }

        package func columnType(at column: Int) -> PostgreSQLType {
            result.columnType(at: column)
        }

        package func withBytes<Value>(
            at column: Int,
            _ body: (UnsafeRawBufferPointer?) throws -> Value
        ) rethrows -> Value {
            precondition((0..<columnCount).contains(column), "column \(column) out of range")
            let handle = result.handle
            if libpq.PQgetisnull(handle, row, Int32(column)) != 0 { return try body(nil) }
            return try body(
                UnsafeRawBufferPointer(
                    start: libpq.PQgetvalue(handle, row, Int32(column)), count: Int(libpq.PQgetlength(handle, row, Int32(column)))))
        }
    }
}

// A result is read on its connection's thread or isolation domain.
@available(*, unavailable)
extension PostgreSQLResult: Sendable {}
