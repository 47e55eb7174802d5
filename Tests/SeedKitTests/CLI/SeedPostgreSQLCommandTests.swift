import Foundation
import PostgreSQLTestServer
import SeedKit
import SeedKitPostgreSQL
@testable import SeedKitSeeding
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

    /// The files under `directory`, by relative path.
    private static func files(under directory: URL) throws -> [String: Data] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
        var files: [String: Data] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// `seed export --format templates` of a PostgreSQL store writes the files an SQLite store of the same data gives,
    /// and they seed back to the same store.
    @Test func aTemplateExportIsSQLitesAndSeedsBack() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let url = try Self.databaseURL()
        #expect(try Fixtures.runSeed(["--quiet", "--store", url], in: directory).status == 0)
        let exported = try Fixtures.runSeed(["export", "--format", "templates", "--output", "Snapshot", "--store", url], in: directory)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.hasPrefix("seed: wrote 8 template files and model.json to Snapshot"), "\(exported.stderr)")
        let reference = try Self.sqliteExport(in: directory)
        let fromSQLite = try Fixtures.runSeed(
            ["export", "--format", "templates", "--output", "FromSQLite", "--store", "reference.sqlite"], in: directory)
        #expect(fromSQLite.status == 0, "\(fromSQLite.stderr)")
        let snapshot = try Self.files(under: directory.appendingPathComponent("Snapshot"))
        let sqliteSnapshot = try Self.files(under: directory.appendingPathComponent("FromSQLite"))
        #expect(snapshot.count == 9 && snapshot == sqliteSnapshot)
        let again = try Self.databaseURL()
        #expect(try Fixtures.runSeed(["--quiet", "--templates", "Snapshot", "--store", again], in: directory).status == 0)
        #expect(try Fixtures.runSeed(["export", "--store", again], in: directory).stdout == reference)
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

    /// A later launch of a server's store goes the way a file's does: only the file that changed is read, and the
    /// store ends as a fresh seed of the new templates would leave it.
    @Test func aLaterLaunchReadsOnlyTheChangedFiles() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let templates = directory.appendingPathComponent("Templates")
        let seeder = Seeder(storePath: try Self.databaseURL())
        #expect(try seeder.seed(templates: templates).status == .applied)
        try Fixtures.write(#"{"class": "Project", "code": "ZEUS", "title": "Zeus"}"#, to: "Templates/projects/zeus.template", in: directory)
        let later = try seeder.seed(templates: templates)
        #expect(later.status == .applied && later.fileCount == 6)
        #expect(later.readFileCount == 1, "read \(later.readFileCount) of \(later.fileCount) files")
        let export = try Fixtures.runSeed(["export", "--store", seeder.storePath], in: directory).stdout
        let reference = try Self.sqliteExport(in: directory)
        #expect(export.contains("ZEUS") && export == reference)
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

    /// `seed --dry-run` of a store, as the user reads it: the store's name is the one thing that differs by backend.
    private static func dryRun(_ store: String, in directory: URL, _ more: [String] = []) throws -> String {
        let result = try Fixtures.runSeed(["--dry-run", "--store", store] + more, in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.replacingOccurrences(of: store, with: "STORE")
    }

    /// The tables of the database's store: none before the first seed.
    private static func tableCount(_ database: PostgreSQLTestDatabase) throws -> Int64? {
        try database.connect().query(sql: "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")[0].int64(at: 0)
    }

    @Test func aDryRunOfANewDatabaseShowsWhatSQLiteShowsAndCreatesNothing() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let database = try PostgreSQLTestServer.shared().makeDatabase()
        let shown = try Self.dryRun(database.url.description, in: directory)
        #expect(shown.hasPrefix("seed: would apply 5 template files from Templates to STORE\n"), "\(shown)")
        #expect(shown.contains("plan, as seed diff shows it:\n+ Department[name=Engineering]"), "\(shown)")
        #expect(shown == (try Self.dryRun("new.sqlite", in: directory)))
        #expect(try Self.tableCount(database) == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.sqlite").path))
        let json = try Fixtures.runSeed(["--dry-run", "--json", "--store", database.url.description], in: directory)
        #expect(json.stdout.contains(#""plan":"#), "\(json.stdout)")
    }

    /// A dry run of a seeded store applies the changed set in a transaction that is rolled back: the plan is the one
    /// an SQLite store of the same data shows, and the store, its ledger and its model stay as they were, a model
    /// change included.
    @Test func aDryRunOfAChangedSetShowsWhatSQLiteShowsAndWritesNothing() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        let url = try Self.databaseURL()
        #expect(try Fixtures.runSeed(["--quiet", "--store", url], in: directory).status == 0)
        #expect(try Fixtures.runSeed(["--quiet", "--store", "reference.sqlite"], in: directory).status == 0)
        let before = try Fixtures.runSeed(["export", "--store", url], in: directory).stdout
        let model = try String(contentsOf: directory.appendingPathComponent("Templates/model.json"), encoding: .utf8)
        try Fixtures.write(
            model.replacingOccurrences(of: #""started": "date?""#, with: #""started": "date?", "phase": "string?""#),
            to: "Templates/model.json", in: directory)
        try Fixtures.write(
            #"[{"class": "Department", "name": "Engineering", "budget": "1300000.25"}, {"class": "Department", "name": "Sales", "budget": "480000.00"}]"#,
            to: "Templates/departments.template", in: directory)
        try Fixtures.write(
            #"{"class": "Project", "code": "ZEUS", "title": "Zeus", "phase": "beta"}"#, to: "Templates/projects/zeus.template",
            in: directory)
        let shown = try Self.dryRun(url, in: directory)
        #expect(shown.hasPrefix("seed: would apply 6 template files"), "\(shown)")
        #expect(shown.contains("~ Department[name=Engineering].budget:"), "\(shown)")
        #expect(shown.contains("+ Project[code=ZEUS]"), "\(shown)")
        #expect(shown == (try Self.dryRun("reference.sqlite", in: directory)))
        #expect(try Fixtures.runSeed(["export", "--store", url], in: directory).stdout == before)
        let applied = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(applied.stdout.hasPrefix("seed: applied 6 template files"), "\(applied.stdout)\(applied.stderr)")
        #expect(try Fixtures.runSeed(["export", "--store", url], in: directory).stdout == (try Self.sqliteExport(in: directory)))
    }
}

/// `seed --store postgresql://…` with a changed model: the store migrated in the seed's transaction by the rules of
/// an SQLite store, ending as a fresh seed of the new set would; nothing written when the run fails.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable))
struct SeedPostgreSQLMigrationTests {
    /// The sample set seeded into a new database, its URL, and the set's model file's text.
    private static func seededSample() throws -> (URL, String, String) {
        let directory = try Fixtures.sampleTemplatesCopy()
        let url = try PostgreSQLTestServer.shared().makeDatabase().url.description
        let seeded = try Fixtures.runSeed(["--quiet", "--store", url], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let model = try String(contentsOf: directory.appendingPathComponent("Templates/model.json"), encoding: .utf8)
        return (directory, url, model)
    }

    /// The export of the templates in `directory` seeded into a new SQLite store.
    private static func freshExport(in directory: URL) throws -> String {
        let path = "fresh-\(UUID().uuidString).sqlite"
        #expect(try Fixtures.runSeed(["--quiet", "--store", path], in: directory).status == 0)
        return try Fixtures.runSeed(["export", "--store", path], in: directory).stdout
    }

    @Test func addedAndRenamedPropertiesMigrateAsTheSetSeeds() throws {
        let (directory, url, model) = try Self.seededSample()
        // Project.title renamed through an alias, a property with a default added, a date beside it.
        try Fixtures.write(
            model.replacingOccurrences(
                of: #""title": "string", "started": "date?""#,
                with: #""name": {"type": "string", "aliases": ["title"]}, "started": "date?", "phase": {"type": "integer", "default": 1}, "due": "date?""#),
            to: "Templates/model.json", in: directory)
        let projects = try String(contentsOf: directory.appendingPathComponent("Templates/projects/projects.template"), encoding: .utf8)
        try Fixtures.write(
            projects.replacingOccurrences(of: #""title""#, with: #""name""#)
                .replacingOccurrences(of: #""code": "ORBIT","#, with: #""code": "ORBIT", "due": "2026-03-01T12:00:00.123456789Z","#),
            to: "Templates/projects/projects.template", in: directory)
        let migrated = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("Project            0        1          1"), "\(migrated.stdout)")
        let export = try Fixtures.runSeed(["export", "--store", url], in: directory).stdout
        #expect(export.contains(#""name":"Orbit: seed data tooling""#) && export.contains(#""phase":1"#), "\(export)")
        #expect(export == (try Self.freshExport(in: directory)))
        #expect(try Fixtures.runSeed(["--store", url], in: directory).stdout.hasPrefix("seed: unchanged"))
    }

    @Test func aDropIsRefusedWritingNothingUntilDataLossIsAllowed() throws {
        let (directory, url, model) = try Self.seededSample()
        let before = try Fixtures.runSeed(["export", "--store", url], in: directory).stdout
        try Fixtures.write(
            model.replacingOccurrences(of: #", "postcode": "string?""#, with: ""), to: "Templates/model.json", in: directory)
        let engineering = try String(contentsOf: directory.appendingPathComponent("Templates/staff/engineering.template"), encoding: .utf8)
        try Fixtures.write(
            engineering.replacingOccurrences(of: #", "postcode": "BS1 4RN""#, with: ""), to: "Templates/staff/engineering.template",
            in: directory)
        let refused = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.hasPrefix("seed: Address: postcode: dropping the column would lose its values"), "\(refused.stderr)")
        #expect(refused.stderr.contains("; run again with --allow-data-loss to drop it"), "\(refused.stderr)")
        #expect(try Fixtures.runSeed(["export", "--store", url], in: directory).stdout == before)
        let allowed = try Fixtures.runSeed(["--allow-data-loss", "--store", url], in: directory)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try Fixtures.runSeed(["export", "--store", url], in: directory).stdout == (try Self.freshExport(in: directory)))
    }

    /// A run whose templates have problems writes nothing: the migration of its changed model is rolled back too.
    @Test func invalidTemplatesDoNotMigrate() throws {
        let (directory, url, model) = try Self.seededSample()
        let before = try Fixtures.runSeed(["export", "--store", url], in: directory).stdout
        try Fixtures.write(
            model.replacingOccurrences(of: #""started": "date?""#, with: #""started": "date?", "phase": "string?""#),
            to: "Templates/model.json", in: directory)
        try Fixtures.write(#"{"class": "Department", "name": 7}"#, to: "Templates/bad.template", in: directory)
        #expect(try Fixtures.runSeed(["--store", url], in: directory).status == 1)
        #expect(try Fixtures.runSeed(["export", "--store", url], in: directory).stdout == before)
        let columns = try PostgreSQLConnection(url: url).query(
            sql: "SELECT count(*) FROM information_schema.columns WHERE table_name = 'Project' AND column_name = 'phase'")
        #expect(try columns[0].int64(at: 0) == 0)
    }
}

/// `seed --store postgresql://…` when the server fails it mid-run: the real binary, a real server, nothing half-written.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable))
struct SeedPostgreSQLFaultTests {
    /// The sample templates seeded into a new database, that database, and its export then.
    private static func seededSample() throws -> (URL, PostgreSQLTestDatabase, String) {
        let directory = try Fixtures.sampleTemplatesCopy()
        let database = try PostgreSQLTestServer.shared().makeDatabase()
        let seeded = try Fixtures.runSeed(["--quiet", "--store", database.url.description], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let export = try Fixtures.runSeed(["export", "--store", database.url.description], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        return (directory, database, export.stdout)
    }

    /// A template of `count` projects, enough rows for a COPY that lasts.
    private static func writeManyProjects(_ count: Int, in directory: URL) throws {
        var text = "["
        for index in 0..<count {
            text += index == 0 ? "\n" : ",\n"
            text += #"{"class": "Project", "code": "BULK\#(index)", "title": "Bulk project number \#(index)"}"#
        }
        try Fixtures.write(text + "\n]\n", to: "Templates/projects/bulk.template", in: directory)
    }

    @Test func aConnectionKilledMidSeedLeavesTheDatabaseAsBeforeAndTheNextRunCompletes() throws {
        let (directory, database, before) = try Self.seededSample()
        try Self.writeManyProjects(100_000, in: directory)
        let url = database.url.description
        let result = Locked<CommandResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let run = (try? Fixtures.runSeed(["--store", url], in: directory))
                ?? CommandResult(status: -1, stdout: "", stderr: "did not run")
            result.withLock { $0 = run }
            done.signal()
        }
        // Only the backends of this test's own database, and only the one loading rows.
        let watcher = try database.connect()
        var terminated = false
        let deadline = ContinuousClock.now + .seconds(120)
        while !terminated, result.withLock({ $0 == nil }), ContinuousClock.now < deadline {
            let copying = try watcher.query(
                sql: """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = $1 AND pid <> pg_backend_pid() AND state <> 'idle' AND query LIKE 'COPY%'
                    """, arguments: [.text(database.name)])
            terminated = try copying.contains { try $0.bool(at: 0) == true }
            if !terminated { Thread.sleep(forTimeInterval: 0.005) }
        }
        done.wait()
        let killed = try #require(result.withLock { $0 })
        #expect(terminated, "the seed finished before its COPY was seen: \(killed.stdout)")
        #expect(killed.status == 2, "\(killed.stdout)\(killed.stderr)")
        #expect(killed.stderr.split(separator: "\n").count == 1, "\(killed.stderr)")
        #expect(killed.stderr.contains("connection"), "\(killed.stderr)")
        let after = try Fixtures.runSeed(["export", "--store", url], in: directory)
        #expect(after.stdout == before)
        let next = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.hasPrefix("seed: applied"), "\(next.stdout)")
        let count = try watcher.query(sql: #"SELECT count(*) FROM "Project""#)
        #expect(try count[0].int64(at: 0) == 100_002)
    }

    /// A table another session holds locked stalls the run's writes until the database's timeout ends them.
    @Test(arguments: [("statement_timeout", "statement timeout"), ("lock_timeout", "lock timeout")])
    func aTimeoutExitsTwoWithOneLineAndWritesNothing(setting: String, cause: String) throws {
        let (directory, database, before) = try Self.seededSample()
        try Fixtures.write(
            #"{"class": "Project", "code": "ZEUS", "title": "Zeus"}"#, to: "Templates/projects/zeus.template",
            in: directory)
        let admin = try database.connect(), blocker = try database.connect()
        try admin.execute(sql: "ALTER DATABASE \"\(database.name)\" SET \(setting) = '300ms'")
        try blocker.execute(sql: #"BEGIN; LOCK TABLE "Project" IN ACCESS EXCLUSIVE MODE"#)
        let url = database.url.description
        let result = try Fixtures.runSeed(["--store", url], in: directory)
        try blocker.execute(sql: "ROLLBACK")
        try admin.execute(sql: "ALTER DATABASE \"\(database.name)\" RESET \(setting)")
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(cause), "\(result.stderr)")
        #expect(try Fixtures.runSeed(["export", "--store", url], in: directory).stdout == before)
        let next = try Fixtures.runSeed(["--store", url], in: directory)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.hasPrefix("seed: applied"), "\(next.stdout)")
    }
}
