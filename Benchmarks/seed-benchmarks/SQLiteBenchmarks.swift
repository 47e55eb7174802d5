import CSQLite
import Foundation
import SeedKit

/// Inserts a million rows through SeedKit's `Statement`, and the same rows through raw SQLite C calls.
///
/// Both sides run the same SQL on the same kind of file (WAL, synchronous NORMAL, foreign keys on) and bind the same
/// precomputed strings, so the ratio is the cost of the Swift layer. Reading the rows back is measured the same way and
/// printed as a detail.
@MainActor
let sqliteInsertBenchmark = Benchmark(
    name: "sqlite-insert",
    summary: "1,000,000 rows (id, text, foreign key) in one transaction: SeedKit Statement vs raw SQLite C calls",
    run: SQLiteInsertBenchmark().run)

private struct SQLiteInsertBenchmark {
    let rowCount = 1_000_000
    let departmentCount = 10
    let schema = """
        CREATE TABLE Department (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE Employee (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            departmentID INTEGER NOT NULL REFERENCES Department(id));
        """
    let insertSQL = "INSERT INTO Employee (id, name, departmentID) VALUES (?, ?, ?)"
    let selectSQL = "SELECT id, name, departmentID FROM Employee"

    func run() throws {
        let names = (0..<rowCount).map { "Employee \($0)" }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("seed-benchmarks-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seedKitPath = directory.appendingPathComponent("seedkit.sqlite").path
        let rawPath = directory.appendingPathComponent("raw.sqlite").path

        let memory = try fastestInTurns(
            { try insertWithSeedKit(names: names, path: ":memory:") },
            { try insertWithRawCalls(names: names, path: ":memory:") })
        let (memorySeedKit, memoryRaw) = (memory.first.wall, memory.second.wall)
        let file = try fastestInTurns(
            { try insertWithSeedKit(names: names, path: seedKitPath) },
            { try insertWithRawCalls(names: names, path: rawPath) })
        let (fileSeedKit, fileRaw) = (file.first.wall, file.second.wall)
        let select = try fastestInTurns(
            { try blackHole(selectWithSeedKit(path: seedKitPath)) },
            { try blackHole(selectWithRawCalls(path: rawPath)) })
        let (selectSeedKit, selectRaw) = (select.first.wall, select.second.wall)

        detail("insert in memory: SeedKit \(format(memorySeedKit)) s, raw C \(format(memoryRaw)) s"
            + " (\(format(memorySeedKit / memoryRaw))x)")
        detail("insert in a WAL file: SeedKit \(format(fileSeedKit)) s, raw C \(format(fileRaw)) s"
            + " (\(format(fileSeedKit / fileRaw))x)")
        detail("select from the file: SeedKit \(format(selectSeedKit)) s, raw C \(format(selectRaw)) s"
            + " (\(format(selectSeedKit / selectRaw))x)")
        detail("peak memory \(peakResidentBytes() / 1_048_576) MiB")
        report("sqlite-insert", value: fileSeedKit, unit: "s", ratio: fileSeedKit / fileRaw, peer: "raw-C")
    }

    private func removeDatabase(at path: String) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    private func insertWithSeedKit(names: [String], path: String) throws {
        removeDatabase(at: path)
        let connection = try SQLiteConnection(path: path)
        try connection.execute(sql: schema)
        try connection.inTransaction {
            let insertDepartment = try connection.prepare(sql: "INSERT INTO Department (id, name) VALUES (?, ?)")
            for id in 1...departmentCount {
                try insertDepartment.execute(arguments: [.integer(Int64(id)), .text("Department \(id)")])
            }
            let insert = try connection.prepare(sql: insertSQL)
            for (index, name) in names.enumerated() {
                try insert.bind(Int64(index + 1), at: 1)
                try insert.bind(name, at: 2)
                try insert.bind(Int64(index % departmentCount + 1), at: 3)
                try insert.execute()
            }
        }
    }

    private func insertWithRawCalls(names: [String], path: String) throws {
        removeDatabase(at: path)
        var database: OpaquePointer?
        try check(sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil))
        defer { sqlite3_close_v2(database) }
        try check(sqlite3_exec(database, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;", nil, nil, nil))
        try check(sqlite3_exec(database, schema, nil, nil, nil))
        try check(sqlite3_exec(database, "BEGIN TRANSACTION", nil, nil, nil))
        for id in 1...departmentCount {
            try check(sqlite3_exec(database, "INSERT INTO Department (id, name) VALUES (\(id), 'Department \(id)')", nil, nil, nil))
        }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(database, insertSQL, -1, &statement, nil))
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, name) in names.enumerated() {
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            _ = name.withCString { sqlite3_bind_text(statement, 2, $0, -1, transient) }
            sqlite3_bind_int64(statement, 3, Int64(index % departmentCount + 1))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw RawSQLiteError(database: database) }
            sqlite3_reset(statement)
        }
        try check(sqlite3_exec(database, "COMMIT", nil, nil, nil))
    }

    /// The sum of the ids, name lengths and foreign keys, so that every column is read.
    private func selectWithSeedKit(path: String) throws -> Int {
        let connection = try SQLiteConnection(path: path)
        let select = try connection.prepare(sql: selectSQL)
        var checksum = 0
        while try select.step() {
            checksum &+= select.int(at: 0) &+ select.text(at: 1).utf8.count &+ select.int(at: 2)
        }
        return checksum
    }

    private func selectWithRawCalls(path: String) throws -> Int {
        var database: OpaquePointer?
        try check(sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil))
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(database, selectSQL, -1, &statement, nil))
        defer { sqlite3_finalize(statement) }
        var checksum = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            let text = sqlite3_column_text(statement, 1)
            let name = String(
                decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, 1))), as: UTF8.self)
            checksum &+= Int(sqlite3_column_int64(statement, 0)) &+ name.utf8.count
                &+ Int(sqlite3_column_int64(statement, 2))
        }
        return checksum
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw RawSQLiteError(code: code) }
    }
}

private struct RawSQLiteError: Error, CustomStringConvertible {
    let description: String

    init(code: Int32) {
        description = "raw SQLite call failed: \(String(cString: sqlite3_errstr(code)))"
    }

    init(database: OpaquePointer?) {
        description = "raw SQLite call failed: \(String(cString: sqlite3_errmsg(database)))"
    }
}
