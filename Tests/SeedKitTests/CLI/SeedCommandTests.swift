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

    /// A model whose names the store could not take is invalid for `seed validate`, located in model.json, and `seed`
    /// writes nothing, instead of validating and then failing in SQLite with a broken store.
    @Test func namesTheStoreCannotTakeAreInvalidModels() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("""
            {"entities": {
              "A": {"attributes": {"id": "integer", "ID": "string"},
                    "relationships": {"bs": {"to": "B", "many": true}}},
              "A_bs": {}, "B": {}, "a": {}, "_seedkit_seed_sets": {}
            }}
            """.utf8).write(to: directory.appendingPathComponent("model.json"))
        try Data(#"{"class": "B"}"#.utf8).write(to: directory.appendingPathComponent("b.template"))
        let model = directory.appendingPathComponent("model.json").path
        for arguments in [["validate", "--templates", "."], ["--templates", "."]] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix(model) }.map { $0.dropFirst(model.count) } == [
                ":2:30: /entities/A/attributes/id: A.id: column 'id' differs from 'ID' only in case, and the store's names ignore case; both would be stored in the table A",
                ":3:33: /entities/A/relationships/bs: A.bs: the join table of A.bs would be named 'A_bs', like the table of A_bs (the store's names ignore case); rename one",
                ":4:29: /entities/a: a: name 'a' differs from entity name 'A' only in case, and the store's names ignore case",
                ":4:55: /entities/_seedkit_seed_sets: _seedkit_seed_sets: entity name '_seedkit_seed_sets' is reserved: names starting with '_seedkit' (in any case) belong to the store's own tables",
            ])
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
    }

    /// The template directory's model.json is read as its templates are: a link leading outside is refused, one
    /// inside is followed.
    @Test func aModelFileLinkedFromOutsideIsRefused() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let templates = root.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let model = #"{"entities": {"B": {"attributes": {"n": "string?"}}}}"#
        try Data(model.utf8).write(to: root.appendingPathComponent("outside.json"))
        try Data(#"{"class": "B"}"#.utf8).write(to: templates.appendingPathComponent("b.template"))
        try FileManager.default.createSymbolicLink(
            atPath: templates.appendingPathComponent("model.json").path, withDestinationPath: "../outside.json")
        for arguments in [["validate", "--templates", "Templates"], ["--templates", "Templates"]] {
            let result = try Fixtures.runSeed(arguments, in: root)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("Templates/model.json: a symbolic link leading outside the template directory is refused\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("seed.sqlite").path))
        try FileManager.default.removeItem(at: templates.appendingPathComponent("model.json"))
        try Data(model.utf8).write(to: templates.appendingPathComponent("real.json"))
        try FileManager.default.createSymbolicLink(
            atPath: templates.appendingPathComponent("model.json").path, withDestinationPath: "real.json")
        #expect(try Fixtures.runSeed(["--templates", "Templates", "--quiet"], in: root).status == 0)
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
