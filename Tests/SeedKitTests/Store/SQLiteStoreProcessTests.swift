import Foundation
import Testing
import SeedKit
import SeedKitSupport

/// Several connections and processes on one store file: opening a new store at once, a writer killed mid-save,
/// concurrent writers. The processes are the built `seed` command, so the writes are SeedKit's own saves.
@Suite("SQLiteStore: many connections and processes")
struct SQLiteStoreProcessTests {
    static let modelText = """
        { "entities": { "Item": { "identity": ["key"], "attributes": { "key": "string", "value": "integer", "note": "string?" } } } }
        """

    /// A directory holding `model.json` and one template of `count` items whose keys start with `prefix`.
    func templates(prefix: String, count: Int) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        try Fixtures.write(Self.modelText, to: "model.json", in: directory)
        var text = "[\n"
        for index in 0..<count {
            text += #"{ "class": "Item", "key": "\#(prefix)\#(index)", "value": \#(index), "note": "item \#(index) of set \#(prefix)" }"#
            text += index == count - 1 ? "\n]\n" : ",\n"
        }
        try Fixtures.write(text, to: "items.template", in: directory)
        return directory
    }

    /// A started `seed` run of `templates` into `store`, its output discarded so it can't block on a full pipe.
    func startSeed(templates: URL, store: String) throws -> Process {
        let process = Process()
        process.executableURL = Fixtures.seedExecutable
        process.arguments = ["--templates", templates.path, "--store", store, "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Every row of every table of the database at `path`, as sorted text lines per table.
    func contents(of path: String) throws -> [String: [String]] {
        let connection = try SQLiteConnection(path: path)
        let tables = try connection.prepare(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var result: [String: [String]] = [:]
        while try tables.step() {
            let name = tables.text(at: 0)
            let rows = try connection.prepare(sql: "SELECT * FROM \(SQLIdentifier.quote(name))")
            var lines: [String] = []
            while try rows.step() {
                lines.append((0..<rows.columnCount).map { "\(rows.value(at: $0))" }.joined(separator: "|"))
            }
            result[name] = lines.sorted()
        }
        return result
    }

    func integrityCheck(_ path: String) throws -> String {
        let connection = try SQLiteConnection(path: path)
        let check = try connection.prepare(sql: "PRAGMA integrity_check")
        _ = try check.step()
        return check.text(at: 0)
    }

    func keys(in path: String) throws -> Set<String> {
        let connection = try SQLiteConnection(path: path)
        let select = try connection.prepare(sql: "SELECT \"key\" FROM \"Item\"")
        var keys: Set<String> = []
        while try select.step() { keys.insert(select.text(at: 0)) }
        return keys
    }

    @Test func concurrentFirstOpensOfOneNewStoreAllSucceed() throws {
        // Threads race inside this process; each opens its own connection, as separate processes would.
        let model = try Fixtures.everyTypeModel()
        for _ in 0..<5 {
            let path = try Fixtures.temporaryStorePath()
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    let store = try SQLiteStore(path: path, model: model)
                    _ = try store.newContext().fetch("Sample")
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
        }
    }

    @Test func concurrentMigrationsOfOneStoreAllSucceed() throws {
        let old = try EntityModel([EntityDescription("Item", attributes: [AttributeDescription("key", .string)])])
        let new = try EntityModel([
            EntityDescription(
                "Item", attributes: [AttributeDescription("key", .string), AttributeDescription("note", .string, isOptional: true)]),
            EntityDescription("Tag", attributes: [AttributeDescription("title", .string)]),
        ])
        for _ in 0..<5 {
            let path = try Fixtures.temporaryStorePath()
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            _ = try SQLiteStore(path: path, model: old)
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try SQLiteStore(path: path, model: new)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(try SQLiteStore(path: path, model: new).modelFingerprint == new.fingerprint)
        }
    }

    @Test func concurrentFirstSeedsOfOneNewStoreAllSucceed() throws {
        let set = try templates(prefix: "a", count: 50)
        defer { try? FileManager.default.removeItem(at: set) }
        let store = set.appendingPathComponent("store.sqlite").path
        let processes = try (0..<4).map { _ in try startSeed(templates: set, store: store) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0, 0, 0])
        #expect(try keys(in: store) == Set((0..<50).map { "a\($0)" }))
        #expect(try integrityCheck(store) == "ok")
    }

    @Test func killedLargeSaveLeavesExactlyThePreviousState() throws {
        let small = try templates(prefix: "a", count: 20)
        let large = try templates(prefix: "b", count: 100_000)
        defer {
            try? FileManager.default.removeItem(at: small)
            try? FileManager.default.removeItem(at: large)
        }
        let store = small.appendingPathComponent("store.sqlite").path
        let seeded = try startSeed(templates: small, store: store)
        seeded.waitUntilExit()
        try #require(seeded.terminationStatus == 0)
        let before = try contents(of: store)
        try #require(before["Item"]?.count == 20)

        // The WAL holds the large save's pages before it commits: once it grows past a page cache's worth, the save
        // is under way, and killing the process then must leave no trace of it.
        let process = try startSeed(templates: large, store: store)
        let wal = store + "-wal"
        let deadline = Date().addingTimeInterval(120)
        var killedMidSave = false
        while process.isRunning && Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            if size > 4_000_000 {
                kill(process.processIdentifier, SIGKILL)
                killedMidSave = true
                break
            }
            usleep(2_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try #require(killedMidSave, "the seed run ended before its save was seen in the WAL")
        #expect(process.terminationReason == .uncaughtSignal)

        #expect(try integrityCheck(store) == "ok")
        #expect(try contents(of: store) == before)
    }

    @Test func twoProcessesWritingOneStoreEachLeaveTheirWholeSet() throws {
        let first = try templates(prefix: "a", count: 3_000)
        let second = try templates(prefix: "b", count: 3_000)
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let store = first.appendingPathComponent("store.sqlite").path
        let processes = [try startSeed(templates: first, store: store), try startSeed(templates: second, store: store)]
        for process in processes { process.waitUntilExit() }
        // Both succeed: the second waits for the first's transaction, then adds its set as an update run.
        #expect(processes.map(\.terminationStatus) == [0, 0])
        #expect(try integrityCheck(store) == "ok")
        #expect(try keys(in: store) == Set((0..<3_000).flatMap { ["a\($0)", "b\($0)"] }))
    }

    @Test func twoStoresOnOneFileSeeEachOthersSaves() throws {
        let path = try Fixtures.temporaryStorePath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let model = try Fixtures.companyModel()
        let one = try SQLiteStore(path: path, model: model).newContext()
        let two = try SQLiteStore(path: path, model: model).newContext()
        for index in 0..<3 {
            let a = Department(context: one)
            a.name = "one \(index)"
            try one.save()
            let b = Department(context: two)
            b.name = "two \(index)"
            try two.save()
        }
        let expected = (0..<3).flatMap { ["one \($0)", "two \($0)"] }.sorted()
        #expect(try one.fetch(Department.self).map(\.name).sorted() == expected)
        #expect(try two.fetch(Department.self).map(\.name).sorted() == expected)

        // A third connection holds the write lock for a moment; a save waits for it (busy timeout) instead of failing.
        let locked = DispatchSemaphore(value: 0)
        let holder = Thread {
            guard let connection = try? SQLiteConnection(path: path),
                (try? connection.execute(sql: "BEGIN IMMEDIATE TRANSACTION")) != nil
            else {
                locked.signal()
                return
            }
            locked.signal()
            Thread.sleep(forTimeInterval: 0.3)
            try? connection.execute(sql: "COMMIT TRANSACTION")
        }
        holder.start()
        locked.wait()
        let c = Department(context: one)
        c.name = "after the lock"
        let start = Date()
        try one.save()
        #expect(Date().timeIntervalSince(start) > 0.2)
        #expect(try two.fetch(Department.self).contains { $0.name == "after the lock" })
    }
}
