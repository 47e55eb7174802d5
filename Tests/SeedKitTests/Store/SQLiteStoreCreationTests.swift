import Foundation
import Testing
import SeedKit

/// A new store built beside its path and linked into place whole, or not at all.
@Suite("SQLiteStore: atomic creation")
struct SQLiteStoreCreationTests {
    private struct Refusal: Error {}

    /// Files in the directory, to check that no temporary file is left behind.
    private func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    private func insertTag(_ label: String, into store: SQLiteStore) throws {
        let context = store.newContext()
        try context.insert("Tag", values: ["label": label])
        try context.save()
    }

    @Test func aBuiltStoreAppearsWholeInWriteAheadLogMode() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        let model = try Fixtures.graphModel()
        let creation = try SQLiteStore.create(atomicallyAt: path, model: model) { store -> Int in
            // Nothing is at the path while the store is built.
            #expect(!FileManager.default.fileExists(atPath: path))
            try insertTag("a", into: store)
            try insertTag("b", into: store)
            return 2
        }
        guard case .created(2) = creation else {
            Issue.record("expected created(2), got \(creation)")
            return
        }
        #expect(try files(in: directory) == ["new.sqlite"])
        let store = try SQLiteStore(path: path, model: model)
        #expect(try SQLiteTesting.firstValue(store.connection, "PRAGMA journal_mode") == .text("wal"))
        #expect(try SQLiteTesting.firstValue(store.connection, "PRAGMA page_size") == .integer(8192))
        #expect(try store.newContext().fetch("Tag").count == 2)
    }

    /// Foreign keys are checked while the store is built unless the caller says it resolved them itself; either way,
    /// connections that open the store afterwards check them.
    @Test func foreignKeysAreCheckedUnlessTheCallerResolvedThem() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        let model = try Fixtures.flatModel()
        // An item whose group is not there.
        let dangling = #"INSERT INTO "Item" ("_id", "_entity", "code", "group") VALUES (1, 'Item', 5, 999)"#
        #expect(throws: DatabaseError.self) {
            _ = try SQLiteStore.create(atomicallyAt: path, model: model) { store -> Int in
                try store.connection.execute(sql: dangling)
                return 1
            }
        }
        #expect(try files(in: directory) == [])

        let creation = try SQLiteStore.create(atomicallyAt: path, model: model, checkingForeignKeys: false) { store -> Int in
            try store.connection.execute(sql: dangling)
            return 1
        }
        guard case .created(1) = creation else {
            Issue.record("expected created(1), got \(creation)")
            return
        }
        let store = try SQLiteStore(path: path, model: model)
        #expect(try SQLiteTesting.firstValue(store.connection, "PRAGMA foreign_keys") == .integer(1))
        #expect(throws: DatabaseError.self) {
            try store.connection.execute(sql: #"INSERT INTO "Item" ("_id", "_entity", "code", "group") VALUES (2, 'Item', 6, 998)"#)
        }
    }

    @Test func aBuildThatGivesUpOrThrowsLeavesNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        let model = try Fixtures.graphModel()
        let abandoned = try SQLiteStore.create(atomicallyAt: path, model: model) { store -> Int? in
            try insertTag("a", into: store)
            return nil
        }
        guard case .abandoned = abandoned else {
            Issue.record("expected abandoned, got \(abandoned)")
            return
        }
        #expect(try files(in: directory).isEmpty)
        #expect(throws: Refusal.self) {
            _ = try SQLiteStore.create(atomicallyAt: path, model: model) { store -> Int in
                try insertTag("a", into: store)
                throw Refusal()
            }
        }
        #expect(try files(in: directory).isEmpty)
    }

    /// Another process's store that appears while one is built is never replaced.
    @Test func aStoreThatAppearsMeanwhileWins() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        let model = try Fixtures.graphModel()
        let creation = try SQLiteStore.create(atomicallyAt: path, model: model) { store -> Int in
            try insertTag("mine", into: store)
            try insertTag("theirs", into: SQLiteStore(path: path, model: model))
            return 1
        }
        guard case .preempted = creation else {
            Issue.record("expected preempted, got \(creation)")
            return
        }
        let labels = try SQLiteStore(path: path, model: model).newContext().fetch("Tag").map { try $0.value(forKey: "label") as! String }
        #expect(labels == ["theirs"])
        #expect(try files(in: directory).allSatisfy { $0.hasPrefix("new.sqlite") && !$0.contains("creating") })
    }

    /// A creation killed part way leaves its temporary file; the next creation beside the same path removes it, but
    /// not one of a process still running.
    @Test func temporaryFilesOfGoneProcessesAreRemoved() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let abandoned = "new.sqlite.creating-\(gone.processIdentifier)-1a2b"
        let running = "new.sqlite.creating-\(getpid())-3c4d"
        for name in [abandoned, running] { try Data("half a store".utf8).write(to: directory.appendingPathComponent(name)) }
        let creation = try SQLiteStore.create(atomicallyAt: path, model: Fixtures.graphModel()) { _ in 1 }
        guard case .created = creation else {
            Issue.record("expected created, got \(creation)")
            return
        }
        #expect(try files(in: directory) == ["new.sqlite", running].sorted())
    }

    /// The error names the store asked for, not the temporary file it would have been built in.
    @Test func aDirectoryThatDoesNotExistIsAnError() throws {
        let error = #expect(throws: DatabaseError.self) {
            _ = try SQLiteStore.create(atomicallyAt: "/nonexistent-seedkit-dir/new.sqlite", model: try Fixtures.graphModel()) { _ in 1 }
        }
        #expect(error?.path == "/nonexistent-seedkit-dir/new.sqlite")
        #expect(error?.description.contains("creating") == false)
    }
}
