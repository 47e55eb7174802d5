import Foundation
import SeedKitModel
import SeedKitSQLite
import SeedKitObjects
import SeedKitStore

/// What a dry run would change in a store: the store as it was, and the store with the templates applied (see
/// ``Seeder/preview(templates:options:)``). The store itself is never written.
///
///     let (report, preview) = try Seeder(storePath: "seed.sqlite").preview(templates: templatesURL)
///     if let preview { print(try GraphDiff(preview).text()) }       // what `seed --dry-run` shows
///
/// Both sides are stores the export reads alike, whatever the backend. An SQLite file is copied twice to temporary
/// files, removed when the preview goes; a store that does not exist yet is previewed in memory. A PostgreSQL store is
/// applied to in a transaction that is never committed, open until the preview goes (holding, like any writer, the
/// locks of what it changed), and its rows as they were are copied into a store in memory first. Like the stores it
/// holds, a preview is confined to one isolation domain.
package final class SeedPreview {
    /// The store's objects before the run.
    package let before: any RowStore
    /// The store's objects after the run.
    package let after: any RowStore
    /// Lets go of what the preview holds: the copies' files, the transactions.
    private let release: () -> Void

    package init(before: any RowStore, after: any RowStore, release: @escaping () -> Void = {}) {
        self.before = before
        self.after = after
        self.release = release
    }

    /// Copies of the SQLite store at `path`, the second a copy of the first so both hold the same state; `open` opens
    /// the copy the run applies to, as the seeder opens its stores.
    convenience init(copying path: String, busyTimeout: Duration, open: (String) throws -> SQLiteStore) throws {
        let directory = FileManager.default.temporaryDirectory
        let name = "seed-dry-run-\(UUID().uuidString)"
        let beforePath = directory.appendingPathComponent(name + "-before.sqlite").path
        let afterPath = directory.appendingPathComponent(name + "-after.sqlite").path
        let remove = { Self.remove([beforePath, afterPath]) }
        do {
            var configuration = SQLiteConnection.Configuration()
            configuration.openMode = .readOnly
            configuration.busyTimeout = busyTimeout
            let original = try SQLiteConnection(path: path, configuration: configuration)
            try original.execute(sql: "VACUUM INTO ?", arguments: [.text(beforePath)])
            try FileManager.default.copyItem(atPath: beforePath, toPath: afterPath)
            var options = SQLiteStore.Options()
            options.connection.openMode = .readOnly
            self.init(before: try SQLiteStore(existingAt: beforePath, options: options), after: try open(afterPath), release: remove)
        } catch {
            remove()
            throw error
        }
    }

    /// An empty store and the store the run fills, both in memory.
    convenience init(empty model: EntityModel) throws {
        self.init(before: try SQLiteStore.inMemory(model: model), after: try SQLiteStore.inMemory(model: model))
    }

    /// A store in memory holding `store`'s rows and join lists, as they are in the transaction it reads in.
    ///
    /// - Complexity: O(*n*) in the number of rows.
    static func copy(of store: any RowStore) throws -> SQLiteStore {
        let copy = try SQLiteStore.inMemory(model: store.model)
        let model = store.model
        var joinTables: [String: Bool] = [:]
        for entity in model.entities {
            for relationship in entity.relationships {
                if case .joinTable(let name, isOwner: true, let isOrdered) = model.linkStorage(of: relationship, in: entity) {
                    joinTables[name] = isOrdered
                }
            }
        }
        func copyRows() throws {
            for root in model.entities where root.parentName == nil {
                var batches: [String: RowBatch] = [:]
                try store.forEachRow(root: root.name) { row in
                    guard let entity = model.entity(named: row.entity) else { return }
                    batches[entity.name, default: RowBatch(entity: entity)].append(
                        rowID: row.rowID, values: row.values, targets: row.targets, positions: row.positions)
                }
                for batch in batches.values { try copy.insert(batch) }
            }
            for (table, isOrdered) in joinTables {
                let members = try store.joinMembers(table: table, sources: nil, isOrdered: isOrdered)
                try copy.replaceJoinMembers(
                    table: table, members: members.map { ($0.key, $0.value) }, isOrdered: isOrdered, sourcesAreNew: true)
            }
        }
        try copy.write { try copy.bulkLoad(copyRows) }
        return copy
    }

    deinit {
        release()
    }

    private static func remove(_ paths: [String]) {
        for path in paths {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
    }
}
