import Foundation
import Testing
import SeedKit

/// Blobs written straight into a row's pages (`writeBlob`), or rewritten where they differ (`rewriteBlob`), as the
/// store writes its ledger, and read straight from them (`readBlob`), as it reads it.
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

    /// A blob reads back whole from its pages, across the pieces the read is made of (16 MiB each), on a connection
    /// that cannot write; an empty one reads empty, and a missing row is an error.
    @Test func aBlobReadsBackFromItsPagesOnAReadOnlyConnection() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("blobs.sqlite").path
            let large = (0..<(1 << 24) + 1_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            var rowIDs: [String: Int64] = [:]
            do {
                let connection = try SQLiteConnection(path: path)
                try connection.execute(sql: "CREATE TABLE files (name TEXT PRIMARY KEY, bytes BLOB NOT NULL)")
                for (name, written) in [("large", large), ("empty", [])] {
                    rowIDs[name] = try insertRoom(written.count, named: name, in: connection)
                    try connection.writeBlob(written, table: "files", column: "bytes", rowID: rowIDs[name]!)
                }
            }
            var configuration = SQLiteConnection.Configuration()
            configuration.openMode = .readOnly
            let reader = try SQLiteConnection(path: path, configuration: configuration)
            #expect(try reader.readBlob(table: "files", column: "bytes", rowID: rowIDs["large"]!) == large)
            #expect(try reader.readBlob(table: "files", column: "bytes", rowID: rowIDs["empty"]!) == [])
            #expect(throws: DatabaseError.self) {
                try reader.readBlob(table: "files", column: "bytes", rowID: rowIDs["large"]! + 2)
            }
        }
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

    /// A rewrite with changes at the start, across a piece's end and at the very end reads back exactly; bytes of
    /// another length are an error that leaves the blob as it was.
    @Test func aRewrittenBlobReadsBackExactly() throws {
        let connection = try makeConnection()
        let original = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let rowID = try insertRoom(original.count, named: "ledger", in: connection)
        try connection.writeBlob(original, table: "files", column: "bytes", rowID: rowID)
        var changed = original
        for offset in [0, 4095, 4096, 50_000, 99_999] { changed[offset] &+= 1 }
        try connection.rewriteBlob(changed, table: "files", column: "bytes", rowID: rowID)
        #expect(try bytes(named: "ledger", in: connection) == changed)
        try connection.rewriteBlob(changed, table: "files", column: "bytes", rowID: rowID)
        #expect(try bytes(named: "ledger", in: connection) == changed)
        #expect(throws: DatabaseError.self) {
            try connection.rewriteBlob(changed + [1], table: "files", column: "bytes", rowID: rowID)
        }
        #expect(throws: DatabaseError.self) {
            try connection.rewriteBlob(Array(changed.dropLast()), table: "files", column: "bytes", rowID: rowID)
        }
        #expect(try bytes(named: "ledger", in: connection) == changed)
    }

    /// Rewriting a large blob where one byte changed commits a page or two to the write-ahead log, not the blob's
    /// hundreds: what makes a later seed of a few changes cheap to commit and checkpoint.
    @Test func aRewriteWritesOnlyThePagesThatChange() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let connection = try SQLiteConnection(path: directory.appendingPathComponent("blobs.sqlite").path)
            try connection.execute(sql: "CREATE TABLE files (name TEXT PRIMARY KEY, bytes BLOB NOT NULL)")
            let original = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            let rowID = try insertRoom(original.count, named: "ledger", in: connection)
            try connection.writeBlob(original, table: "files", column: "bytes", rowID: rowID)
            /// The frames the write-ahead log holds after `body`'s transaction, starting from an empty log.
            func loggedFrames(_ body: () throws -> Void) throws -> Int {
                try connection.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                try connection.inTransaction { try body() }
                let checkpoint = try connection.prepare(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                #expect(try checkpoint.step())
                return checkpoint.int(at: 1)
            }
            var changed = original
            changed[500_000] &+= 1
            let rewritten = try loggedFrames {
                try connection.rewriteBlob(changed, table: "files", column: "bytes", rowID: rowID)
            }
            changed[600_000] &+= 1
            let written = try loggedFrames {
                try connection.writeBlob(changed, table: "files", column: "bytes", rowID: rowID)
            }
            #expect(rewritten >= 1 && rewritten <= 3)
            #expect(written > 200)
            #expect(try bytes(named: "ledger", in: connection) == changed)
        }
    }
}
