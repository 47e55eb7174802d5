import Foundation
import Testing
import SeedKit

/// `backup(to:)`: SQLite's online backup of one connection's database over another's.
@Suite("SQLite backup")
struct SQLiteBackupTests {
    private func names(in connection: SQLiteConnection) throws -> [String] {
        let select = try connection.prepare(sql: "SELECT name FROM people ORDER BY name")
        var names: [String] = []
        while try select.step() { names.append(select.text(at: 0)) }
        return names
    }

    /// The copy holds the schema and rows, replaces what the destination held, and goes its own way afterwards.
    @Test func theCopyHoldsTheDatabaseAndReplacesTheDestinations() throws {
        let source = try SQLiteConnection.inMemory()
        try source.execute(sql: "CREATE TABLE people (name TEXT PRIMARY KEY); CREATE INDEX people_by_length ON people (length(name))")
        try source.execute(sql: "INSERT INTO people (name) VALUES ('Ann'), ('Bo')")
        let destination = try SQLiteConnection.inMemory()
        try destination.execute(sql: "CREATE TABLE other (x); INSERT INTO other VALUES (1)")
        try source.backup(to: destination)
        #expect(try names(in: destination) == ["Ann", "Bo"])
        #expect(try SQLiteTesting.firstValue(destination, "SELECT count(*) FROM sqlite_master WHERE name = 'other'") == .integer(0))
        #expect(
            try SQLiteTesting.firstValue(destination, "SELECT count(*) FROM sqlite_master WHERE name = 'people_by_length'")
                == .integer(1))
        try destination.execute(sql: "INSERT INTO people (name) VALUES ('Cy')")
        try source.execute(sql: "DELETE FROM people WHERE name = 'Bo'")
        #expect(try names(in: destination) == ["Ann", "Bo", "Cy"])
        #expect(try names(in: source) == ["Ann"])
    }

    /// A file of 8 KiB pages copies into memory, whose default page is 4 KiB: the destination takes the source's size.
    @Test func aFileOfAnotherPageSizeCopiesIntoMemory() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let source = try SQLiteConnection(path: directory.appendingPathComponent("large-pages.sqlite").path)
            try source.execute(sql: "PRAGMA journal_mode = DELETE; PRAGMA page_size = 8192; VACUUM")
            try source.execute(sql: "CREATE TABLE people (name TEXT PRIMARY KEY); INSERT INTO people (name) VALUES ('Ann')")
            let destination = try SQLiteConnection.inMemory()
            try source.backup(to: destination)
            #expect(try SQLiteTesting.firstValue(destination, "PRAGMA page_size") == .integer(8192))
            #expect(try names(in: destination) == ["Ann"])
        }
    }

    /// A database its own connection is writing is not copied half-written, and one connection is no backup of itself.
    @Test func aDatabaseBeingWrittenIsRefused() throws {
        let source = try SQLiteConnection.inMemory()
        try source.execute(sql: "CREATE TABLE people (name TEXT PRIMARY KEY)")
        let destination = try SQLiteConnection.inMemory()
        try source.inTransaction(.immediate) {
            try source.execute(sql: "INSERT INTO people (name) VALUES ('Ann')")
            let error = try #require(throws: DatabaseError.self) { try source.backup(to: destination) }
            #expect(error.resultCode == .busy)
        }
        #expect(throws: DatabaseError.self) { try source.backup(to: source) }
        try source.backup(to: destination)
        #expect(try names(in: destination) == ["Ann"])
    }
}
