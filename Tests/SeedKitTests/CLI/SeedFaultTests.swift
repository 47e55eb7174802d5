import Foundation
import Testing
import SeedKit
import SeedKitSupport

/// The real `seed` binary killed at random instants of first launches, updates and prunes, run on a full disk, and run
/// eight at once after a change: the store is always wholly the old set or wholly the new one, and the next run completes.
@Suite("seed command: faults")
struct SeedFaultTests {
    /// The three sets a store goes through: `old`, `new` (a tenth of the files changed) and `pruned` (new without every
    /// fifth file, seeded with `--prune`).
    private enum Version { case old, new, pruned }

    /// A set of departments in files of their own, each with employees nested, each owning an address.
    private static func writeSet(to templates: URL, _ version: Version = .old, files: Int = 60) throws {
        try Fixtures.write(SeedUpdateCommandTests.companyModel, to: "model.json", in: templates)
        for file in 0..<files where version != .pruned || file % 5 != 4 {
            let edited = version != .old && file % 10 == 3
            let salaries = (0..<40).map { Double(40_000 + file * 100 + $0) + (edited ? 0.5 : 0) }
            var text = SeedUpdateCommandTests.department(salaries: salaries, streets: salaries.map { "\(Int($0)) Main" })
            text = text.replacingOccurrences(of: "\"Sales\"", with: "\"Department \(file)\"")
            for index in 0..<40 {
                text = text.replacingOccurrences(of: "\"e\(index)@example.com\"", with: "\"d\(file)-e\(index)@example.com\"")
            }
            try Fixtures.write(text, to: "d\(file).template", in: templates)
        }
    }

    private static func export(_ path: String) throws -> [UInt8] {
        try GraphExport().document(of: SQLiteStore(existingAt: path))
    }

    /// Runs `seed` in `directory` and kills it with SIGKILL after `delay` seconds, unless it ended first.
    private static func runKilled(after delay: Double, arguments: [String], in directory: URL) throws {
        let pid = try Fixtures.spawnSeed(arguments, in: directory)
        Thread.sleep(forTimeInterval: delay)
        kill(pid, SIGKILL)
        Fixtures.waitForChild(pid)
    }

    /// The soak: 200 runs killed at random instants, a third each of first launches, updates and prunes. After each,
    /// the store is wholly what it was before the run or wholly what the run makes, and the next run completes.
    @Test(.tags(.slow)) func killedRunsLeaveTheOldSetOrTheNew() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, version) in [("Old", Version.old), ("New", .new), ("Pruned", .pruned)] {
            try Self.writeSet(to: directory.appendingPathComponent(name), version, files: 20)
        }
        // Each kind of run: the store it starts from (copied from a reference), its arguments, what it makes, and
        // how long it takes here, for the instants to fall throughout it.
        struct Kind {
            var start: String?
            var arguments: [String]
            var result: [UInt8] = []
            var span = 0.0
        }
        var kinds = [
            Kind(start: nil, arguments: ["--templates", "New"]),
            Kind(start: "old.sqlite", arguments: ["--templates", "New"]),
            Kind(start: "new.sqlite", arguments: ["--templates", "Pruned", "--prune"]),
        ]
        for (name, templates) in [("old.sqlite", "Old"), ("new.sqlite", "New")] {
            let seeded = try Fixtures.runSeed(["--templates", templates, "--store", name, "--quiet"], in: directory)
            #expect(seeded.status == 0)
        }
        let store = directory.appendingPathComponent("store.sqlite").path
        func prepare(_ kind: Kind) throws {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            if let start = kind.start {
                try FileManager.default.copyItem(atPath: directory.appendingPathComponent(start).path, toPath: store)
            }
        }
        for index in kinds.indices {
            try prepare(kinds[index])
            let started = Date()
            let run = try Fixtures.runSeed(kinds[index].arguments + ["--store", store, "--quiet"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            kinds[index].span = Date().timeIntervalSince(started)
            kinds[index].result = try Self.export(store)
        }
        let exports = ["old.sqlite", "new.sqlite"].map { try? Self.export(directory.appendingPathComponent($0).path) }
        #expect(Set(kinds.map(\.result) + exports.compactMap { $0 }).count == 3, "the runs must change the store")

        var generator = SeededGenerator(seed: 0x4B_111)
        for run in 0..<200 {
            let kind = kinds[run % kinds.count]
            let before = try kind.start.map { try Self.export(directory.appendingPathComponent($0).path) }
            try prepare(kind)
            try Self.runKilled(
                after: kind.span * Double.random(in: 0.05...1.1, using: &generator),
                arguments: kind.arguments + ["--store", store, "--quiet"], in: directory)
            if FileManager.default.fileExists(atPath: store) {
                let export = try Self.export(store)
                #expect(export == kind.result || export == before, "run \(run): a store half-written")
            } else {
                #expect(before == nil, "run \(run): the store is gone")
            }
            let next = try Fixtures.runSeed(kind.arguments + ["--store", store], in: directory)
            #expect(next.status == 0, "run \(run): \(next.stderr)")
            #expect(try Self.export(store) == kind.result, "run \(run)")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("creating") }
            #expect(left.isEmpty, "run \(run): \(left)")
        }
    }

    /// Eight seeds started together after a change: one applies it, the others wait for it and find the set applied;
    /// none fails for the lock.
    @Test func concurrentReseedsWaitForTheWriter() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeSet(to: directory.appendingPathComponent("Templates"))
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try Self.writeSet(to: directory.appendingPathComponent("Templates"), .new)
        let processes = try (0..<8).map { _ -> (Process, Pipe, Pipe) in
            let process = Process()
            process.executableURL = Fixtures.seedExecutable
            process.currentDirectoryURL = directory
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            return (process, out, err)
        }
        let results = processes.map { process, out, err in
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, stdout, stderr)
        }
        #expect(results.allSatisfy { $0.0 == 0 }, "\(results.map(\.2))")
        #expect(results.filter { $0.1.hasPrefix("seed: applied") }.count == 1, "\(results.map(\.1))")
        #expect(results.filter { $0.1.hasPrefix("seed: unchanged") }.count == 7)
    }

    /// People in `files` files of 300, with a paragraph each: 300 fit a 256 KiB disk, 3,000 do not.
    private static func writePeople(files: Int, to templates: URL) throws {
        try Fixtures.write(
            #"{"entities": {"Person": {"identity": ["email"], "attributes": {"email": "string", "bio": "string"}}}}"#,
            to: "model.json", in: templates)
        let bio = String(repeating: "Seeded on a disk that fills up. ", count: 4)
        for file in 0..<files {
            let people = (0..<300).map { #"{"class": "Person", "email": "p\#(file)-\#($0)@example.com", "bio": "\#(bio)"}"# }
            try Fixtures.write("[\(people.joined(separator: ",\n"))]", to: "p\(file).template", in: templates)
        }
    }

    /// Whether the tests can mount a small tmpfs of their own: in a private mount namespace, as root or not.
    private static let canMountADisk: Bool = {
        #if os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--map-root-user", "--mount", "/bin/sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
        #else
        return false
        #endif
    }()

    /// A first launch and an update on a full disk (a 256 KiB tmpfs): exit 2 naming the cause; the new store leaves
    /// no file behind, the existing one stays byte for byte as it was.
    @Test(.enabled(if: canMountADisk, "needs unshare and tmpfs")) func aFullDiskLeavesTheStoreAsItWas() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writePeople(files: 1, to: directory.appendingPathComponent("Small"))
        try Self.writePeople(files: 10, to: directory.appendingPathComponent("Big"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("disk"), withIntermediateDirectories: false)
        // The disk exists only in the namespace: what the test checks is copied out before it goes.
        let script = """
            mount -t tmpfs -o size=256k tmpfs disk || exit 99
            run() { "$0" "$@" >/dev/null 2>>stderr.txt; echo $? >>status.txt; }
            run --templates Big --store disk/new.sqlite --quiet
            ls -A disk >new-listing.txt
            run --templates Small --store disk/old.sqlite --quiet
            cp disk/old.sqlite before.sqlite
            run --templates Big --store disk/old.sqlite --quiet
            cp disk/old.sqlite after.sqlite
            ls -A disk >old-listing.txt
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--map-root-user", "--mount", "/bin/sh", "-c", script, Fixtures.seedExecutable.path]
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        func text(_ name: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(try text("status.txt") == "2\n0\n2\n")
        let full = "no space left on the disk holding store disk/new.sqlite; the store is as it was (SQLite error 13"
        let lines = try text("stderr.txt").split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("seed: " + full), "\(lines)")
        #expect(lines.count == 2 && lines[1].hasPrefix("seed: " + full.replacingOccurrences(of: "new", with: "old")))
        #expect(try text("new-listing.txt") == "")
        #expect(try text("old-listing.txt") == "old.sqlite\n")
        let before = try Data(contentsOf: directory.appendingPathComponent("before.sqlite"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("after.sqlite")) == before)
        let report = try Seeder(storePath: directory.appendingPathComponent("after.sqlite").path)
            .seed(templates: directory.appendingPathComponent("Small"))
        #expect(report.status == .unchanged)
    }
}
