import Foundation

/// A row of binary-format values, from a query result or a `COPY … TO STDOUT`: typed accessors by column, counted
/// from 0.
///
///     let id = try row.int64(at: 0)          // Int64?, nil for NULL
///     let budget = try row.numeric(at: 1)    // exact decimal text, "1250000.50"
///
/// Each accessor reads the column types it names and throws ``PostgreSQLError/Kind/misuse`` for others, naming the
/// column and its type: cast in SQL (`created::text`) to read a type no accessor reads.
package protocol PostgreSQLRow {
    var columnCount: Int { get }
    func columnName(at column: Int) -> String
    func columnType(at column: Int) -> PostgreSQLType
    /// Calls `body` with the value's bytes in binary format, or nil for NULL, valid during the call.
    func withBytes<Value>(at column: Int, _ body: (UnsafeRawBufferPointer?) throws -> Value) rethrows -> Value
}

extension PostgreSQLRow {
    package func isNull(at column: Int) -> Bool {
        withBytes(at: column) { $0 == nil }
    }

    /// A `boolean`.
    package func bool(at column: Int) throws -> Bool? {
        try decode(at: column, "bool(at:)", [.bool], size: 1) { $0[0] != 0 }
    }

    /// A `smallint`, `integer`, `bigint` or `oid`.
    package func int64(at column: Int) throws -> Int64? {
        func integer<Integer: FixedWidthInteger>(_ type: PostgreSQLType, _: Integer.Type) throws -> Int64? {
            try decode(at: column, "int64(at:)", [type], size: MemoryLayout<Integer>.size) {
                Int64($0.bigEndianInteger(at: 0, as: Integer.self))
            }
        }
        switch columnType(at: column) {
        case .int2: return try integer(.int2, Int16.self)
        case .int4: return try integer(.int4, Int32.self)
        case .oidType: return try integer(.oidType, UInt32.self)
        default: return try integer(.int8, Int64.self)
        }
    }

    /// A `double precision` or `real`.
    package func double(at column: Int) throws -> Double? {
        if columnType(at: column) == .float4 {
            return try decode(at: column, "double(at:)", [.float4], size: 4) {
                Double(Float(bitPattern: $0.bigEndianInteger(at: 0, as: UInt32.self)))
            }
        }
        return try decode(at: column, "double(at:)", [.float8], size: 8) {
            Double(bitPattern: $0.bigEndianInteger(at: 0, as: UInt64.self))
        }
    }

    /// A `numeric`, as exact decimal text with its scale, as PostgreSQL prints it: `1250000.50`, `NaN`.
    package func numeric(at column: Int) throws -> String? {
        try decode(at: column, "numeric(at:)", [.numeric]) { bytes in
            guard let text = PostgreSQLNumeric.text(from: bytes) else { throw malformed(column) }
            return text
        }
    }

    /// Text: `text`, `varchar`, `char(n)`, `name`, `json` or `jsonb`.
    package func text(at column: Int) throws -> String? {
        let type = columnType(at: column)
        if type == .jsonb {
            // jsonb's binary form is a version byte, 1, then the text.
            return try decode(at: column, "text(at:)", [.jsonb]) { bytes in
                guard bytes.first == 1 else { throw malformed(column) }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
            }
        }
        return try decode(at: column, "text(at:)", type.isTextual ? [type] : [.text]) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// A `bytea`.
    package func bytes(at column: Int) throws -> [UInt8]? {
        try decode(at: column, "bytes(at:)", [.bytea]) { Array($0) }
    }

    /// A `timestamp with time zone`, or a `timestamp without time zone` taken as UTC.
    ///
    /// - Throws: ``PostgreSQLError/Kind/invalidValue`` for `infinity` and `-infinity`.
    package func timestamp(at column: Int) throws -> PostgreSQLTimestamp? {
        try decode(at: column, "timestamp(at:)", [.timestamptz, .timestamp], size: 8) { bytes in
            let microseconds = bytes.bigEndianInteger(at: 0, as: Int64.self)
            guard microseconds != .max && microseconds != .min else {
                throw PostgreSQLError(
                    kind: .invalidValue, message: "column \(describe(column)) holds an infinite timestamp")
            }
            return PostgreSQLTimestamp(microsecondsSince1970: microseconds + PostgreSQLTimestamp.postgresEpochOffset)
        }
    }

    /// A `uuid`.
    package func uuid(at column: Int) throws -> UUID? {
        try decode(at: column, "uuid(at:)", [.uuid], size: 16) { bytes in
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
            return UUID(uuid: uuid)
        }
    }

    /// The value of any column an accessor reads, as the ``PostgreSQLValue`` case of its type.
    package func value(at column: Int) throws -> PostgreSQLValue {
        if isNull(at: column) { return .null }
        let type = columnType(at: column)
        switch type {
        case .bool: return .bool(try bool(at: column)!)
        case .int2, .int4, .int8, .oidType: return .integer(try int64(at: column)!)
        case .float4, .float8: return .double(try double(at: column)!)
        case .numeric: return .numeric(try numeric(at: column)!)
        case .bytea: return .bytes(try bytes(at: column)!)
        case .timestamp, .timestamptz: return .timestamp(try timestamp(at: column)!)
        case .uuid: return .uuid(try uuid(at: column)!)
        case .jsonb: return .text(try text(at: column)!)
        case _ where type.isTextual: return .text(try text(at: column)!)
        default: throw unreadable(column, "value(at:)")
        }
    }

    /// Decodes the value at `column` with `body` after checking its type is one of `types` and, for fixed-size
    /// types, its length.
    private func decode<Value>(
        at column: Int,
        _ accessor: String,
        _ types: [PostgreSQLType],
        size: Int? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> Value
    ) throws -> Value? {
        guard types.contains(columnType(at: column)) else { throw unreadable(column, accessor) }
        return try withBytes(at: column) { bytes in
            guard let bytes else { return nil }
            if let size, bytes.count != size { throw malformed(column) }
            return try body(bytes)
        }
    }

    private func describe(_ column: Int) -> String {
        "\(column) (\"\(columnName(at: column))\")"
    }

    private func unreadable(_ column: Int, _ accessor: String) -> PostgreSQLError {
        PostgreSQLError(
            kind: .misuse,
            message: "column \(describe(column)) is \(columnType(at: column)), which \(accessor) doesn't read; cast it "
                + "in the query (\(columnName(at: column))::text) or use the accessor for its type")
    }

    private func malformed(_ column: Int) -> PostgreSQLError {
        PostgreSQLError(
            kind: .other, message: "column \(describe(column)) holds a malformed binary \(columnType(at: column))")
    }
}
