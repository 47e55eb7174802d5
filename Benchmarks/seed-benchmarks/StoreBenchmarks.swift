import CSQLite
import Foundation
import SeedKit

// Saving and fetching through the store against raw prepared-statement inserts and reads through the C API.

private final class StoreItem: ManagedObject {
    @Attribute var name: String
    @Attribute var value: Int
    @Relationship var tag: StoreTag?
}

private final class StoreTag: ManagedObject {
    @Attribute var title: String
}

private let itemCount = 1_000_000
private let tagCount = 1_000

private func storeDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A store holding `tagCount` tags and `itemCount` items, each pointing at a tag.
private func savedStore(in directory: URL) throws -> (SQLiteStore, seconds: Double) {
    let model = try EntityModel(classes: [StoreItem.self, StoreTag.self])
    let store = try SQLiteStore(path: directory.appendingPathComponent("store.sqlite").path, model: model)
    let context = store.newContext()
    let tags = (0..<tagCount).map { index -> StoreTag in
        let tag = StoreTag(context: context)
        tag.title = "tag \(index)"
        return tag
    }
    try context.save()
    for index in 0..<itemCount {
        let item = StoreItem(context: context)
        item.name = "item \(index)"
        item.value = index
        item.tag = tags[index % tagCount]
    }
    let seconds = try once { try context.save() }
    return (store, seconds)
}

/// The same rows through one prepared statement in one transaction, WAL and synchronous=NORMAL.
private func rawInsertSeconds(in directory: URL) throws -> Double {
    var database: OpaquePointer?
    guard sqlite3_open(directory.appendingPathComponent("raw.sqlite").path, &database) == SQLITE_OK else {
        throw DatabaseError(resultCode: .cantOpen)
    }
    defer { sqlite3_close(database) }
    sqlite3_exec(database, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", nil, nil, nil)
    sqlite3_exec(database, """
        CREATE TABLE Tag (_id INTEGER PRIMARY KEY, _entity TEXT NOT NULL, _version INTEGER NOT NULL DEFAULT 1, title TEXT);
        CREATE TABLE Item (_id INTEGER PRIMARY KEY, _entity TEXT NOT NULL, _version INTEGER NOT NULL DEFAULT 1,
            name TEXT, value INTEGER, tag INTEGER REFERENCES Tag(_id));
        CREATE INDEX Item_tag ON Item (tag);
        """, nil, nil, nil)
    return once {
        var statement: OpaquePointer?
        sqlite3_exec(database, "BEGIN IMMEDIATE", nil, nil, nil)
        sqlite3_prepare_v2(database, "INSERT INTO Item (_id, _entity, _version, name, value, tag) VALUES (?, 'Item', 1, ?, ?, ?)", -1, &statement, nil)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for index in 0..<itemCount {
            let name = "item \(index)"
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            sqlite3_bind_text(statement, 2, name, -1, transient)
            sqlite3_bind_int64(statement, 3, Int64(index))
            sqlite3_bind_int64(statement, 4, Int64(index % tagCount + 1))
            sqlite3_step(statement)
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        sqlite3_exec(database, "COMMIT", nil, nil, nil)
    }
}

var storeBenchmarks: [Benchmark] { [
    Benchmark(name: "store-save", summary: "saving 1,000,000 new objects with a to-one each in one save vs raw prepared inserts") {
        let directory = try storeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = try rawInsertSeconds(in: directory)
        let (_, seconds) = try savedStore(in: directory)
        detail("raw C API: \(format(Double(itemCount) / raw)) rows/s; store save: \(format(Double(itemCount) / seconds)) objects/s")
        detail("peak memory: \(peakResidentBytes() / 1_048_576) MiB")
        report("store-save", value: Double(itemCount) / seconds, unit: "objects/s", ratio: raw / seconds, peer: "raw-sqlite")
    },
    Benchmark(name: "store-fetch", summary: "fetching 1,000,000 stored objects and firing each one's to-one fault") {
        let directory = try storeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = try savedStore(in: directory)
        var count = 0
        let seconds = try once {
            let context = store.newContext()
            for item in try context.fetch(StoreItem.self) where item.tag != nil { count += 1 }
        }
        precondition(count == itemCount)
        detail("peak memory: \(peakResidentBytes() / 1_048_576) MiB")
        report("store-fetch", value: Double(itemCount) / seconds, unit: "objects/s", ratio: Double(itemCount) / seconds / 500_000, peer: "target-500k/s")
    },
] }
