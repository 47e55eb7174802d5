import CSQLite
import Foundation

/// An error reported by SQLite, with the context that produced it.
///
/// The description reads like a log line:
///
///     SQLite error 19: UNIQUE constraint failed: Department.name - while executing "INSERT INTO Department (name) VALUES (?)" with arguments ['Sales']
///
/// Errors thrown while opening a database carry its ``path``.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, such as ``SQLiteResultCode/constraintUnique``.
    public let extendedResultCode: SQLiteResultCode
    /// SQLite's message, such as `UNIQUE constraint failed: Department.name`.
    public let message: String
    /// The SQL that failed, if the error came from a statement.
    public let sql: String?
    /// The arguments the failing statement ran with, when they were given to ``Statement/execute(arguments:)``.
    package let arguments: [SQLiteValue]?
    /// The database file, for errors thrown while opening it.
    public let path: String?

    package init(
        resultCode: SQLiteResultCode,
        message: String? = nil,
        sql: String? = nil,
        arguments: [SQLiteValue]? = nil,
        path: String? = nil
    ) {
        self.extendedResultCode = resultCode
        self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
        self.sql = sql
        self.arguments = arguments
        self.path = path
    }

    /// The primary result code, such as ``SQLiteResultCode/constraint``.
    public var resultCode: SQLiteResultCode {
        extendedResultCode.primary
    }

    public var description: String {
        var description = "SQLite error \(resultCode.rawValue): \(message)"
        if let sql {
            description += " - while executing \"\(sql)\""
        }
        if let arguments {
            description += " with arguments [\(arguments.map(\.description).joined(separator: ", "))]"
        }
        if let path {
            description += " - while opening \"\(path)\""
        }
        return description
    }
}

extension DatabaseError {
    /// The error SQLite last recorded on `database` for a call that returned `code`.
    ///
    /// Must be called right after the failing call: the next call on the connection replaces the message.
    init(code: Int32, database: OpaquePointer?, sql: String? = nil) {
        let message = database.map { String(cString: sqlite3_errmsg($0)) }
        self.init(resultCode: SQLiteResultCode(rawValue: code), message: message, sql: sql)
    }

    func with(arguments: [SQLiteValue]) -> DatabaseError {
        DatabaseError(resultCode: extendedResultCode, message: message, sql: sql, arguments: arguments, path: path)
    }

    package func with(path: String) -> DatabaseError {
        DatabaseError(resultCode: extendedResultCode, message: message, sql: sql, arguments: arguments, path: path)
    }
}
