import Foundation
import Testing
import SeedKit

/// `seed schema`: the JSON Schema of the sample model accepts the sample templates and rejects bad ones — checked by
/// Python's `jsonschema` when it is installed (always in CI: `.ci/run` installs it and sets
/// `SEEDKIT_REQUIRE_JSONSCHEMA=1`, which makes its absence a failure), and by the schema's structure always.
@Suite("seed command: template schema")
struct TemplateSchemaTests {
    /// Whether `python3` with the `jsonschema` package can run.
    static let hasJSONSchema: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import jsonschema"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Validates each file against the schema with Python's jsonschema; one line per file: "ok" or the first error.
    func pythonValidate(schema: URL, files: [URL]) throws -> [String] {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for path in sys.argv[2:]:
                errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
                print("ok" if not errors else errors[0].message)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema.path] + files.map(\.path)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func theSampleTemplatesMatchAndBadOnesDoNot() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = Fixtures.packageRoot.appendingPathComponent("Templates")
        let printed = try Fixtures.runSeed(["schema", "--templates", templates.path])
        #expect(printed.status == 0 && printed.stderr.isEmpty)
        let schema = try JSONDocument(parsing: Array(printed.stdout.utf8)).value
        #expect(schema == TemplateSchema.json(for: try Fixtures.sampleModel()))
        #expect(try Fixtures.runSeed(["schema", "--model", templates.appendingPathComponent("model.json").path]).stdout == printed.stdout)

        // Structure, checked whether or not Python is here.
        #expect(schema["$schema"] == .string(TemplateSchema.dialect))
        let employee = try #require(schema["$defs"]?["entity.Employee"])
        #expect(employee["additionalProperties"] == false)
        #expect(employee["properties"]?["hired"] == ["type": ["string", "null"], "format": "date-time"])
        #expect(employee["properties"]?["projects"]?["type"] == "array")
        #expect(schema["$defs"]?["object"]?["properties"]?["class"]?["enum"]
            == ["Address", "Department", "Employee", "Manager", "Project"])
        #expect(schema["$defs"]?["entity.Department"]?["properties"]?["budget"] == ["type": ["number", "string", "null"]])

        guard Self.hasJSONSchema else {
            // Without jsonschema the structural checks above are the test — except in CI, which installs it.
            if ProcessInfo.processInfo.environment["SEEDKIT_REQUIRE_JSONSCHEMA"] == "1" {
                Issue.record("SEEDKIT_REQUIRE_JSONSCHEMA=1, but python3 cannot import jsonschema")
            }
            return
        }
        let schemaURL = directory.appendingPathComponent("schema.json")
        try Data(printed.stdout.utf8).write(to: schemaURL)
        let samples = try TemplateSet(directory: templates).files.map { templates.appendingPathComponent($0.relativePath) }
        #expect(try pythonValidate(schema: schemaURL, files: samples) == Array(repeating: "ok", count: samples.count))
        let bad = [
            #"{ "class": "Employee", "nmae": "Ann" }"#,
            #"[{ "class": "Employee", "hired": 2021 }]"#,
            #"[{ "class": "Departmnet", "name": "Sales" }]"#,
            #"{ "class": "Employee", "department": [{ "class": "Department", "name": "Sales" }] }"#,
        ]
        var badURLs: [URL] = []
        for (index, text) in bad.enumerated() {
            badURLs.append(directory.appendingPathComponent("bad\(index).template"))
            try Data(text.utf8).write(to: badURLs[index])
        }
        let results = try pythonValidate(schema: schemaURL, files: badURLs)
        #expect(results.count == bad.count && !results.contains("ok"))
        #expect(results.first == "Additional properties are not allowed ('nmae' was unexpected)")
    }

    @Test func theSchemaFollowsTheModelsTemplateConventions() throws {
        let directory = try Fixtures.conventionsTemplateSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let printed = try Fixtures.runSeed(["schema", "--templates", directory.path])
        #expect(printed.status == 0 && printed.stderr.isEmpty)
        let schema = try JSONDocument(parsing: Array(printed.stdout.utf8)).value
        let employee = try #require(schema["$defs"]?["entity.Employee"]?["properties"])
        #expect(employee["hired_at"] == ["type": ["number", "null"], "description": "seconds since 1970"])
        #expect(employee["hiredAt"] == nil)
        #expect(employee["department"]?["anyOf"]?.arrayValue?.count == 2)

        guard Self.hasJSONSchema else { return }
        let schemaURL = directory.appendingPathComponent("schema.json")
        try Data(printed.stdout.utf8).write(to: schemaURL)
        let samples = Fixtures.conventionsTemplates.map { directory.appendingPathComponent($0.path) }
        #expect(try pythonValidate(schema: schemaURL, files: samples) == Array(repeating: "ok", count: samples.count))
        let bad = [
            #"{ "class": "Employee", "fullName": "Ann" }"#,
            #"{ "class": "Employee", "hired_at": "2024-05-01T09:30:00Z" }"#,
            #"{ "class": "Employee", "department": ["Sales"] }"#,
        ]
        var badURLs: [URL] = []
        for (index, text) in bad.enumerated() {
            badURLs.append(directory.appendingPathComponent("bad\(index).json"))
            try Data(text.utf8).write(to: badURLs[index])
        }
        let results = try pythonValidate(schema: schemaURL, files: badURLs)
        #expect(results.count == bad.count && !results.contains("ok"), "\(results)")
    }

    @Test func schemaUsage() throws {
        let both = try Fixtures.runSeed(["schema", "--model", "m.json", "--templates", "T"])
        #expect(both.status == 2)
        #expect(both.stderr == "seed: give --model FILE or --templates DIR, not both; see 'seed schema --help'\n")
    }
}
