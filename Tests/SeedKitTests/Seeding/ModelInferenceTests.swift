import Foundation
import Testing
import SeedKit

/// Inferring a model from templates that come without one: types, optionality, relationships, evident identity,
/// and contradictions located at both places.
@Suite("Model inference")
struct ModelInferenceTests {
    /// Infers the model of a set holding `files` (relative path → text).
    func infer(_ files: [String: String]) throws -> (model: EntityModel?, issues: [Diagnostic]) {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, text) in files { try Fixtures.write(text, to: "T/\(path)", in: directory) }
        return ModelInference.infer(from: try TemplateSet(directory: directory.appendingPathComponent("T")))
    }

    @Test func attributeTypesAndOptionalityComeFromValues() throws {
        let model = try #require(try infer(["a.template": """
            [
              { "class": "Item", "n": 1, "x": 1, "ok": true, "at": "2024-01-02T03:04:05Z", "id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF",
                "tags": ["a"], "meta": { "k": 1 }, "note": null, "mixed": "2024-01-02T03:04:05Z" },
              { "class": "Item", "n": 2, "x": 1.5, "ok": false, "at": "2025-01-02T03:04:05Z", "id": "7F9619FF-8B86-D011-B42D-00CF4FC964FF",
                "tags": [], "meta": { "k": 2 }, "note": "here", "mixed": "not a date" }
            ]
            """]).model)
        let item = try #require(model.entity(named: "Item"))
        let types = Dictionary(uniqueKeysWithValues: item.attributes.map { ($0.name, "\($0.type)\($0.isOptional ? "?" : "")") })
        #expect(types == [
            "n": "integer", "x": "double", "ok": "bool", "at": "date", "id": "uuid", "tags": "json", "meta": "json",
            "note": "string?", "mixed": "string",
        ])
        #expect(item.identity.isEmpty && item.relationships.isEmpty)
    }

    @Test func theSampleSetGivesRelationshipsAndEvidentIdentity() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        try FileManager.default.removeItem(at: templates.appendingPathComponent("model.json"))
        let inferred = ModelInference.infer(from: try TemplateSet(directory: templates))
        #expect(inferred.issues.isEmpty)
        let model = try #require(inferred.model)
        #expect(model.entityNames.sorted() == ["Department", "Employee", "Manager", "Project"])
        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.identity == ["email"])
        // References such as {"class": "Employee", "email": …} name objects; they do not make `name` optional.
        #expect(employee.attribute(named: "name")?.isOptional == false)
        #expect(employee.attribute(named: "hired")?.type == .date && employee.attribute(named: "hired")?.isOptional == true)
        #expect(employee.relationship(named: "projects").map { ($0.destination, $0.isToMany) } ?? ("", false) == ("Project", true))
        #expect(employee.relationship(named: "department").map { ($0.destination, $0.isToMany) } ?? ("", true) == ("Department", false))
        // Classless nested objects say nothing of their entity: json.
        #expect(employee.attribute(named: "addresses")?.type == .json)
        // {"$ref": "ann"} names an Employee.
        #expect(model.entity(named: "Manager")?.relationship(named: "reports")?.destination == "Employee")
        // Managers are never referenced: no evident identity.
        #expect(model.entity(named: "Manager")?.identity == [])
        #expect(model.entity(named: "Department")?.identity == ["name"])
    }

    @Test func identityIsNotGuessedFromAmbiguousReferences() throws {
        let model = try #require(try infer(["a.template": """
            [
              { "class": "Team", "name": "A", "boss": { "class": "Person", "name": "Kim" } },
              { "class": "Person", "name": "Kim", "age": 3 },
              { "class": "Person", "name": "Kim", "age": 4 }
            ]
            """]).model)
        // Two top-level Kims: `name` does not identify a Person.
        #expect(model.entity(named: "Person")?.identity == [])
        #expect(model.entity(named: "Person")?.attribute(named: "age")?.isOptional == true)
    }

    @Test func contradictionsAreLocatedAtBothPlaces() throws {
        let inferred = try infer([
            "a.template": #"{ "class": "A", "x": 1 }"#,
            "b.template": "[\n  { \"class\": \"A\", \"x\": \"one\" }\n]",
        ])
        #expect(inferred.model == nil)
        let issue = try #require(inferred.issues.first)
        #expect(issue.file?.hasSuffix("/T/b.template") == true && issue.line == 2 && issue.column == 24 && issue.pointer?.description == "/0/x")
        #expect(issue.message.hasPrefix("A.x is a value of type string here but a value of type integer at "))
        #expect(issue.message.hasSuffix("/T/a.template:1:22: the model cannot be inferred"))
        let relation = try infer(["a.template": #"[{ "class": "A", "r": { "class": "B" } }, { "class": "A", "r": [{ "class": "B" }] }]"#])
        #expect(relation.issues.count == 1)
        #expect(relation.issues.first?.message.hasPrefix("A.r is an array of related objects here but a related object at ") == true)
        #expect(relation.issues.first?.message.hasSuffix("/T/a.template:1:23: the model cannot be inferred") == true)
        let unnamed = try infer(["a.template": #"{ "class": "A", "r": { "$ref": "nowhere" } }"#])
        #expect(unnamed.issues.map(\.message) == ["A.r: no related object names its class, so its entity cannot be inferred"])
    }
}

/// The `seed` binary without a model file: the warning, `seed model` printing the inferred model, and exit 1 on
/// contradicting templates.
@Suite("seed command: inferred model")
struct SeederInferredModelCommandTests {
    @Test func seedingWithoutAModelWarnsAndSeeds() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Templates/model.json"))
        let seeded = try Fixtures.runSeed([], in: directory)
        #expect(seeded.status == 0)
        #expect(seeded.stderr == "seed: warning: no model.json in Templates; using a model inferred from the templates — run "
            + "'seed model --templates Templates > Templates/model.json' to make it explicit\n")
        #expect(seeded.stdout.contains("Employee           3        0          0     0        0"))
        #expect(try Fixtures.runSeed([], in: directory).stdout.contains("unchanged"))

        let printed = try Fixtures.runSeed(["model", "--templates", "Templates"], in: directory)
        #expect(printed.status == 0 && printed.stderr.isEmpty)
        try Data(printed.stdout.utf8).write(to: directory.appendingPathComponent("Templates/model.json"))
        let explicit = try Fixtures.runSeed(["validate"], in: directory)
        #expect(explicit.status == 0 && explicit.stderr.isEmpty)
        #expect(explicit.stdout.contains("Employee identity(email)"))
    }

    @Test func contradictingTemplatesExitOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write("[{ \"class\": \"A\", \"x\": 1 },\n { \"class\": \"A\", \"x\": true }]", to: "T/a.template", in: directory)
        let model = try Fixtures.runSeed(["model", "--templates", "T"], in: directory)
        #expect(model.status == 1 && model.stdout.isEmpty)
        #expect(model.stderr == "T/a.template:2:23: /1/x: A.x is a value of type bool here but a value of type integer at T/a.template:1:23: the model cannot be inferred\n")
        let seed = try Fixtures.runSeed(["--templates", "T"], in: directory)
        #expect(seed.status == 1 && seed.stderr.hasSuffix("seed: 1 problem in T; nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
    }
}
