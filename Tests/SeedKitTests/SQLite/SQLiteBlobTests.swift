import Testing
import SeedKit

/// Blobs written straight into a row's pages (`writeBlob`), as the store writes its ledger.
@Suite("SQLite blobs")
struct SQLiteBlobTests {
    private func makeConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE files (name TEXT PRIMARY KEY, bytes BLOB NOT NULL)")
        return connection
    }

    /// Inserts a row whose blob is `length` zero bytes, and returns its row id.
    private func insertRoom(_ length: Int, named name: String, in connection: SQLiteConnection) throws -> Int64 {
        try connection.execute(
            sql: "INSERT INTO files (name, bytes) VALUES (?, zeroblob(?))", arguments: [.text(name), .integer(Int64(length))])
        return connection.lastInsertedRowID
    }

    private func bytes(named name: String, in connection: SQLiteConnection) throws -> [UInt8] {
        let select = try connection.prepare(sql: "SELECT bytes FROM files WHERE name = ?")
        try select.bind(name, at: 1)
        #expect(try select.step())
        return select.bytes(at: 0)
    }

    /// Every byte reads back, across the pieces the write is made of (16 MiB each), and an empty blob stays empty.
    @Test func theBytesReadBackExactly() throws {
        let connection = try makeConnection()
        let large = (0..<(1 << 24) + 1_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let small: [UInt8] = [0, 1, 2, 255]
        for (name, written) in [("large", large), ("small", small), ("empty", [])] {
            let rowID = try insertRoom(written.count, named: name, in: connection)
            try connection.writeBlob(written, table: "files", column: "bytes", rowID: rowID)
        }
        #expect(try bytes(named: "large", in: connection) == large)
        #expect(try bytes(named: "small", in: connection) == small)
        #expect(try bytes(named: "empty", in: connection) == [])
    }

    /// A blob shorter than the bytes, a missing row or column: an error, and the row as it was.
    @Test func whatDoesNotFitIsAnErrorAndChangesNothing() throws {
        let connection = try makeConnection()
        let rowID = try insertRoom(3, named: "short", in: connection)
        #expect(throws: DatabaseError.self) {
            try connection.writeBlob([1, 2, 3, 4], table: "files", column: "bytes", rowID: rowID)
        }
        #expect(try bytes(named: "short", in: connection) == [0, 0, 0])
        #expect(throws: DatabaseError.self) {
            try connection.writeBlob([1], table: "files", column: "bytes", rowID: rowID + 1)
        }
        #expect(throws: DatabaseError.self) {
            try connection.writeBlob([1], table: "files", column: "contents", rowID: rowID)
        }
    }

    /// The write belongs to the transaction around it: rolled back, it is gone with the row.
    @Test func aRolledBackWriteLeavesNothing() throws {
        struct Abort: Error {}
        let connection = try makeConnection()
        #expect(throws: Abort.self) {
            try connection.inTransaction {
                let rowID = try insertRoom(2, named: "gone", in: connection)
                try connection.writeBlob([7, 7], table: "files", column: "bytes", rowID: rowID)
                throw Abort()
            }
        }
        let count = try connection.prepare(sql: "SELECT count(*) FROM files")
        #expect(try count.step())
        #expect(count.int(at: 0) == 0)
    }
}
