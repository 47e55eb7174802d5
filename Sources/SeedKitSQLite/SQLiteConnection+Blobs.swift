import CSQLite

extension SQLiteConnection {
    /// Writes `bytes` over the start of the blob in `column` of the row `rowID` of `table`, straight into the
    /// database's pages.
    ///
    ///     try connection.execute(
    ///         sql: "INSERT INTO Attachment (name, bytes) VALUES (?, zeroblob(?))",
    ///         arguments: [.text("report"), .integer(Int64(bytes.count))])
    ///     try connection.writeBlob(bytes, table: "Attachment", column: "bytes", rowID: connection.lastInsertedRowID)
    ///
    /// For large blobs: a bound blob costs twice its size again while its row is written, as SQLite copies the
    /// binding and then builds the row's record from the copy; a blob written here costs the page cache only. The
    /// row must already hold a blob at least as long as `bytes`, such as the `zeroblob(n)` of its insert.
    ///
    /// - Throws: ``DatabaseError`` when there is no such table, column or row, the blob is shorter than `bytes`, or
    ///   the write fails.
    /// - Complexity: O(*n*) in the number of bytes.
    package func writeBlob(_ bytes: [UInt8], table: String, column: String, rowID: Int64) throws {
        var blob: OpaquePointer?
        let opened = sqlite3_blob_open(handle, "main", table, column, rowID, 1, &blob)
        // Closing commits nothing of its own: the bytes are part of the transaction around the call.
        defer { sqlite3_blob_close(blob) }
        guard opened == SQLITE_OK else { throw DatabaseError(code: opened, database: handle) }
        try bytes.withUnsafeBytes { bytes in
            // In pieces, as a blob's offset and length are 32-bit.
            let piece = 1 << 24
            var offset = 0
            while offset < bytes.count {
                let count = min(piece, bytes.count - offset)
                let written = sqlite3_blob_write(blob, bytes.baseAddress! + offset, Int32(count), Int32(offset))
                guard written == SQLITE_OK else { throw DatabaseError(code: written, database: handle) }
                offset += count
            }
        }
    }
}
