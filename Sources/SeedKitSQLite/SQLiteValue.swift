import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
///     try statement.execute(arguments: [1, "Sales", nil, .blob([0xCA, 0xFE])])
///
/// See <https://www.sqlite.org/datatype3.html>.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    /// UTF-8 text; it may hold U+0000, which SQLite keeps because values are bound with their length.
    case text(String)
    /// Bytes; an empty blob is not NULL.
    case blob([UInt8])
}

extension SQLiteValue: CustomStringConvertible {
    /// The value as an SQL literal, for error messages: `NULL`, `42`, `1.5`, `'O''Brien'`, `X'CAFE'`.
    ///
    /// Blobs longer than 32 bytes show their first 32 bytes and their length.
    package var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let value):
            return String(value)
        case .real(let value):
            return String(value)
        case .text(let value):
            return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            let hex = bytes.prefix(32).map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return byte < 0x10 ? "0" + digits : digits
            }.joined()
            return bytes.count > 32 ? "X'\(hex)…' (\(bytes.count) bytes)" : "X'\(hex)'"
        }
    }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    package init(nilLiteral: ()) {
        self = .null
    }

    package init(integerLiteral value: Int64) {
        self = .integer(value)
    }

    package init(floatLiteral value: Double) {
        self = .real(value)
    }

    package init(stringLiteral value: String) {
        self = .text(value)
    }
}
