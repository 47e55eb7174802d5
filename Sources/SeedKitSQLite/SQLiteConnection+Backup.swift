import CSQLite
import Foundation

extension SQLiteConnection {
    /// Copies this connection's database, page by page, over the database of `destination`: SQLite's online backup.
    ///
    ///     let copy = try SQLiteConnection.inMemory()
    ///     try connection.backup(to: copy)      // copy holds the same schema and rows, connection is unchanged
    ///
    /// The copy is whole and taken in one step, under a read lock on this database: it is the database as committed
    /// when the backup runs. Whatever the destination held goes, and it takes this database's page size (set first,
    /// which SQLite allows an empty database, in memory or not: it refuses an in-memory destination whose page size
    /// differs). The destination's connection-level settings (its foreign keys, its functions) are its own, and its
    /// schema is read anew by its next statement.
    ///
    /// - Throws: ``DatabaseError``: ``SQLiteResultCode/busy`` while this connection is writing its database (inside
    ///   a write transaction), or when another connection holds a lock the backup needs; ``SQLiteResultCode/readOnly``
    ///   for a read-only destination, or one in memory or in write-ahead logging mode that is not empty and has
    ///   another page size; ``SQLiteResultCode/error`` for the connection itself, or a destination with a transaction
    ///   open. A destination file may then be left part-written.
    /// - Complexity: O(*n*) in the size of the database.
    package func backup(to destination: SQLiteConnection) throws {
        try destination.execute(sql: "PRAGMA page_size = \(try pageSize())")
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw DatabaseError(code: sqlite3_errcode(destination.handle), database: destination.handle)
        }
        // Every page in one step; finishing releases the locks and says how the backup went, its error kept by the
        // destination.
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else {
            if stepped == SQLITE_BUSY && isInsideTransaction {
                // SQLite says "database is locked", which points at another connection.
                throw DatabaseError(
                    resultCode: .busy, message: "the database is being written in this connection's transaction: copy it after")
            }
            throw DatabaseError(code: stepped, database: finished == SQLITE_OK ? nil : destination.handle)
        }
        guard finished == SQLITE_OK else { throw DatabaseError(code: finished, database: destination.handle) }
    }

    /// The database's page size in bytes, read by a statement reset before this returns: it holds no lock after.
    private func pageSize() throws -> Int {
        let pageSize = try prepare(sql: "PRAGMA page_size")
        defer { pageSize.reset() }
        guard try pageSize.step() else { throw DatabaseError(resultCode: .error, message: "the database gave no page size") }
        return pageSize.int(at: 0)
    }
}
