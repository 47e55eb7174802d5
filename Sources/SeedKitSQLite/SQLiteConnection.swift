import CSQLite
import Foundation

/// A connection to an SQLite database, under ``SQLiteStore``. Outside SeedKit's package only its ``Configuration``
/// is public, set through ``SQLiteStore/Options/connection``.
public final class SQLiteConnection {
    //     let connection = try SQLiteConnection(path: "seed.sqlite")
    //     try connection.execute(sql: "CREATE TABLE Department (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    //     try connection.inTransaction {
    //         try connection.execute(sql: "INSERT INTO Department (name) VALUES (?)", arguments: ["Sales"])
    //     }
    //
    // A connection is confined to one thread or isolation domain at a time, and so are its statements: it is not
    // `Sendable`, and SQLite is opened without its own locking (`SQLITE_OPEN_NOMUTEX`). Use one connection per thread;
    // several connections to one file see each other's committed transactions.
    //
    // The database closes when the connection is deinitialized.

    /// The path the connection was opened with, or `:memory:`.
    package let path: String
    package let configuration: Configuration
    /// The `sqlite3` connection.
    let handle: OpaquePointer
    /// Statements returned by `cachedStatement(sql:)`, keyed by their SQL.
    var statementCache: [String: Statement] = [:]

    /// Opens the database at `path`, or a private in-memory database for `:memory:`.
    ///
    /// The file is checked to be an SQLite database before anything is written to it: a file that is not one, or is
    /// truncated, makes this initializer throw and stays as it was.
    ///
    /// - Throws: ``DatabaseError`` carrying `path`: ``SQLiteResultCode/cantOpen`` for a missing file or directory, or a
    ///   new file in a directory that can't be written; ``SQLiteResultCode/notADatabase`` or
    ///   ``SQLiteResultCode/corrupt`` for a file that isn't a sound database; ``SQLiteResultCode/readOnly`` when
    ///   ``Configuration/openMode`` asks to write and the file, or its directory (WAL keeps files beside the
    ///   database), can't be written.
    ///
    /// A read-only connection reads a WAL database in a directory it can't write, where SQLite cannot make the
    /// shared-memory file beside it: when there is no write-ahead log beside the file either, it is opened as
    /// immutable (no transaction is under way; one that begins meanwhile is not seen, and must not be relied on).
    package init(path: String, configuration: Configuration = Configuration()) throws {
        do {
            handle = try Self.open(path, flags: configuration.openMode.flags, configuration: configuration)
        } catch let error as DatabaseError
            where configuration.openMode == .readOnly && error.resultCode.primary == .readOnly
            && access(path + "-wal", F_OK) != 0
        {
            handle = try Self.open(
                Self.immutableURI(path), flags: configuration.openMode.flags | SQLITE_OPEN_URI, configuration: configuration,
                reportedPath: path)
        }
        self.path = path
        self.configuration = configuration
    }

    private static func open(
        _ name: String, flags: Int32, configuration: Configuration, reportedPath: String? = nil
    ) throws -> OpaquePointer {
        let path = reportedPath ?? name
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let error = Self.openError(code: code, database: handle, path: path)
            // A failed open may still allocate a connection, which must be closed.
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        // Before validation, which takes a lock another connection may hold.
        Self.setBusyTimeout(handle, configuration.busyTimeout)
        do {
            do {
                // A database in memory, or a private temporary one, has no file to check yet.
                if !String(cString: sqlite3_db_filename(handle, "main")).isEmpty { try Self.validate(handle) }
            } catch let error as DatabaseError where error.resultCode.primary == .readOnly {
                // SQLite could not make its shared-memory file: "attempt to write a readonly database" says too little.
                throw DatabaseError(
                    resultCode: error.resultCode,
                    message: "the database's directory can't be written, where SQLite keeps its write-ahead log")
            }
            try Self.configure(handle, with: configuration)
        } catch {
            sqlite3_close_v2(handle)
            throw (error as? DatabaseError)?.with(path: path) ?? error
        }
        return handle
    }

    /// `path` as a URI naming an immutable file: `file:/a%3Fb.sqlite?immutable=1`.
    private static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"): uri += "%" + String(byte, radix: 16, uppercase: true)
            default: uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return uri + "?immutable=1"
    }

    /// Opens a private, empty in-memory database.
    package static func inMemory(configuration: Configuration = Configuration()) throws -> SQLiteConnection {
        try SQLiteConnection(path: ":memory:", configuration: configuration)
    }

    deinit {
        // Finalize cached statements first; statements still held elsewhere keep the closed connection's memory
        // alive until they go (that is what sqlite3_close_v2 is for).
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The rowid of the last row inserted by this connection, or 0.
    package var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the last completed `INSERT`, `UPDATE` or `DELETE` of this connection.
    package var changesCount: Int {
        Int(sqlite3_changes64(handle))
    }

    /// Whether a transaction is open: SQLite is not in autocommit mode.
    package var isInsideTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// Whether the database was opened read-only, by ``OpenMode/readOnly`` or because it can't be written.
    package var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// The error for a failed `sqlite3_open_v2`, with the operating system's reason when SQLite recorded one.
    private static func openError(code: Int32, database: OpaquePointer?, path: String) -> DatabaseError {
        var message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let systemError = database.map(sqlite3_system_errno) ?? 0
        if systemError != 0 { message += " (\(String(cString: strerror(systemError))))" }
        return DatabaseError(
            resultCode: SQLiteResultCode(rawValue: code), message: message, path: path, systemErrorNumber: systemError)
    }

    private static func setBusyTimeout(_ database: OpaquePointer, _ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(database, Int32(clamping: milliseconds))
    }

    /// Reads the schema, which makes SQLite read and check the file's header: sqlite3_open_v2 itself reads nothing.
    private static func validate(_ database: OpaquePointer) throws {
        try Statement(sql: "SELECT count(*) FROM sqlite_master", database: database).execute()
    }

    /// Applies `configuration`. Runs after `validate`, because enabling WAL writes to the file.
    private static func configure(_ database: OpaquePointer, with configuration: Configuration) throws {
        let isInMemory = String(cString: sqlite3_db_filename(database, "main")).isEmpty
        if configuration.openMode != .readOnly && !isInMemory && sqlite3_db_readonly(database, "main") == 1 {
            // SQLite falls back to read-only when the file can't be written; say so now rather than at the first write.
            throw DatabaseError(
                resultCode: .readOnly,
                message: "the database file can't be written; open it with openMode .readOnly to read it")
        }
        if configuration.foreignKeysEnabled {
            try Statement(sql: "PRAGMA foreign_keys = ON", database: database).execute()
        }
        if configuration.usesWriteAheadLog && configuration.openMode != .readOnly && !isInMemory {
            try enableWriteAheadLog(database, waitingUpTo: configuration.busyTimeout)
            try Statement(sql: "PRAGMA synchronous = NORMAL", database: database).execute()
        }
    }

    /// Switches the database file to write-ahead logging with `synchronous = NORMAL`, as
    /// ``Configuration/usesWriteAheadLog`` does when opening: for a caller that first checks what the file holds, so
    /// that a file it must not change keeps its journal mode. In-memory and read-only databases keep their mode.
    package func enableWriteAheadLog() throws {
        guard !isReadOnly, !String(cString: sqlite3_db_filename(handle, "main")).isEmpty else { return }
        try Self.enableWriteAheadLog(handle, waitingUpTo: configuration.busyTimeout)
        try execute(sql: "PRAGMA synchronous = NORMAL")
    }

    /// Switches a file to WAL, retrying while another connection holds the lock: SQLite answers a journal mode change
    /// on a file another process is creating with "database is locked" at once, without calling the busy handler.
    private static func enableWriteAheadLog(_ database: OpaquePointer, waitingUpTo timeout: Duration) throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            do {
                let journalMode = try Statement(sql: "PRAGMA journal_mode = WAL", database: database)
                guard try journalMode.step(), journalMode.text(at: 0).lowercased() == "wal" else {
                    throw DatabaseError(resultCode: .error, message: "could not enable write-ahead logging")
                }
                return
            } catch let error as DatabaseError where error.resultCode == .busy && clock.now < deadline {
                usleep(5_000)
            }
        }
    }
}

// A connection must stay on one thread or isolation domain at a time: see the type's documentation.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
