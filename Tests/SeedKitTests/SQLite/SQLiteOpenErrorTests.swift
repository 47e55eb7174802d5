import Foundation
import Testing
import SeedKit

/// Opening a file that can't serve as a database throws a clear error and leaves the file as it was.
@Suite("SQLite open errors")
struct SQLiteOpenErrorTests {
    @Test("A file that is not a database is refused and left untouched")
    func notADatabase() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("garbage.sqlite")
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try garbage.write(to: url)

            let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: url.path) }
            #expect(error.resultCode == .notADatabase)
            #expect(error.path == url.path)
            #expect(error.description.contains("file is not a database"))
            #expect(error.description.contains(url.path))
            #expect(try Data(contentsOf: url) == garbage)
            #expect(try SQLiteTesting.fileNames(in: directory) == ["garbage.sqlite"])
        }
    }

    @Test("A text file is refused and left untouched")
    func textFile() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("notes.sqlite")
            let text = Data("These are notes, not a database.\n".utf8)
            try text.write(to: url)

            let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: url.path) }
            #expect(error.resultCode == .notADatabase)
            #expect(try Data(contentsOf: url) == text)
            #expect(try SQLiteTesting.fileNames(in: directory) == ["notes.sqlite"])
        }
    }

    @Test("A truncated database is refused and left untouched", arguments: [0.5, 0.01])
    func truncated(keptFraction: Double) throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("store.sqlite")
            do {
                let connection = try SQLiteConnection(path: url.path)
                try connection.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
                let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
                try connection.inTransaction {
                    for index in 0..<2_000 {
                        try insert.execute(arguments: [.text(String(repeating: "x", count: 100) + String(index))])
                    }
                }
            }
            let whole = try Data(contentsOf: url)
            let truncated = whole.prefix(Int(Double(whole.count) * keptFraction))
            try truncated.write(to: url)

            let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: url.path) }
            #expect(error.resultCode == .corrupt)  // "database disk image is malformed"
            #expect(error.path == url.path)
            #expect(try Data(contentsOf: url) == truncated)
            #expect(try SQLiteTesting.fileNames(in: directory) == ["store.sqlite"])
        }
    }

    @Test("A file in a missing directory can't be opened, and no directory is created")
    func missingDirectory() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("missing/store.sqlite").path
            let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: path) }
            #expect(error.resultCode == .cantOpen)
            #expect(error.path == path)
            #expect(error.description.contains("unable to open database file"))
            #expect(try SQLiteTesting.fileNames(in: directory).isEmpty)
        }
    }

    @Test("A directory is not a database file")
    func directoryPath() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: directory.path) }
            #expect(error.resultCode == .cantOpen)
        }
    }

    // Root writes through permission bits, so these two only run for other users; `readOnly` in
    // SQLiteConnectionTests covers read-only access for everyone through OpenMode.readOnly.
    @Test(
        "A database file without write permission is refused for writing and left untouched",
        .enabled(if: getuid() != 0, "root ignores file permissions"))
    func readOnlyFile() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("store.sqlite")
            do {
                let connection = try SQLiteConnection(path: url.path)
                try connection.execute(sql: "CREATE TABLE t (v)")
            }
            let bytes = try Data(contentsOf: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }

            let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: url.path) }
            #expect(error.resultCode == .readOnly)
            #expect(try Data(contentsOf: url) == bytes)
        }
    }

    @Test(
        "A database can't be created in a directory without write permission",
        .enabled(if: getuid() != 0, "root ignores directory permissions"))
    func readOnlyDirectory() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let locked = directory.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }

            let error = try #require(throws: DatabaseError.self) {
                try SQLiteConnection(path: locked.appendingPathComponent("store.sqlite").path)
            }
            #expect(error.resultCode == .cantOpen)
            #expect(try SQLiteTesting.fileNames(in: locked).isEmpty)
        }
    }

    @Test(
        "A database in a directory without write permission is refused, as WAL needs files beside it, and left untouched",
        .enabled(if: getuid() != 0, "root ignores directory permissions"))
    func databaseInReadOnlyDirectory() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let locked = directory.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            let url = locked.appendingPathComponent("store.sqlite")
            var rollbackJournal = SQLiteConnection.Configuration()
            rollbackJournal.usesWriteAheadLog = false
            do {
                let connection = try SQLiteConnection(path: url.path, configuration: rollbackJournal)
                try connection.execute(sql: "CREATE TABLE t (v)")
            }
            let bytes = try Data(contentsOf: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }

            let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: url.path) }
            #expect(error.resultCode == .readOnly)  // SQLITE_READONLY_DIRECTORY: no room for the -wal file
            #expect(error.sql == "PRAGMA journal_mode = WAL")
            #expect(error.path == url.path)
            #expect(try Data(contentsOf: url) == bytes)
            #expect(try SQLiteTesting.fileNames(in: locked) == ["store.sqlite"])
        }
    }
}
