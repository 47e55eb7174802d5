import Foundation

/// Rows for a `COPY … FROM STDIN` in binary format: values are appended one by one, in column order, each row ended
/// by ``endRow()``; the rows go to the server in large chunks.
///
///     try connection.copy(into: "Employee", columns: ["id", "name", "salary", "hired"]) { writer in
///         for employee in employees {
///             try writer.append(employee.id)
///             try writer.append(employee.name)
///             try writer.append(numeric: employee.salaryText)
///             try writer.append(employee.hired)           // PostgreSQLTimestamp
///             try writer.endRow()
///         }
///     }
///
/// Each value is encoded for its column's type, which the writer read from the catalog, so a value that doesn't fit
/// the column is refused here, by row and column, before the server sees it. Such an error ends the COPY: the writer
/// throws it again on every later call, and the COPY is abandoned even if the closure catches it.
///
/// Binary format, because it is the faster one for the rows SeedKit writes (BENCHMARKS.md, postgres-copy): the server
/// parses no numbers or dates, and text needs no escaping.
package struct PostgreSQLCopyWriter {
    /// The columns, in the order values are appended.
    package let columns: [PostgreSQLColumn]
    /// The rows ended so far.
    package private(set) var rowCount = 0
    /// Encoded rows not yet sent.
    private var buffer: [UInt8] = []
    /// The column the next value fills.
    private var field = 0
    /// The error that ended the COPY, if one did.
    private(set) var failure: PostgreSQLError?
    /// Sends a chunk of rows to the server.
    private let send: ([UInt8]) throws -> Void
    /// Bytes gathered before a chunk is sent: large enough that the per-call cost vanishes, small enough to stay in
    /// cache.
    static let chunkSize = 256 * 1024

    init(columns: [PostgreSQLColumn], send: @escaping ([UInt8]) throws -> Void) {
        self.columns = columns
        self.send = send
        buffer.reserveCapacity(Self.chunkSize + Self.chunkSize / 4)
        // The signature, no flags, no header extension.
        buffer += Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]
        buffer.appendBigEndian(Int32(0))
        buffer.appendBigEndian(Int32(0))
    }

    /// Appends NULL.
    package mutating func appendNull() throws {
        _ = try nextColumn()
        buffer.appendBigEndian(Int32(-1))
    }

    /// Appends an integer to a `bigint`, `integer`, `smallint` or `numeric` column.
    ///
    /// - Throws: ``PostgreSQLError/Kind/invalidValue`` for a value out of the column's range.
    package mutating func append(_ value: Int64) throws {
        let column = try nextColumn()
        switch column.type {
        case .int8: appendField(value)
        case .int4:
            guard let narrow = Int32(exactly: value) else { throw outOfRange(value, column) }
            appendField(narrow)
        case .int2:
            guard let narrow = Int16(exactly: value) else { throw outOfRange(value, column) }
            appendField(narrow)
        case .numeric: try appendNumeric(String(value), column)
        default: throw mismatch("an integer", column)
        }
    }

    /// Appends a number to a `double precision` or `real` column.
    package mutating func append(_ value: Double) throws {
        let column = try nextColumn()
        switch column.type {
        case .float8: appendField(value.bitPattern)
        case .float4: appendField(Float(value).bitPattern)
        default: throw mismatch("a double", column)
        }
    }

    /// Appends exact decimal text (`-12.50`, `1.5E+3`, `NaN`) to a `numeric` column, keeping its scale.
    ///
    /// - Throws: ``PostgreSQLError/Kind/invalidValue`` for text that isn't a decimal number.
    package mutating func append(numeric text: String) throws {
        let column = try nextColumn()
        guard column.type == .numeric else { throw mismatch("a numeric", column) }
        try appendNumeric(text, column)
    }

    /// Appends a Boolean to a `boolean` column.
    package mutating func append(_ value: Bool) throws {
        let column = try nextColumn()
        guard column.type == .bool else { throw mismatch("a Boolean", column) }
        buffer.appendBigEndian(Int32(1))
        buffer.append(value ? 1 : 0)
    }

    /// Appends text to a `text`, `varchar`, `char(n)`, `name`, `json` or `jsonb` column.
    ///
    /// - Throws: ``PostgreSQLError/Kind/invalidValue`` for text holding U+0000, which PostgreSQL can't store.
    package mutating func append(_ text: String) throws {
        let column = try nextColumn()
        guard column.type.isTextual || column.type == .jsonb else { throw mismatch("text", column) }
        let lengthOffset = buffer.count
        buffer.appendBigEndian(Int32(0))
        let start = buffer.count
        if column.type == .jsonb { buffer.append(1) }
        var text = text
        let hasNUL = text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return false }
            buffer.append(contentsOf: utf8)
            return memchr(base, 0, utf8.count) != nil
        }
        if hasNUL {
            throw fail(.invalidValue, column, ": the text contains U+0000, which PostgreSQL text can't hold")
        }
        buffer.setBigEndian(Int32(buffer.count - start), at: lengthOffset)
    }

    /// Appends bytes to a `bytea` column.
    package mutating func append(bytes: some Collection<UInt8>) throws {
        let column = try nextColumn()
        guard column.type == .bytea else { throw mismatch("bytes", column) }
        buffer.appendBigEndian(Int32(bytes.count))
        buffer += bytes
    }

    /// Appends a point in time to a `timestamp with time zone` or `timestamp` (taken as UTC) column.
    package mutating func append(_ value: PostgreSQLTimestamp) throws {
        let column = try nextColumn()
        guard column.type == .timestamptz || column.type == .timestamp else { throw mismatch("a timestamp", column) }
        appendField(value.microsecondsSince1970 &- PostgreSQLTimestamp.postgresEpochOffset)
    }

    /// Appends a UUID to a `uuid` column.
    package mutating func append(_ value: UUID) throws {
        let column = try nextColumn()
        guard column.type == .uuid else { throw mismatch("a UUID", column) }
        buffer.appendBigEndian(Int32(16))
        withUnsafeBytes(of: value.uuid) { buffer += $0 }
    }

    /// Appends a value of any case, as the method for its type does.
    package mutating func append(_ value: PostgreSQLValue) throws {
        switch value {
        case .null: try appendNull()
        case .bool(let flag): try append(flag)
        case .integer(let integer): try append(integer)
        case .double(let double): try append(double)
        case .numeric(let text): try append(numeric: text)
        case .text(let text): try append(text)
        case .bytes(let bytes): try append(bytes: bytes)
        case .timestamp(let timestamp): try append(timestamp)
        case .uuid(let uuid): try append(uuid)
        }
    }

    /// Ends the row, which must have a value for every column; sends the rows gathered so far when they fill a
    /// chunk.
    package mutating func endRow() throws {
        if let failure { throw failure }
        guard field == columns.count else {
            let names = columns.map(\.name).joined(separator: ", ")
            throw fail(.misuse, nil, " has \(field) values; the COPY has \(columns.count) columns (\(names))")
        }
        field = 0
        rowCount += 1
        if buffer.count >= Self.chunkSize {
            try send(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Sends the rest with the trailer.
    mutating func finish() throws {
        if let failure { throw failure }
        guard field == 0 else {
            throw fail(.misuse, nil, " was not ended: call endRow() after its last value")
        }
        buffer.appendBigEndian(Int16(-1))
        try send(buffer)
        buffer.removeAll()
    }

    /// The column the next value fills, writing the row's field count first when it starts a row.
    private mutating func nextColumn() throws -> PostgreSQLColumn {
        if let failure { throw failure }
        guard field < columns.count else {
            throw fail(
                .misuse, nil, " has more values than the COPY's \(columns.count) columns; end each row with endRow()")
        }
        if field == 0 { buffer.appendBigEndian(Int16(columns.count)) }
        defer { field += 1 }
        return columns[field]
    }

    /// Appends a fixed-size field: its length, then its bytes.
    @inline(__always)
    private mutating func appendField<Integer: FixedWidthInteger>(_ value: Integer) {
        buffer.appendBigEndian(Int32(MemoryLayout<Integer>.size))
        buffer.appendBigEndian(value)
    }

    private mutating func appendNumeric(_ text: String, _ column: PostgreSQLColumn) throws {
        let lengthOffset = buffer.count
        buffer.appendBigEndian(Int32(0))
        guard PostgreSQLNumeric.append(text: text, to: &buffer) else {
            throw fail(.invalidValue, column, ": \"\(PostgreSQLError.singleLine(text))\" is not a decimal number")
        }
        buffer.setBigEndian(Int32(buffer.count - lengthOffset - 4), at: lengthOffset)
    }

    private mutating func mismatch(_ value: String, _ column: PostgreSQLColumn) -> PostgreSQLError {
        fail(.misuse, column, " is \(column.type); it can't take \(value)")
    }

    private mutating func outOfRange(_ value: Int64, _ column: PostgreSQLColumn) -> PostgreSQLError {
        fail(.invalidValue, column, ": \(value) is out of range for \(column.type)")
    }

    /// Records the error that ends the COPY: `row 2, column "name"` followed by `rest`.
    private mutating func fail(_ kind: PostgreSQLError.Kind, _ column: PostgreSQLColumn?, _ rest: String) -> PostgreSQLError {
        let place = "row \(rowCount + 1)" + (column.map { ", column \"\($0.name)\"" } ?? "")
        let error = PostgreSQLError(kind: kind, message: place + rest)
        failure = error
        return error
    }
}
