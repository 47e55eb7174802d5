import Foundation
import SeedKitModel
import SeedKitObjects
import SeedKitStore
#if canImport(SeedKitPostgreSQLStore)
import SeedKitPostgreSQLStore
#endif

extension Seeder {
    /// How messages name the store at `path`: the path itself, or a store URL with its password as `***`.
    package static func storeDisplayName(_ path: String) -> String {
        #if canImport(SeedKitPostgreSQLStore)
        if isServerURL(path), let redacted = try? PostgreSQLStore.redacted(url: path) { return redacted }
        #endif
        return path
    }

    /// What is wrong with a PostgreSQL store URL, or nil; the message never repeats a password.
    static func problem(withServerURL url: String) -> String? {
        #if canImport(SeedKitPostgreSQLStore)
        do {
            _ = try PostgreSQLStore.redacted(url: url)
            return nil
        } catch {
            return "is not a valid PostgreSQL URL: \(error)"
        }
        #else
        return nil
        #endif
    }

    /// The PostgreSQL store at `url`, opened with the model it holds, for reading.
    ///
    /// - Throws: ``SeedError`` for a database that holds no store, or a platform without libpq; the server's errors.
    package static func openServerStore(url: String) throws -> any RowStore {
        #if canImport(SeedKitPostgreSQLStore)
        guard let model = try PostgreSQLStore.storedModel(url: url) else {
            throw SeedError("no store at \(try PostgreSQLStore.redacted(url: url)): the database holds no SeedKit tables")
        }
        return try PostgreSQLStore(url: url, model: model, options: deferringSchemaChanges())
        #else
        throw Self.serverStoresUnavailable
        #endif
    }
}

#if canImport(SeedKitPostgreSQLStore)
extension Seeder {
    /// The options of a store a run opens, leaving its schema to the run's transaction.
    static func deferringSchemaChanges(_ options: SeedOptions = SeedOptions()) -> PostgreSQLStore.Options {
        var storeOptions = PostgreSQLStore.Options()
        storeOptions.allowsDataLoss = options.allowsDataLoss
        storeOptions.defersSchemaChanges = true
        return storeOptions
    }
}
#endif

/// Seeding a PostgreSQL store, which many hosts share, runs the same stages as a file's (see ``Seeder``), written in
/// one transaction that holds the store's advisory lock (``PostgreSQLStore/write(_:)``) before the ledger is read, so
/// that of seeders started at once the first applies and the others find its fingerprint. A new store's schema is
/// created in that transaction; a first launch loads the rows with COPY, building the indexes after them.
///
///     let report = try Seeder(storePath: "postgresql://app@db.internal/catalog").seed(templates: templatesURL)
extension Seeder {
    /// Why a PostgreSQL store URL can't be used on this platform.
    static var serverStoresUnavailable: SeedError {
        SeedError("PostgreSQL stores need libpq, which SeedKit has on Linux, macOS and Windows only")
    }

    /// The store at the URL ``storePath`` with the model it holds; nil when the database holds no store.
    ///
    /// - Throws: The server's errors (unreachable, a refused login, a missing database), which name the host and
    ///   database but never the password; ``SeedError`` on a platform without libpq.
    func existingServerStore() throws -> (any RowStore)? {
        #if canImport(SeedKitPostgreSQLStore)
        return try PostgreSQLStore.storedModel(url: storePath).map {
            try PostgreSQLStore(url: storePath, model: $0, options: Self.deferringSchemaChanges())
        }
        #else
        throw Self.serverStoresUnavailable
        #endif
    }

    /// The preview of a dry run of the PostgreSQL store at ``storePath``: a store of `model` on a transaction that is
    /// never committed, for the run to apply to (creating or migrating the schema in it), and a copy in memory of the
    /// store `found` as that transaction first sees it (an empty store when the database holds none).
    func serverPreview(found: (any RowStore)?, model: EntityModel, options: SeedOptions) throws -> SeedPreview {
        #if canImport(SeedKitPostgreSQLStore)
        let after = try PostgreSQLStore(url: storePath, model: model, options: Self.deferringSchemaChanges(options))
        let snapshot = try after.beginDiscardedWrite()
        do {
            let before: SQLiteStore
            if let found = found as? PostgreSQLStore {
                // Copied before the run writes: its changes to the schema would lock the tables for any other reader.
                try found.beginRead(at: snapshot)
                defer { found.discardTransaction() }
                before = try SeedPreview.copy(of: found)
            } else {
                before = try SQLiteStore.inMemory(model: model)
            }
            return SeedPreview(before: before, after: after, release: after.discardTransaction)
        } catch {
            after.discardTransaction()
            throw error
        }
        #else
        throw Self.serverStoresUnavailable
        #endif
    }

    /// The store a run writes to at the URL ``storePath``: the one found, when it holds `model`, else one whose schema
    /// the run's transaction creates or migrates.
    func serverStoreForRun(found: (any RowStore)?, model: EntityModel, options: SeedOptions) throws -> any RowStore {
        #if canImport(SeedKitPostgreSQLStore)
        if let found = found as? PostgreSQLStore, found.model == model { return found }
        return try PostgreSQLStore(url: storePath, model: model, options: Self.deferringSchemaChanges(options))
        #else
        throw Self.serverStoresUnavailable
        #endif
    }
}
