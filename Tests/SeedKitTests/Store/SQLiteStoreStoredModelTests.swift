import Foundation
import Testing
import SeedKit

/// `SQLiteStore(existingAt:)`: opening a store with the model it holds, as tools that lack the application's model do.
@Suite("SQLiteStore: the stored model")
struct SQLiteStoreStoredModelTests {
    @Test func opensWithTheModelTheStoreWasLastOpenedWith() throws {
        let path = try Fixtures.temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent()) }
        let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
        try Fixtures.insertSampleCompany(into: context)
        try context.save()
        #expect(try SQLiteStore.storedModel(atPath: path) == Fixtures.sampleModel())
        let reopened = try SQLiteStore(existingAt: path)
        #expect(reopened.model == (try Fixtures.sampleModel()))
        let reader = reopened.newContext()
        let cleo = try #require(reader.object("Manager", identity: ["email": "cleo@example.com"]))
        #expect(try (cleo.value(forKey: "reports") as? [ManagedObject])?.count == 2)
    }

    @Test func readOnlyOpenAndExportChangeNoByte() throws {
        let path = try Fixtures.temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent()) }
        let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
        try Fixtures.insertSampleCompany(into: context)
        try context.save()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = SQLiteStore.Options()
        options.connection.openMode = .readOnly
        _ = try GraphExport().document(of: SQLiteStore(existingAt: path, options: options).newContext())
        _ = try SQLiteStore.storedModel(atPath: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func refusesWhatIsNotAStoreWithoutCreatingAnything() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.sqlite").path
        let error = try #require(throws: StoreError.self) { try SQLiteStore(existingAt: missing) }
        #expect(error.kind == .notAStore)
        #expect(!FileManager.default.fileExists(atPath: missing))

        // A SQLite database that SeedKit never opened.
        let plain = directory.appendingPathComponent("plain.sqlite").path
        try SQLiteConnection(path: plain).execute(sql: "CREATE TABLE t (x)")
        let plainError = try #require(throws: StoreError.self) { try SQLiteStore(existingAt: plain) }
        #expect(plainError.kind == .notAStore && plainError.message.contains("not a SeedKit store"))

        // Not a database at all.
        try Fixtures.write("{}", to: "export.json", in: directory)
        #expect(throws: DatabaseError.self) { try SQLiteStore(existingAt: directory.appendingPathComponent("export.json").path) }
        // SQLite's own -wal and -shm files of the plain database aside, nothing was created.
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(listing.filter { !$0.hasPrefix("plain.sqlite-") } == ["export.json", "plain.sqlite"])
    }
}
