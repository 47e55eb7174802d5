import Foundation
import Testing
import SeedKit

@Suite("SQLite connection")
struct SQLiteConnectionTests {
    @Test("Opening a missing file creates it, in WAL mode with foreign keys on")
    func opensAndCreatesFile() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let connection = try SQLiteConnection(path: path)
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try SQLiteTesting.firstValue(connection, "PRAGMA journal_mode") == .text("wal"))
            #expect(try SQLiteTesting.firstValue(connection, "PRAGMA synchronous") == .integer(1))  // NORMAL
            #expect(try SQLiteTesting.firstValue(connection, "PRAGMA foreign_keys") == .integer(1))
            #expect(try SQLiteTesting.firstValue(connection, "PRAGMA busy_timeout") == .integer(5000))
            #expect(!connection.isReadOnly)
            #expect(!connection.isInsideTransaction)
        }
    }

    @Test("The configuration can leave the journal mode and foreign keys alone")
    func configurationOptOut() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            var configuration = SQLiteConnection.Configuration()
            configuration.usesWriteAheadLog = false
            configuration.foreignKeysEnabled = false
            configuration.busyTimeout = .milliseconds(250)
            let connection = try SQLiteConnection(
                path: directory.appendingPathComponent("store.sqlite").path, configuration: configuration)
            #expect(try SQLiteTesting.firstValue(connection, "PRAGMA journal_mode") == .text("delete"))
            #expect(try SQLiteTesting.firstValue(connection, "PRAGMA foreign_keys") == .integer(0))
            #expect(try SQLiteTesting.firstValue(connection, "PRAGMA busy_timeout") == .integer(250))
        }
    }

    @Test("In-memory databases work and are private to their connection")
    func inMemory() throws {
        let first = try SQLiteConnection.inMemory()
        let second = try SQLiteConnection(path: ":memory:")
        try first.execute(sql: "CREATE TABLE Department (id INTEGER PRIMARY KEY, name TEXT)")
        try first.execute(sql: "INSERT INTO Department (name) VALUES (?)", arguments: ["Sales"])
        #expect(try SQLiteTesting.firstValue(first, "SELECT name FROM Department") == .text("Sales"))
        #expect(try SQLiteTesting.firstValue(first, "PRAGMA journal_mode") == .text("memory"))
        #expect(throws: DatabaseError.self) { try second.prepare(sql: "SELECT * FROM Department") }
    }

    @Test("readWrite and readOnly modes need an existing file and don't create one")
    func modesNeedingAFile() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("absent.sqlite").path
            for mode in [SQLiteConnection.OpenMode.readWrite, .readOnly] {
                var configuration = SQLiteConnection.Configuration()
                configuration.openMode = mode
                let error = try #require(throws: DatabaseError.self) {
                    try SQLiteConnection(path: path, configuration: configuration)
                }
                #expect(error.resultCode == .cantOpen)
                #expect(error.path == path)
            }
            #expect(try SQLiteTesting.fileNames(in: directory).isEmpty)
        }
    }

    @Test("A read-only connection reads, refuses writes, and leaves the file unchanged")
    func readOnly() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            do {
                let writer = try SQLiteConnection(path: path)
                try writer.execute(sql: "CREATE TABLE t (v); INSERT INTO t VALUES (42);")
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

            var configuration = SQLiteConnection.Configuration()
            configuration.openMode = .readOnly
            do {
                let reader = try SQLiteConnection(path: path, configuration: configuration)
                #expect(reader.isReadOnly)
                #expect(try SQLiteTesting.firstValue(reader, "SELECT v FROM t") == .integer(42))
                let error = try #require(throws: DatabaseError.self) {
                    try reader.execute(sql: "INSERT INTO t VALUES (43)")
                }
                #expect(error.resultCode == .readOnly)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    @Test("execute(sql:) runs every statement of a script")
    func executeScript() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: """
            -- a comment first
            CREATE TABLE Department (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO Department (name) VALUES ('Sales');
            INSERT INTO Department (name) VALUES ('R&D');  ;
            UPDATE Department SET name = upper(name);
            /* a comment last */
            """)
        #expect(connection.changesCount == 2)
        #expect(connection.lastInsertedRowID == 2)
        #expect(try SQLiteTesting.firstValue(connection, "SELECT group_concat(name, ',') FROM Department") == .text("SALES,R&D"))
        try connection.execute(sql: "")
        try connection.execute(sql: "  -- nothing but a comment")
    }

    @Test("lastInsertedRowID and changesCount follow the last statement")
    func rowIDAndChanges() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
        #expect(connection.lastInsertedRowID == 0)
        try connection.execute(sql: "INSERT INTO t (id, v) VALUES (?, ?)", arguments: [41, "a"])
        try connection.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: ["b"])
        #expect(connection.lastInsertedRowID == 42)
        try connection.execute(sql: "UPDATE t SET v = 'c'")
        #expect(connection.changesCount == 2)
    }

    @Test("A statement may outlive its connection: the database closes, cleanly, when the last statement goes")
    func statementOutlivesConnection() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            var connection: SQLiteConnection? = try SQLiteConnection(path: path)
            try connection!.execute(sql: "CREATE TABLE t (v); INSERT INTO t VALUES (1)")
            var statement: Statement? = try connection!.prepare(sql: "SELECT v FROM t")
            _ = try connection!.cachedStatement(sql: "SELECT 2")
            connection = nil
            // Still open while a statement holds it: its write-ahead log is still there.
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(statement != nil)
            statement = nil
            // Closed with the last statement, as the last connection to a file: the log checkpointed and removed.
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(try SQLiteTesting.firstValue(SQLiteConnection(path: path), "SELECT v FROM t") == .integer(1))
        }
    }

    @Test("Two connections to one WAL file see each other's committed writes, not uncommitted ones")
    func twoConnections() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let first = try SQLiteConnection(path: path)
            let second = try SQLiteConnection(path: path)
            try first.execute(sql: "CREATE TABLE t (v)")
            try first.execute(sql: "INSERT INTO t VALUES ('from first')")
            #expect(try SQLiteTesting.firstValue(second, "SELECT group_concat(v) FROM t") == .text("from first"))

            try second.inTransaction {
                try second.execute(sql: "INSERT INTO t VALUES ('from second')")
                #expect(try SQLiteTesting.firstValue(first, "SELECT count(*) FROM t") == .integer(1))
            }
            #expect(try SQLiteTesting.firstValue(first, "SELECT count(*) FROM t") == .integer(2))
        }
    }

    @Test("The busy timeout makes a second writer wait for the first one's commit")
    func busyTimeoutWaits() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let first = try SQLiteConnection(path: path)
            try first.execute(sql: "CREATE TABLE t (v)")
            try first.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
            try first.execute(sql: "INSERT INTO t VALUES (1)")

            let outcome = SecondWriterOutcome()
            let secondIsAboutToWrite = DispatchSemaphore(value: 0)
            let secondIsDone = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                defer { secondIsDone.signal() }
                do {
                    let second = try SQLiteConnection(path: path)
                    let clock = ContinuousClock()
                    let start = clock.now
                    secondIsAboutToWrite.signal()
                    try second.execute(sql: "INSERT INTO t VALUES (2)")
                    outcome.set(.success(clock.now - start))
                } catch {
                    outcome.set(.failure(error))
                }
            }
            secondIsAboutToWrite.wait()
            // The second writer's clock started before this wait, and it can't write before the commit below.
            Thread.sleep(forTimeInterval: 0.3)
            try first.execute(sql: "COMMIT")
            secondIsDone.wait()

            let waited = try #require(try outcome.get()?.get())
            #expect(waited >= .milliseconds(300))
            #expect(try SQLiteTesting.firstValue(first, "SELECT count(*) FROM t") == .integer(2))
        }
    }

    @Test("Without a busy timeout a second writer fails at once with SQLITE_BUSY")
    func noBusyTimeoutFails() throws {
        try SQLiteTesting.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let first = try SQLiteConnection(path: path)
            try first.execute(sql: "CREATE TABLE t (v)")
            var configuration = SQLiteConnection.Configuration()
            configuration.busyTimeout = .zero
            let second = try SQLiteConnection(path: path, configuration: configuration)

            try first.inTransaction(.immediate) {
                let error = try #require(throws: DatabaseError.self) {
                    try second.execute(sql: "INSERT INTO t VALUES (2)")
                }
                #expect(error.resultCode == .busy)
            }
            try second.execute(sql: "INSERT INTO t VALUES (2)")
        }
    }
}

/// What the second writer of `busyTimeoutWaits` saw, handed from its thread to the test's.
private final class SecondWriterOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Duration, any Error>?

    func set(_ result: Result<Duration, any Error>) {
        lock.withLock { self.result = result }
    }

    func get() -> Result<Duration, any Error>? {
        lock.withLock { result }
    }
}
