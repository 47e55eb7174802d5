import Foundation
import Testing
import SeedKit
import SeedKitSupport

/// The real `seed` binary killed at random instants of a first launch and of an update, and run eight at once after
/// a change: the store is always wholly the old set or wholly the new one, and the next run completes.
@Suite("seed command: faults")
struct SeedFaultTests {
    /// A set of departments in files of their own, each with employees nested, each owning an address; `edited`
    /// changes a tenth of the files.
    private static func writeSet(to templates: URL, edited: Bool) throws {
        try Fixtures.write(SeedUpdateCommandTests.companyModel, to: "model.json", in: templates)
        for file in 0..<60 {
            let salaries = (0..<40).map { Double(40_000 + file * 100 + $0) + (edited && file % 10 == 3 ? 0.5 : 0) }
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
        let process = Process()
        process.executableURL = Fixtures.seedExecutable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    @Test func killedRunsLeaveTheOldSetOrTheNew() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("Old"), new = directory.appendingPathComponent("New")
        try Self.writeSet(to: old, edited: false)
        try Self.writeSet(to: new, edited: true)
        // What each set seeds, and how long a first launch and an update take here.
        let reference = directory.appendingPathComponent("reference.sqlite").path
        var started = Date()
        #expect(try Fixtures.runSeed(["--templates", "Old", "--store", reference, "--quiet"], in: directory).status == 0)
        let firstLaunch = Date().timeIntervalSince(started)
        let oldExport = try Self.export(reference)
        started = Date()
        #expect(try Fixtures.runSeed(["--templates", "New", "--store", reference, "--quiet"], in: directory).status == 0)
        let update = Date().timeIntervalSince(started)
        let newExport = try Self.export(reference)
        #expect(oldExport != newExport)

        var generator = SeededGenerator(seed: 0x4B_111)
        for run in 0..<10 {
            let isUpdate = run % 2 == 1
            let store = directory.appendingPathComponent("killed-\(run).sqlite").path
            if isUpdate { #expect(try Fixtures.runSeed(["--templates", "Old", "--store", store, "--quiet"], in: directory).status == 0) }
            let span = isUpdate ? update : firstLaunch
            try Self.runKilled(
                after: span * Double.random(in: 0.05...1.1, using: &generator),
                arguments: ["--templates", "New", "--store", store, "--quiet"], in: directory)
            if FileManager.default.fileExists(atPath: store) {
                let export = try Self.export(store)
                #expect(export == newExport || (isUpdate && export == oldExport), "run \(run): a store half-written")
            } else {
                #expect(!isUpdate, "run \(run): the store is gone")
            }
            let next = try Fixtures.runSeed(["--templates", "New", "--store", store], in: directory)
            #expect(next.status == 0, "run \(run): \(next.stderr)")
            #expect(try Self.export(store) == newExport, "run \(run)")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("creating") }
            #expect(left.isEmpty, "run \(run): \(left)")
        }
    }

    /// Eight seeds started together after a change: one applies it, the others wait for it and find the set applied;
    /// none fails for the lock.
    @Test func concurrentReseedsWaitForTheWriter() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeSet(to: directory.appendingPathComponent("Templates"), edited: false)
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try Self.writeSet(to: directory.appendingPathComponent("Templates"), edited: true)
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
}
