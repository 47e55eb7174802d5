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
    /// The operating system's error number behind an I/O error (`ENOSPC`…), or 0.
    package let systemErrorNumber: Int32

    package init(
        resultCode: SQLiteResultCode,
        message: String? = nil,
        sql: String? = nil,
        arguments: [SQLiteValue]? = nil,
        path: String? = nil,
        systemErrorNumber: Int32 = 0
    ) {
        self.extendedResultCode = resultCode
        self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
        self.sql = sql
        self.arguments = arguments
        self.path = path
        self.systemErrorNumber = systemErrorNumber
    }

    /// Whether the disk (or the file system's quota) is full: SQLite's own "database or disk is full", or an I/O
    /// error the system reported as no space left, such as a shared-memory file that could not grow.
    package var isDiskFull: Bool {
        resultCode == .full || (resultCode == .ioError && systemErrorNumber == ENOSPC)
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
        self.init(
            resultCode: SQLiteResultCode(rawValue: code), message: message, sql: sql,
            systemErrorNumber: database.map(sqlite3_system_errno) ?? 0)
    }

    func with(arguments: [SQLiteValue]) -> DatabaseError {
        DatabaseError(
            resultCode: extendedResultCode, message: message, sql: sql, arguments: arguments, path: path,
            systemErrorNumber: systemErrorNumber)
    }

    package func with(path: String) -> DatabaseError {
        DatabaseError(
            resultCode: extendedResultCode, message: message, sql: sql, arguments: arguments, path: path,
            systemErrorNumber: systemErrorNumber)
    }
}
