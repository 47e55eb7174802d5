import Foundation

/// A value sent to PostgreSQL as a statement argument, or read back from a column by ``PostgreSQLRow/value(at:)``.
///
///     try connection.execute(
///         sql: "INSERT INTO Department (name, budget, founded) VALUES ($1, $2, $3)",
///         arguments: ["Sales", .numeric("1250000.50"), .timestamp(PostgreSQLTimestamp(seconds: 1_709_285_400))])
///
/// Each case has the PostgreSQL type it is sent as (``type``). Text is sent untyped, as a quoted literal would be:
/// the server reads it as whatever type the statement needs there (a `uuid`, a `json`, a `date`, …).
package enum PostgreSQLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A `bigint`; read from `smallint`, `integer` and `bigint` columns.
    case integer(Int64)
    /// A `double precision`; read from `real` and `double precision` columns.
    case double(Double)
    /// An exact decimal as text, `-12.50`, `NaN`: a `numeric`, never converted through a floating-point number.
    case numeric(String)
    /// UTF-8 text. PostgreSQL refuses U+0000 in text.
    case text(String)
    /// A `bytea`.
    case bytes([UInt8])
    /// A `timestamp with time zone`.
    case timestamp(PostgreSQLTimestamp)
    case uuid(UUID)

    /// The type the value is sent as; ``PostgreSQLType/unspecified`` for text and NULL, which take the type the
    /// statement gives them.
    package var type: PostgreSQLType {
        switch self {
        case .null, .text: .unspecified
        case .bool: .bool
        case .integer: .int8
        case .double: .float8
        case .numeric: .numeric
        case .bytes: .bytea
        case .timestamp: .timestamptz
        case .uuid: .uuid
        }
    }
}

extension PostgreSQLValue: CustomStringConvertible {
    /// The value as an SQL literal, for messages: `NULL`, `42`, `'O''Brien'`, `'\xcafe'::bytea`.
    ///
    /// Bytes past the first 32 show as their count.
    package var description: String {
        switch self {
        case .null: return "NULL"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .numeric(let value): return value
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .bytes(let bytes):
            let hex = Self.hex(bytes.prefix(32))
            return bytes.count > 32 ? "'\\x\(hex)…'::bytea (\(bytes.count) bytes)" : "'\\x\(hex)'::bytea"
        case .timestamp(let value): return "'\(value)'::timestamptz"
        case .uuid(let value): return "'\(value.uuidString.lowercased())'::uuid"
        }
    }
}

extension PostgreSQLValue {
    /// Two lowercase hexadecimal digits a byte, as `bytea` prints: `cafe`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in byte < 0x10 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
    }
}

extension PostgreSQLValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    package init(nilLiteral: ()) {
        self = .null
    }

    package init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    package init(integerLiteral value: Int64) {
        self = .integer(value)
    }

    package init(floatLiteral value: Double) {
        self = .double(value)
    }

    package init(stringLiteral value: String) {
        self = .text(value)
    }
}
