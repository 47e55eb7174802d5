import Foundation
import PostgreSQLTestServer
import SeedKitSupport
import Testing

/// `seed --store postgresql://…` end to end, the real binary against a real server: the same rows, ledger and export
/// as an SQLite store of the same templates.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable))
struct SeedPostgreSQLCommandTests {
    /// A new database's URL, as a user would type it.
    private static func databaseURL() throws -> String {
        try PostgreSQLTestServer.shared().makeDatabase().url.description
    }

    /// The export of the templates in `directory` seeded into a new SQLite store there.
    private static func sqliteExport(in directory: URL) throws -> String {
        let seeded = try Fixtures.runSeed(["--quiet", "--store", "reference.sqlite"], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        return try Fixtures.runSeed(["export", "--store", "reference.sqlite"], in: directory).stdout
    }

    @Test func theSampleSetExportsTheSameBytesAsFromSQLite() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let url = try Self.databaseURL()
        let seeded = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let export = try Fixtures.runSeed(["export", "--store", url], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(!export.stdout.isEmpty)
        #expect(export.stdout == (try Self.sqliteExport(in: directory)))
        let drift = try Fixtures.runSeed(["diff", "--templates", "Templates", "--store", url], in: directory)
        #expect(drift.status == 0, "\(drift.stdout)\(drift.stderr)")
        let status = try Fixtures.runSeed(["status", "--store", url], in: directory)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains(url))
    }

    @Test func aSecondRunIsUnchanged() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let url = try Self.databaseURL()
        #expect(try Fixtures.runSeed(["--quiet", "--store", url], in: directory).status == 0)
        let again = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("seed: unchanged — \(url) already holds Templates (5 files"), "\(again.stdout)\(again.stderr)")
    }

    @Test func concurrentSeedersApplyOnce() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let url = try Self.databaseURL()
        let results = Locked<[CommandResult]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let result = (try? Fixtures.runSeed(["--store", url], in: directory))
                ?? CommandResult(status: -1, stdout: "", stderr: "did not run")
            results.withLock { $0.append(result) }
        }
        let all = results.withLock { $0 }
        #expect(all.allSatisfy { $0.status == 0 }, "\(all.map(\.stderr))")
        #expect(all.filter { $0.stdout.hasPrefix("seed: unchanged") }.count == 3, "\(all.map(\.stdout))")
        #expect(try Fixtures.runSeed(["export", "--store", url], in: directory).stdout == Self.sqliteExport(in: directory))
    }

    @Test func aChangedTemplateUpdatesTheStore() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let url = try Self.databaseURL()
        #expect(try Fixtures.runSeed(["--quiet", "--store", url], in: directory).status == 0)
        try Fixtures.write(
            #"[{"class": "Department", "name": "Engineering", "budget": "1300000.25"}, {"class": "Department", "name": "Sales", "budget": "480000.00"}]"#,
            to: "Templates/departments.template", in: directory)
        try Fixtures.write(#"{"class": "Project", "code": "ZEUS", "title": "Zeus"}"#, to: "Templates/projects/zeus.template", in: directory)
        let updated = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout.hasPrefix("seed: applied"), "\(updated.stdout)")
        let export = try Fixtures.runSeed(["export", "--store", url], in: directory).stdout
        #expect(export.contains("1300000.25") && export.contains("ZEUS"))
        #expect(export == (try Self.sqliteExport(in: directory)))
    }

    @Test(.enabled(if: PostgreSQLTestServer.isThrowaway, "needs the throwaway cluster's role with a password"))
    func aWrongPasswordExitsTwoNamingTheServerButNotThePassword() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let server = try PostgreSQLTestServer.shared()
        let role = try #require(server.passwordRole)
        let host = try #require(server.url.hosts.first)
        let address = "\(host.name):\(host.port ?? 5432)"
        let url = "postgresql://\(role.user):not-\(role.password)@\(address)/postgres"
        for arguments in [["--store", url], ["status", "--store", url], ["export", "--store", url]] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            #expect(result.status == 2)
            #expect(result.stderr.contains("could not connect to PostgreSQL at \(address)"), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(role.password))
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test func aMissingDatabaseExitsTwoNamingIt() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        var url = try PostgreSQLTestServer.shared().url
        url.database = "seedkit_no_such_database"
        for arguments in [["--store", url.description], ["status", "--store", url.description]] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            #expect(result.status == 2)
            #expect(result.stderr.contains("seedkit_no_such_database"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test func aDryRunIsRefusedWritingNothing() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let database = try PostgreSQLTestServer.shared().makeDatabase()
        let result = try Fixtures.runSeed(["--dry-run", "--store", database.url.description], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("seed: --dry-run needs a copy of the store"), "\(result.stderr)")
        let tables = try database.connect().query(sql: "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        #expect(try tables[0].int64(at: 0) == 0)
    }
}
