import Foundation
import SeedKitModel
import SeedKitObjects
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
        return try PostgreSQLStore(url: url, model: model, defersSchemaChanges: true)
        #else
        throw SeedError("PostgreSQL stores need libpq, which SeedKit has on Linux, macOS and Windows only")
        #endif
    }
}

#if canImport(SeedKitPostgreSQLStore)

/// Seeding a PostgreSQL store, which many hosts share: the same stages as a file's, written in one transaction that
/// holds the store's advisory lock (``PostgreSQLStore/write(_:)``) before the ledger is read, so that of seeders
/// started at once the first applies and the others find its fingerprint.
///
///     let report = try Seeder(storePath: "postgresql://app@db.internal/catalog").seed(templates: templatesURL)
extension Seeder {
    /// Seeds the store at the URL ``storePath``: its schema is created in the run's transaction when the database
    /// has none, and a first launch loads the rows with COPY, building the indexes after them.
    ///
    /// - Throws: ``SeedError`` for a dry run, which needs a copy of the store; the server's errors (unreachable, a
    ///   refused login, a missing database), which name the host and database but never the password.
    func seedServerStore(templates: URL, options: SeedOptions) throws -> SeedReport {
        if options.dryRun {
            throw SeedError(
                "--dry-run needs a copy of the store, which a PostgreSQL store does not make yet: run `seed diff` to "
                    + "see what the templates would change")
        }
        let repeatable = !options.force && !options.prune
        let existing = try PostgreSQLStore.storedModel(url: storePath).map {
            try PostgreSQLStore(url: storePath, model: $0, defersSchemaChanges: true)
        }
        let summary = repeatable ? existing.flatMap { try? SeedLedger.summary(from: $0) } : nil
        var input = try SeedInput(templates: templates, options: options, known: summary.map(Self.knownFiles) ?? [:])
        var report = input.report(options: options)
        guard let model = input.model else {
            report.issues = input.issues
            return report
        }
        // The usual later launch: the ledger's fingerprint, read without the lock, says the set is there already.
        if let summary, input.issues.isEmpty, summary.fingerprint == report.fingerprint {
            return Self.unchangedReport(report, summary: summary)
        }
        if let set = input.set, !set.isRead {
            input = try SeedInput(templates: templates, options: options)
            report = input.report(options: options)
        }
        let read = input.read(schema: SeedSchema(model: model), progress: options.progress)
        input.set = nil
        let store = try existing.flatMap { $0.model == model ? $0 : nil }
            ?? PostgreSQLStore(url: storePath, model: model, defersSchemaChanges: true)
        return try apply(read, input: input, report: report, options: options, to: store, prepareSchema: store.prepareSchema)
    }

    /// The ledger of the store at the URL ``storePath``, without its objects.
    func serverLedger() throws -> SeedLedger {
        do {
            return try SeedLedger.summary(from: Self.openServerStore(url: storePath))
        } catch let error as LedgerStorageError {
            throw SeedLedger.unreadable(error.reason)
        }
    }
}
#endif
