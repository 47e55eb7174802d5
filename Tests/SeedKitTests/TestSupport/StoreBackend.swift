import Foundation
import PostgreSQLTestServer
import SeedKit
import SeedKitPostgreSQL
import SeedKitPostgreSQLStore
import Testing

/// A kind of store that the store suites run the same checks on.
///
///     @Test(arguments: StoreBackend.available)
///     func savesRoundTrip(_ backend: StoreBackend) throws {
///         let storage = try backend.makeStorage()
///         let context = try storage.newContext(model)
///         // … save, then read back through try storage.newContext(model), a store opened anew
///     }
enum StoreBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL

    /// SQLite always; PostgreSQL when a test server is available (otherwise one printed line says how to enable it).
    static var available: [StoreBackend] {
        PostgreSQLTestServer.isAvailable ? [.sqlite, .postgreSQL] : [.sqlite]
    }

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// New, empty storage of this kind: a temporary file, or a new database on the test server.
    func makeStorage() throws -> StoreStorage {
        switch self {
        case .sqlite: StoreStorage(backend: self, location: try Fixtures.temporaryStorePath())
        case .postgreSQL:
            StoreStorage(backend: self, location: try PostgreSQLTestServer.shared().makeDatabase().url.description)
        }
    }
}

/// Where a test's store lives; each ``open(_:)`` is a new store on it, as a relaunched app opens its store.
struct StoreStorage {
    let backend: StoreBackend
    /// The SQLite file's path or the database's URL.
    let location: String

    /// A store of `model` on the storage, migrating the one there (dropping what `model` lacks when
    /// `allowsDataLoss`).
    func open(_ model: EntityModel, allowsDataLoss: Bool = false) throws -> any PersistentStore {
        switch backend {
        case .sqlite:
            var options = SQLiteStore.Options()
            options.allowsDataLoss = allowsDataLoss
            return try SQLiteStore(path: location, model: model, options: options)
        case .postgreSQL:
            var options = PostgreSQLStore.Options()
            options.allowsDataLoss = allowsDataLoss
            return try PostgreSQLStore(url: location, model: model, options: options)
        }
    }

    /// A context over a new store on the storage.
    func newContext(_ model: EntityModel) throws -> ObjectContext {
        ObjectContext(model: model, persistentStore: try open(model))
    }

    /// Runs `sql` (which both dialects read alike) through a connection of its own, behind every context's back.
    func execute(sql: String) throws {
        switch backend {
        case .sqlite: try SQLiteConnection(path: location).execute(sql: sql)
        case .postgreSQL: try PostgreSQLConnection(url: location).execute(sql: sql)
        }
    }

    /// The first column of each row `sql` reads (which both dialects read alike), as text, through a connection of
    /// its own.
    func strings(sql: String) throws -> [String] {
        switch backend {
        case .sqlite:
            let connection = try SQLiteConnection(path: location)
            let statement = try connection.prepare(sql: sql)
            var values: [String] = []
            while try statement.step() { values.append(statement.text(at: 0)) }
            return values
        case .postgreSQL:
            return try PostgreSQLConnection(url: location).query(sql: sql).map { try $0.text(at: 0) ?? "NULL" }
        }
    }

    /// The columns of a table, sorted: a date's two on PostgreSQL.
    func columns(of table: String) throws -> [String] {
        switch backend {
        case .sqlite: try strings(sql: "SELECT name FROM pragma_table_info('\(table)')").sorted()
        case .postgreSQL:
            try strings(sql: "SELECT column_name::text FROM information_schema.columns WHERE table_name = '\(table)'").sorted()
        }
    }

    /// The names of the indexes of the store's tables that SeedKit makes (not primary keys), sorted.
    func indexNames() throws -> [String] {
        switch backend {
        case .sqlite:
            try strings(sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").sorted()
        case .postgreSQL:
            try strings(sql: """
                SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND indexname NOT LIKE '%_pkey'
                """).sorted()
        }
    }

    /// Whether `error` is the store's refusal of a second row with a stored identity.
    func isDuplicateIdentity(_ error: any Error) -> Bool {
        switch backend {
        case .sqlite: (error as? DatabaseError)?.extendedResultCode == .constraintUnique
        case .postgreSQL: (error as? PostgreSQLError)?.kind == .uniqueViolation
        }
    }
}
