import Foundation
import Testing
import SeedKit

/// End-to-end tests of the `seed` binary: stdout, stderr and exit code.
@Suite("seed command")
struct SeedCommandTests {
    @Test func checksTheSampleTemplatesModel() throws {
        let result = try Fixtures.runSeed(["validate", "--templates", Fixtures.packageRoot.appendingPathComponent("Templates").path])
        #expect(result.status == 0)
        #expect(result.stdout.contains(": 5 entities"))
        #expect(result.stdout.contains("  Manager : Employee identity(email) — 5 attributes, 4 relationships"))
        #expect(result.stdout.contains("5 template files in "))
        #expect(result.stderr.isEmpty)
    }

    @Test func invalidModelExitsOneWithLocatedErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"entities": {"Employee": {"attributes": {"name": "strng"}}}}"#.utf8)
            .write(to: directory.appendingPathComponent("model.json"))
        let result = try Fixtures.runSeed(["--templates", directory.path], in: directory)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("model.json:1:51: /entities/Employee/attributes/name: Employee.name: unknown type 'strng'; did you mean 'string'?"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
    }

    @Test func usageErrorsExitTwo() throws {
        let unknown = try Fixtures.runSeed(["--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "seed: unknown option '--frobnicate'; see 'seed --help'\n")
        let missingValue = try Fixtures.runSeed(["--templates"])
        #expect(missingValue.status == 2)
        let missingDirectory = try Fixtures.runSeed(["--templates", "/nonexistent-seedkit-dir"])
        #expect(missingDirectory.status == 2)
        #expect(missingDirectory.stderr.contains("no template directory at /nonexistent-seedkit-dir"))
        let help = try Fixtures.runSeed(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: seed"))
    }
}

extension SeedCommandTests {
    @Test func modelSubcommandListsOrPrintsTheModel() throws {
        let templates = Fixtures.packageRoot.appendingPathComponent("Templates").path
        let listed = try Fixtures.runSeed(["model", "--templates", templates, "--summary"])
        #expect(listed.status == 0 && listed.stdout.contains("  Project identity(code) — 3 attributes, 1 relationships"))
        let json = try Fixtures.runSeed(["model", "--templates", templates])
        #expect(try EntityModel(json: JSONDocument(parsing: Array(json.stdout.utf8)).value) == Fixtures.sampleModel())
        let missing = try Fixtures.runSeed(["model", "--model", "/nonexistent-seedkit/model.json"])
        #expect(missing.status == 2 && missing.stderr == "seed: no model file at /nonexistent-seedkit/model.json\n")
    }
}
