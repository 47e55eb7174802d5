import Foundation
import SeedKitModel
import SeedKitSQLite
import SeedKitStore

/// What a dry run would change in a store: a copy of the store as it was, and a copy with the templates applied
/// (see ``Seeder/preview(templates:options:)``). The store itself is never written.
///
///     let (report, preview) = try Seeder(storePath: "seed.sqlite").preview(templates: templatesURL)
///     if let preview { print(try GraphDiff(preview).text()) }       // what `seed --dry-run` shows
///
/// The copies are temporary files, removed when the preview goes; a store that does not exist yet is previewed in
/// memory. Like the stores it holds, a preview is confined to one isolation domain.
package final class SeedPreview {
    /// The store's objects before the run.
    package let before: SQLiteStore
    /// The store's objects after the run.
    package let after: SQLiteStore
    private let temporaryPaths: [String]

    /// Copies of the store at `path`, the second a copy of the first so both hold the same state; `open` opens the
    /// copy the run applies to, as the seeder opens its stores.
    init(copying path: String, busyTimeout: Duration, open: (String) throws -> SQLiteStore) throws {
        let directory = FileManager.default.temporaryDirectory
        let name = "seed-dry-run-\(UUID().uuidString)"
        let beforePath = directory.appendingPathComponent(name + "-before.sqlite").path
        let afterPath = directory.appendingPathComponent(name + "-after.sqlite").path
        temporaryPaths = [beforePath, afterPath]
        do {
            var configuration = SQLiteConnection.Configuration()
            configuration.openMode = .readOnly
            configuration.busyTimeout = busyTimeout
            let original = try SQLiteConnection(path: path, configuration: configuration)
            try original.execute(sql: "VACUUM INTO ?", arguments: [.text(beforePath)])
            try FileManager.default.copyItem(atPath: beforePath, toPath: afterPath)
            var options = SQLiteStore.Options()
            options.connection.openMode = .readOnly
            before = try SQLiteStore(existingAt: beforePath, options: options)
            after = try open(afterPath)
        } catch {
            Self.remove(temporaryPaths)
            throw error
        }
    }

    /// An empty store and the store the run fills, both in memory.
    init(empty model: EntityModel) throws {
        before = try SQLiteStore.inMemory(model: model)
        after = try SQLiteStore.inMemory(model: model)
        temporaryPaths = []
    }

    deinit {
        Self.remove(temporaryPaths)
    }

    private static func remove(_ paths: [String]) {
        for path in paths {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
    }
}
