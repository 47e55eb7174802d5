import CSQLite
import Foundation
import SeedKit

// A predicate fetch by identity over a big store against the same query through the raw C API.

private final class FetchItem: ManagedObject {
    @Attribute var code: String
    @Attribute var name: String
    @Attribute var value: Int
    override class var identity: [String] { ["code"] }
}

/// The store's size and the number of lookups; `SEEDKIT_FETCH_SCALE=100` divides both by 100, for a run under
/// `valgrind --tool=callgrind` (see BENCHMARKS.md).
private let fetchScale = ProcessInfo.processInfo.environment["SEEDKIT_FETCH_SCALE"].flatMap { Int($0) } ?? 1
private let fetchItemCount = 1_000_000 / fetchScale
private let lookupCount = 20_000 / fetchScale
/// Timed repetitions of each side (`SEEDKIT_FETCH_REPETITIONS`, default 5): two instruction counts that differ only in
/// the repetitions give the cost of a fetch alone, without the setup, warm-up and teardown (see BENCHMARKS.md).
private let fetchRepetitions = ProcessInfo.processInfo.environment["SEEDKIT_FETCH_REPETITIONS"].flatMap { Int($0) } ?? 5

private func code(_ index: Int) -> String { "item-\(index)" }

/// A store of `fetchItemCount` items, each with a unique code (the identity, indexed).
private func identityStore(in directory: URL) throws -> SQLiteStore {
    let model = try EntityModel(classes: [FetchItem.self])
    let store = try SQLiteStore(path: directory.appendingPathComponent("fetch.sqlite").path, model: model)
    let context = store.newContext()
    for index in 0..<fetchItemCount {
        let item = FetchItem(context: context)
        item.code = code(index)
        item.name = "name \(index)"
        item.value = index
    }
    try context.save()
    return store
}

/// The codes to look up: random, reproducible, each once.
private func lookupCodes() -> [String] {
    var state: UInt64 = 0x5EED
    var indices = Set<Int>()
    while indices.count < lookupCount {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        indices.insert(Int((state >> 33) % UInt64(fetchItemCount)))
    }
    var generator = FixedGenerator()
    return indices.sorted().shuffled(using: &generator).map(code)
}

/// A linear congruential generator: the same shuffle in every run.
private struct FixedGenerator: RandomNumberGenerator {
    var state: UInt64 = 42
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

/// Each code's row through one prepared statement of the C API, every column read into a Swift value.
@inline(never)
private func rawLookups(path: String, codes: [String]) -> Int {
    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { fatalError("open") }
    defer { sqlite3_close(database) }
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
        database, "SELECT _id, _entity, _version, code, name, value FROM FetchItem WHERE code = ?", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    var found = 0
    sqlite3_exec(database, "BEGIN", nil, nil, nil)
    for code in codes {
        sqlite3_bind_text(statement, 1, code, -1, transient)
        while sqlite3_step(statement) == SQLITE_ROW {
            let row = (
                sqlite3_column_int64(statement, 0), String(cString: sqlite3_column_text(statement, 1)),
                sqlite3_column_int64(statement, 2), String(cString: sqlite3_column_text(statement, 3)),
                String(cString: sqlite3_column_text(statement, 4)), sqlite3_column_int64(statement, 5))
            blackHole(row)
            found += 1
        }
        sqlite3_reset(statement)
    }
    sqlite3_exec(database, "COMMIT", nil, nil, nil)
    return found
}

/// Each code's object through a predicate fetch, in a new context, so every fetch makes its object, and in one read
/// transaction, as the raw side.
@inline(never)
private func predicateFetches(store: SQLiteStore, codes: [String]) throws -> Int {
    let context = store.newContext()
    return try store.read {
        var found = 0
        for code in codes {
            found += try context.fetch(FetchItem.self, FetchRequest("FetchItem", predicate: FetchKey("code") == code)).count
        }
        return found
    }
}

var fetchBenchmarks: [Benchmark] { [
    Benchmark(
        name: "predicate-fetch",
        summary: "20,000 fetches by an identity predicate over 1,000,000 stored objects vs the same query through the C API"
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try identityStore(in: directory)
        let codes = lookupCodes()
        var rawFound = 0, fetched = 0
        let (raw, seconds) = try fastestInTurns(repetitions: fetchRepetitions) {
            rawFound = rawLookups(path: directory.appendingPathComponent("fetch.sqlite").path, codes: codes)
        } _: {
            fetched = try predicateFetches(store: store, codes: codes)
        }
        precondition(rawFound == lookupCount && fetched == lookupCount)
        detail("raw C API: \(format(Double(lookupCount) / raw.wall)) lookups/s; predicate fetch: \(format(Double(lookupCount) / seconds.wall)) fetches/s")
        detail("by thread CPU time: \(format(raw.thread / seconds.thread))x raw-sqlite")
        report("predicate-fetch", value: Double(lookupCount) / seconds.wall, unit: "fetches/s", ratio: raw.wall / seconds.wall, peer: "raw-sqlite")
    },
] }
