import Foundation
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteStore {
    /// What ``create(atomicallyAt:model:checkingForeignKeys:_:)`` did.
    package enum AtomicCreation<Result> {
        /// The store is at the path, holding what the build wrote.
        case created(Result)
        /// The build gave up: there is still no store at the path.
        case abandoned
        /// Another store appeared at the path meanwhile; it was left alone and the build's store thrown away.
        case preempted
    }

    /// Builds a new store in a temporary file beside `path` and links it there in one step, so that no one ever
    /// finds a store at `path` that `build` has not completed.
    ///
    ///     switch try SQLiteStore.create(atomicallyAt: "seed.sqlite", model: model, { store in try fill(store) }) {
    ///     case .created(let filled): …        // the store is in place
    ///     case .abandoned: …                  // `fill` returned nil: nothing was created
    ///     case .preempted: …                  // another process created a store first: open that one
    ///     }
    ///
    /// `build` runs inside one `BEGIN IMMEDIATE` transaction on a store no one else can open, so the transaction is
    /// written without a write-ahead log or waiting for the disk; the file is flushed once, then switched to
    /// write-ahead logging like any store, and linked at `path` only if nothing is there (`link(2)` never replaces a
    /// file). When `build` throws or returns nil, or linking finds a store, the temporary file is removed.
    ///
    /// - Parameter checkingForeignKeys: Whether SQLite checks each row's references while `build` writes them: false
    ///   for a caller that has resolved them all itself. Connections that open the store afterwards check them as
    ///   always.
    /// - Throws: What `build` throws; ``StoreError`` of kind `io` when the file cannot be flushed or linked.
    /// - Complexity: What `build` costs, plus one flush of the file.
    package static func create<Result>(
        atomicallyAt path: String, model: EntityModel, checkingForeignKeys: Bool = true, _ build: (SQLiteStore) throws -> Result?
    ) throws -> AtomicCreation<Result> {
        removeAbandonedTemporaries(of: path)
        let temporary = "\(path)\(temporaryInfix)\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
        }
        // The store is closed when this returns: nothing may have it open once it is linked.
        func buildStore() throws -> Result? {
            var options = Options()
            options.connection.usesWriteAheadLog = false
            // 8 KiB pages, set before the file has any: a store filled at once takes its rows about a fifth faster
            // than with SQLite's 4 KiB (fewer page splits and cells per byte), and reads them as well afterwards.
            do {
                let empty = try SQLiteConnection(path: temporary, configuration: options.connection)
                try empty.execute(sql: "PRAGMA page_size = 8192; VACUUM")
            }
            let store = try SQLiteStore(path: temporary, model: model, options: options)
            try store.connection.execute(sql: "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
            // SQLite's page cache stays at its 2 MiB: a larger one keeps the new pages in memory until the commit (32
            // MiB of them cost a 100,000-link chain 2-4 MB of peak), and whole first launches were no faster with it.
            // Outside the transaction, where SQLite ignores it; for this connection only, which closes with the build.
            if !checkingForeignKeys { try store.connection.execute(sql: "PRAGMA foreign_keys = OFF") }
            guard let result = try store.connection.inTransaction(.immediate, { try build(store) }) else { return nil }
            try store.connection.execute(sql: "PRAGMA journal_mode = WAL")
            return result
        }
        let built: Result?
        do {
            built = try buildStore()
        } catch let error as DatabaseError where error.path == temporary {
            // The store asked for is what cannot be made: its path says which, not the temporary one beside it.
            throw error.with(path: path)
        }
        guard let result = built else { return .abandoned }
        try flush(temporary)
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return .preempted }
            throw StoreError(.io, path: path, "cannot move the new store into place: \(String(cString: strerror(errno)))")
        }
        // The new directory entry must last too; like SQLite, a directory that cannot be flushed (some file systems
        // refuse) is not an error.
        try? flush((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
        return .created(result)
    }

    /// What names a temporary store beside `path`: `path`, this, the creating process's id, `-`, a random number.
    private static let temporaryInfix = ".creating-"

    /// Removes the temporary stores beside `path` of processes that are gone: a creation killed part way leaves its
    /// file behind (killed after linking, a second name of the store itself), and nothing else would ever remove it.
    ///
    /// - Complexity: O(*n*) in the number of entries of the store's directory.
    package static func removeAbandonedTemporaries(of path: String) {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + temporaryInfix
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            unlink(url.deletingLastPathComponent().appendingPathComponent(name).path)
        }
    }

    /// Waits until the file's (or directory's) contents are on the disk.
    private static func flush(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw StoreError(.io, path: path, "cannot write the new store to disk: \(reason)")
        }
        close(descriptor)
    }
}
