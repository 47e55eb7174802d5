import Foundation
import Testing
@testable import SeedKit

/// End-to-end tests of the `seed` binary: stdout, stderr and exit code.
@Suite("seed command")
struct SeedCommandTests {
    @Test func checksTheSampleTemplatesModel() throws {
        let result = try Fixtures.runSeed(["--templates", Fixtures.packageRoot.appendingPathComponent("Templates").path])
        #expect(result.status == 0)
        #expect(result.stdout.contains(": 5 entities"))
        #expect(result.stdout.contains("  Manager : Employee identity(email) — 5 attributes, 4 relationships"))
        #expect(result.stderr.isEmpty)
    }

    @Test func invalidModelExitsOneWithLocatedErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"entities": {"Employee": {"attributes": {"name": "strng"}}}}"#.utf8)
            .write(to: directory.appendingPathComponent("model.json"))
        let result = try Fixtures.runSeed(["--templates", directory.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("model.json:1:51: Employee.name: unknown type 'strng'; did you mean 'string'?"))
    }

    @Test func usageErrorsExitTwo() throws {
        let unknown = try Fixtures.runSeed(["--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("seed: unknown argument '--frobnicate'"))
        let missingValue = try Fixtures.runSeed(["--templates"])
        #expect(missingValue.status == 2)
        let missingModel = try Fixtures.runSeed(["--templates", "/nonexistent-seedkit-dir"])
        #expect(missingModel.status == 2)
        #expect(missingModel.stderr.contains("no model file at /nonexistent-seedkit-dir/model.json"))
        let help = try Fixtures.runSeed(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: seed"))
    }
}
