import Foundation
import PostgreSQLTestServer
import SeedKitModel
import Testing

/// The suites that need a PostgreSQL server, nested here so that where there is none they are all skipped, and one
/// line says how to enable them (``PostgreSQLTestServer/isAvailable`` prints it).
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable))
enum PostgreSQLStoreServerTests {
    /// A new database of the test's own on the shared test server.
    static func makeDatabase() throws -> PostgreSQLTestDatabase {
        try PostgreSQLTestServer.shared().makeDatabase()
    }

    /// The repository's root directory: this file is Tests/SeedKitPostgreSQLStoreTests/….
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The model of the sample templates: subentities, dates, decimals, an ordered to-many, join tables.
    static func sampleModel() throws -> EntityModel {
        try EntityModel(contentsOf: packageRoot.appendingPathComponent("Templates/model.json"))
    }
}
