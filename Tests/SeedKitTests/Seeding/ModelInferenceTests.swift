import Foundation
import Testing

import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding

/// Inferring a model from templates that come without one: types, optionality, relationships, evident identity,
/// and contradictions located at both places.
@Suite("Model inference")
struct ModelInferenceTests {
    /// Infers the model of a set holding `files` (relative path → text).
    func infer(_ files: [String: String]) throws -> ModelInference.Result {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, text) in files { try Fixtures.write(text, to: "T/\(path)", in: directory) }
        return ModelInference.infer(from: try TemplateSet(directory: directory.appendingPathComponent("T")))
    }

    @Test func attributeTypesAndOptionalityComeFromValues() throws {
        let model = try #require(
            try infer([
                "a.template": """
                [
                  { "class": "Item", "n": 1, "x": 1, "ok": true, "at": "2024-01-02T03:04:05Z",
                    "id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "tags": ["a"], "meta": { "k": 1 }, "note": null,
                    "mixed": "2024-01-02T03:04:05Z", "price": "12.50",
                    "total": "3.00", "zip": "007", "amount": 5 },
                  { "class": "Item", "n": 2, "x": 1.5, "ok": false, "at": "2025-01-02T03:04:05Z",
                    "id": "7F9619FF-8B86-D011-B42D-00CF4FC964FF", "tags": [], "meta": { "k": 2 }, "note": "here",
                    "mixed": "not a date", "price": "1250000.00",
                    "total": "a lot", "zip": "01210", "amount": "5.25" }
                ]
                """
            ]).model)
        let item = try #require(model.entity(named: "Item"))
        let types = Dictionary(
            uniqueKeysWithValues: item.attributes.map { ($0.name, "\($0.type)\($0.isOptional ? "?" : "")") })
        #expect(
            types == [
                "n": "integer", "x": "double", "ok": "bool", "at": "date", "id": "uuid", "tags": "json", "meta": "json",
                "note": "string?", "mixed": "string", "price": "decimal", "total": "string", "zip": "string",
                "amount": "decimal",
            ])
        #expect(item.relationships.isEmpty)
    }

    @Test func exactDecimalsAreDigitsAPointAndDigits() {
        for text in ["1250000.00", "-0.5", "0.10"] { #expect(Inference.isExactDecimal(text), "\(text)") }
        for text in ["7", "1e3", ".5", "5.", "+1.0", "1.2.3", "1,5", "", "-"] {
            #expect(!Inference.isExactDecimal(text), "\(text)")
        }
    }

    @Test func listsOfObjectsWithoutClassAreNamedAfterTheirKey() {
        #expect(Inference.entityName(forKey: "addresses") == "Address")
        #expect(Inference.entityName(forKey: "categories") == "Category")
        #expect(Inference.entityName(forKey: "line_items") == "LineItem")
        #expect(Inference.entityName(forKey: "boxes") == "Box")
        #expect(Inference.entityName(forKey: "status") == "Status")
        #expect(Inference.entityName(forKey: "staff") == "Staff")
        #expect(Inference.entityName(forKey: "1st") == nil)
    }

    /// The sample set without its model file gives back the model a person wrote for it, but for what no template
    /// says: the inverses, the optional budget, Employee.address.
    @Test func theSampleSetGivesTheHandWrittenModel() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        try FileManager.default.removeItem(at: templates.appendingPathComponent("model.json"))
        let inferred = ModelInference.infer(from: try TemplateSet(directory: templates))
        #expect(inferred.issues.isEmpty)
        let model = try #require(inferred.model)
        var written = try Fixtures.sampleModel().declarations
        for index in written.indices {
            written[index].relationships = written[index].relationships.filter {
                !["members", "resident", "employees"].contains($0.name)
            }
            .map { relationship in
                var relationship = relationship
                relationship.inverse = nil
                return relationship
            }
            written[index].attributes = written[index].attributes.map { attribute in
                var attribute = attribute
                // Every department states a budget, and no Employee an address.
                if attribute.name == "budget" { attribute.isOptional = false }
                return attribute
            }.filter { $0.name != "address" }
        }
        #expect(model.declarations == written)
        let subjects = inferred.choices.map(\.subject)
        #expect(subjects.contains("Manager : Employee"))
        #expect(subjects.contains("Address owned"))
        #expect(subjects.contains("Department.budget decimal"))
        #expect(subjects.contains("Employee identity(email)"))
    }

    @Test func identityIsNotGuessedFromAmbiguousReferences() throws {
        let inferred = try infer([
            "a.template": """
            [
              { "class": "Team", "name": "A", "boss": { "class": "Person", "name": "Kim" } },
              { "class": "Person", "name": "Kim", "age": 3 },
              { "class": "Person", "name": "Kim", "age": 4 }
            ]
            """
        ])
        let model = try #require(inferred.model)
        // Two top-level Kims who differ: `name` does not identify a Person.
        #expect(model.entity(named: "Person")?.identity == [])
        #expect(model.entity(named: "Person")?.attribute(named: "age")?.isOptional == true)
        let refusal = try #require(inferred.choices.first { $0.subject == "Person without identity" })
        #expect(refusal.reason.hasPrefix(#"name "Kim" is stated twice with different age ("#))
    }

    /// The rule: an attribute whose values agree wherever one object is stated twice and are unique otherwise.
    @Test func identityComesFromValuesThatAgreeWhereAnObjectIsStatedTwice() throws {
        let model = try #require(
            try infer([
                "a.template": #"{ "class": "Country", "iso": "FR", "label": "France", "area": 551695 }"#,
                "b.template": """
                [{ "class": "Country", "iso": "FR", "label": "France" },
                 { "class": "Country", "iso": "DE", "label": "Germany", "area": 357022 }]
                """,
                // Unique, but neither named like an identifier nor stated twice: no identity is claimed.
                "c.template": ##"[{ "class": "Colour", "hex": "#fff" }, { "class": "Colour", "hex": "#000" }]"##,
                // Named like one, but empty in one object.
                "d.template": #"[{ "class": "Tag", "name": "" }, { "class": "Tag", "name": "red" }]"#,
            ]).model)
        // France is stated twice, alike: `iso` and `label` both qualify, and `iso` comes first by name.
        #expect(model.entity(named: "Country")?.identity == ["iso"])
        #expect(
            model.entity(named: "Country")?.attribute(named: "area")?.isOptional == false,
            "France states it once, and is one object")
        #expect(model.entity(named: "Colour")?.identity == [])
        #expect(model.entity(named: "Tag")?.identity == [])
    }

    @Test func oneRelationshipEachWayMakesAnInversePair() throws {
        let model = try #require(
            try infer([
                "a.template": """
                [
                  { "class": "Team", "name": "A", "members": [{ "class": "Player", "name": "Kim" }],
                    "coach": { "class": "Coach", "name": "Lee" } },
                  { "class": "Player", "name": "Kim", "team": { "class": "Team", "name": "A" } },
                  { "class": "Coach", "name": "Lee", "teams": [{ "class": "Team", "name": "A" }],
                    "rival": { "class": "Team", "name": "A" } }
                ]
                """
            ]).model)
        #expect(model.entity(named: "Team")?.relationship(named: "members")?.inverse == "team")
        #expect(model.entity(named: "Player")?.relationship(named: "team")?.inverse == "members")
        // Two relationships from Coach to Team: which one is the inverse of Team.coach is not evident.
        #expect(model.entity(named: "Team")?.relationship(named: "coach")?.inverse == nil)
        #expect(model.entity(named: "Coach")?.relationship(named: "teams")?.inverse == nil)
    }

    @Test func objectsReferredToWhereAnotherEntityIsExpectedAreItsSubentity() throws {
        let inferred = try infer([
            "a.template": """
            [
              { "class": "Shelf", "code": "S1", "items": [
                  { "class": "Book", "sku": "b1", "title": "Dune", "price": 10 },
                  { "class": "Ebook", "sku": "e1", "title": "Emma", "price": 4, "bytes": 1200 }
              ] },
              { "class": "Book", "sku": "b2", "title": "Ulysses", "price": 12 },
              { "class": "Tape", "sku": "t1", "title": "Kind of Blue" }
            ]
            """
        ])
        let model = try #require(inferred.model)
        #expect(model.entity(named: "Ebook")?.parentName == "Book")
        #expect(model.declarations.first { $0.name == "Ebook" }?.attributes.map(\.name) == ["bytes"])
        #expect(model.entity(named: "Shelf")?.relationship(named: "items")?.destination == "Book")
        // Tape lacks `price`, which every Book has: not a subentity; nor is Book one of Tape, with two keys in common.
        #expect(model.entity(named: "Tape")?.parentName == nil && model.entity(named: "Book")?.parentName == nil)
        #expect(
            inferred.choices.first { $0.kind == .subentity }?.reason.hasSuffix(
                "they are referred to where Book is expected") == true)
    }

    @Test func oneSharedKeyDoesNotMakeASubentity() throws {
        // An Employee has Department's one key, name, and more: that alone says nothing.
        let model = try #require(try infer(["john.template": Fixtures.originEmployeeTemplate]).model)
        #expect(model.entity(named: "Employee")?.parentName == nil)
    }

    @Test func nestedObjectsOfAClassNeverAtTheTopLevelAndWithoutIdentityAreOwned() throws {
        let model = try #require(
            try infer([
                "a.template": """
                { "class": "Invoice", "number": "A-1", "lines": [
                    { "class": "Line", "text": "pen", "price": "1.50" },
                    { "class": "Line", "text": "pen", "price": "2.00" }
                ] }
                """
            ]).model)
        let lines = try #require(model.entity(named: "Invoice")?.relationship(named: "lines"))
        #expect(lines.owns && lines.isOrdered && lines.destination == "Line")
        #expect(model.entity(named: "Line")?.identity == [])
    }

    @Test func contradictionsAreLocatedAtBothPlaces() throws {
        let inferred = try infer([
            "a.template": #"{ "class": "A", "x": 1 }"#,
            "b.template": "[\n  { \"class\": \"A\", \"x\": \"one\" }\n]",
        ])
        #expect(inferred.model == nil)
        let issue = try #require(inferred.issues.first)
        #expect(
            issue.file?.hasSuffix("/T/b.template") == true && issue.line == 2 && issue.column == 24
                && issue.pointer?.description == "/0/x")
        #expect(issue.message.hasPrefix("A.x is a value of type string here but a value of type integer at "))
        #expect(issue.message.hasSuffix("/T/a.template:1:22: the model cannot be inferred"))
        let relation = try infer([
            "a.template": #"[{ "class": "A", "r": { "class": "B" } }, { "class": "A", "r": [{ "class": "B" }] }]"#
        ])
        #expect(relation.issues.count == 1)
        #expect(
            relation.issues.first?.message.hasPrefix("A.r is an array of related objects here but a related object at ")
                == true)
        #expect(relation.issues.first?.message.hasSuffix("/T/a.template:1:23: the model cannot be inferred") == true)
        let unnamed = try infer(["a.template": #"{ "class": "A", "r": { "$ref": "nowhere" } }"#])
        #expect(
            unnamed.issues.map(\.message) == [
                "A.r: no related object names its class, so its entity cannot be inferred"
            ])
        let unrelated = try infer([
            "a.template": #"{ "class": "A", "r": [{ "class": "B", "x": 1 }, { "class": "C", "y": 2 }] }"#
        ])
        #expect(
            unrelated.issues.map(\.message) == [
                "A.r names objects of classes B and C, which are not kinds of one entity: the model cannot be inferred"
            ])
        #expect(unrelated.issues.first?.pointer?.description == "/r/1")
        // A name the model refuses is located where the templates give it.
        let badNames = try infer(["a.template": #"[{ "class": "Item", "1st": 1 }, { "class": "Bad-Name" }]"#])
        #expect(badNames.issues.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.pointer?.description ?? "")" } == ["1:28 /0/1st", "1:44 /1/class"])
        #expect(badNames.issues.first?.message.hasPrefix("inferred model: Item.1st: property name '1st' is not a valid name") == true)
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
        #expect(
            seeded.stderr
                == "seed: warning: no model.json in Templates; using a model inferred from the templates — run "
                + "'seed model --write' to write it to Templates/model.json, and 'seed model --summary' for why\n")
        #expect(seeded.stdout.contains("Employee           3        0          0     0        0"))
        #expect(try Fixtures.runSeed([], in: directory).stdout.contains("unchanged"))

        let printed = try Fixtures.runSeed(["model", "--templates", "Templates"], in: directory)
        #expect(printed.status == 0 && printed.stderr.isEmpty)
        // The model its author wrote: Manager a subentity of Employee, addresses an owned Address entity, budgets
        // exact decimals — and the store holds them so.
        let inferred = try EntityModel(json: JSONDocument(parsing: Array(printed.stdout.utf8)).value)
        #expect(inferred.entity(named: "Manager")?.parentName == "Employee")
        let addresses = try #require(inferred.entity(named: "Employee")?.relationship(named: "addresses"))
        #expect(addresses.destination == "Address" && addresses.owns && addresses.isToMany)
        #expect(inferred.entity(named: "Department")?.attribute(named: "budget")?.type == .decimal)
        let export = try Fixtures.runSeed(["export"], in: directory).stdout
        // The decimal keeps the scale it is written with: its digits, as a string, since a JSON number would drop them.
        #expect(export.contains(#"{"budget":"1250000.00","class":"Department","name":"Engineering"}"#), "\(export)")
        #expect(export.contains(#""class":"Manager""#))
        try Data(printed.stdout.utf8).write(to: directory.appendingPathComponent("Templates/model.json"))
        let explicit = try Fixtures.runSeed(["validate"], in: directory)
        #expect(explicit.status == 0 && explicit.stderr.isEmpty)
        #expect(explicit.stdout.contains("Employee identity(email)"))
    }

    @Test func contradictingTemplatesExitOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(
            "[{ \"class\": \"A\", \"x\": 1 },\n { \"class\": \"A\", \"x\": true }]", to: "T/a.template", in: directory)
        let model = try Fixtures.runSeed(["model", "--templates", "T"], in: directory)
        #expect(model.status == 1 && model.stdout.isEmpty)
        #expect(
            model.stderr == "T/a.template:2:23: /1/x: A.x is a value of type bool here but a value of type integer at "
                + "T/a.template:1:23: the model cannot be inferred\n")
        let seed = try Fixtures.runSeed(["--templates", "T"], in: directory)
        #expect(seed.status == 1 && seed.stderr.hasSuffix("seed: 1 problem in T; nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
    }
}
