import CSQLite
import Foundation

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
        try withBlob(table: table, column: column, rowID: rowID, writing: true) { blob in
            try bytes.withUnsafeBytes { bytes in
                let piece = Self.blobPiece
                var offset = 0
                while offset < bytes.count {
                    let count = min(piece, bytes.count - offset)
                    try check(sqlite3_blob_write(blob, bytes.baseAddress! + offset, Int32(count), Int32(offset)))
                    offset += count
                }
            }
        }
    }

    /// Makes the blob in `column` of the row `rowID` of `table`, as long as `bytes`, hold `bytes`, writing only the
    /// pieces that differ.
    ///
    ///     try connection.rewriteBlob(ledger, table: "Ledger", column: "bytes", rowID: rowID)   // a few pages written
    ///
    /// A blob written anew puts every one of its pages in the transaction's journal, and a write-ahead log then copies
    /// them all back at the next checkpoint; here only the pages of the pieces that changed are written, so a large
    /// blob that changes in a few places costs what those places do, plus reading it once.
    ///
    /// - Throws: ``DatabaseError`` when there is no such table, column or row, the blob's length is not the bytes',
    ///   or a read or write fails.
    /// - Complexity: O(*n*) in the number of bytes read and compared; writes in the pieces that differ.
    package func rewriteBlob(_ bytes: [UInt8], table: String, column: String, rowID: Int64) throws {
        try withBlob(table: table, column: column, rowID: rowID, writing: true) { blob in
            guard Int(sqlite3_blob_bytes(blob)) == bytes.count else {
                throw DatabaseError(
                    resultCode: .misuse,
                    message: "the blob is \(sqlite3_blob_bytes(blob)) bytes long, not \(bytes.count): it is rewritten at its own length")
            }
            // About a page: a piece that differs costs the one or two pages it spans.
            let piece = 4096
            var stored = [UInt8](repeating: 0, count: piece)
            try bytes.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = min(piece, bytes.count - offset)
                    let differs = try stored.withUnsafeMutableBytes { stored in
                        try check(sqlite3_blob_read(blob, stored.baseAddress!, Int32(count), Int32(offset)))
                        return memcmp(stored.baseAddress!, bytes.baseAddress! + offset, count) != 0
                    }
                    if differs { try check(sqlite3_blob_write(blob, bytes.baseAddress! + offset, Int32(count), Int32(offset))) }
                    offset += count
                }
            }
        }
    }

    /// The blob in `column` of the row `rowID` of `table`, read from the database's pages straight into the array.
    ///
    ///     let ledger = try connection.readBlob(table: "Ledger", column: "bytes", rowID: rowID)
    ///
    /// For large blobs: a statement's column gathers the blob into memory of SQLite's own, which is then copied;
    /// here it is gathered once, where it stays.
    ///
    /// - Throws: ``DatabaseError`` when there is no such table, column or row, or the read fails.
    /// - Complexity: O(*n*) in the number of bytes.
    package func readBlob(table: String, column: String, rowID: Int64) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try withBlob(table: table, column: column, rowID: rowID, writing: false) { blob in
            let size = Int(sqlite3_blob_bytes(blob))
            var failure: Int32 = SQLITE_OK
            bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                let piece = Self.blobPiece
                var offset = 0
                while offset < size, failure == SQLITE_OK {
                    let length = min(piece, size - offset)
                    failure = sqlite3_blob_read(blob, buffer.baseAddress! + offset, Int32(length), Int32(offset))
                    offset += length
                }
                count = failure == SQLITE_OK ? size : 0
            }
            try check(failure)
        }
        return bytes
    }

    /// How much of a blob one call reads or writes: its offsets and lengths are 32-bit.
    private static let blobPiece = 1 << 24

    /// Runs `body` with the blob in `column` of the row `rowID` of `table`, opened for writing or for reading.
    private func withBlob(
        table: String, column: String, rowID: Int64, writing: Bool, _ body: (OpaquePointer?) throws -> Void
    ) throws {
        var blob: OpaquePointer?
        let opened = sqlite3_blob_open(handle, "main", table, column, rowID, writing ? 1 : 0, &blob)
        // Closing commits nothing of its own: the bytes are part of the transaction around the call.
        defer { sqlite3_blob_close(blob) }
        try check(opened)
        try body(blob)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw DatabaseError(code: code, database: handle) }
    }
}
