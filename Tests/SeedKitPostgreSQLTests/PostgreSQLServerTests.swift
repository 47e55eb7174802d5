import PostgreSQLTestServer
import SeedKitPostgreSQL
import Testing

/// The suites that need a PostgreSQL server, nested here so that where there is none they are all skipped, and one
/// line says how to enable them (``PostgreSQLTestServer/isAvailable`` prints it).
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable))
enum PostgreSQLServerTests {
    /// A new database of the test's own on the shared test server.
    static func makeDatabase() throws -> PostgreSQLTestDatabase {
        try PostgreSQLTestServer.shared().makeDatabase()
    }
}
