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

    func open(_ model: EntityModel) throws -> any PersistentStore {
        switch backend {
        case .sqlite: try SQLiteStore(path: location, model: model)
        case .postgreSQL: try PostgreSQLStore(url: location, model: model)
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

    /// Whether `error` is the store's refusal of a second row with a stored identity.
    func isDuplicateIdentity(_ error: any Error) -> Bool {
        switch backend {
        case .sqlite: (error as? DatabaseError)?.extendedResultCode == .constraintUnique
        case .postgreSQL: (error as? PostgreSQLError)?.kind == .uniqueViolation
        }
    }
}
