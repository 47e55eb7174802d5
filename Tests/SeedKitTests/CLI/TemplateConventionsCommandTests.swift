import Foundation
import Testing
import SeedKit

/// The template conventions a model file opts into — snake_case keys, epoch dates, members named by identity value —
/// through the real `seed` binary: validated, seeded, exported back byte for byte, and a mistyped identity value is a
/// located error, as a mistyped identity stub is.
@Suite("seed command: template conventions")
struct TemplateConventionsCommandTests {
    @Test func aSetInTheConventionsSeedsAndExportsBackByteForByte() throws {
        let directory = try Fixtures.conventionsTemplateSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let valid = try Fixtures.runSeed(["validate", "--templates", "."], in: directory)
        #expect(valid.status == 0 && valid.stdout.hasSuffix("3 template files in .: valid\n"), "\(valid.stderr)")
        let seeded = try Fixtures.runSeed(["--templates", ".", "--store", "one.sqlite"], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")

        // The store holds the model's names and values, whatever the keys and forms the templates used.
        let export = try Fixtures.runSeed(["export", "--store", "one.sqlite"], in: directory)
        let objects = try JSONDocument(parsing: Array(export.stdout.utf8)).value["objects"]?.arrayValue ?? []
        let ann = try #require(objects.first { $0["emailAddress"] == "ann@example.com" })
        #expect(ann["hiredAt"] == "2024-05-01T09:30:00.25Z" && ann["lastLogin"] == "2024-05-01T09:30:00.123Z")
        #expect(ann["department"]?["name"] == "Sales" && ann["projectCodes"]?.arrayValue?.count == 2)
        let john = try #require(objects.first { $0["emailAddress"] == "john@example.com" })
        #expect(john["department"]?["name"] == "Boring" && john["hiredAt"] == "1969-12-31T23:59:59.5Z")

        let out = try Fixtures.runSeed(["export", "--store", "one.sqlite", "--format", "templates", "--output", "Out"], in: directory)
        #expect(out.status == 0, "\(out.stderr)")
        let annFile = try String(contentsOf: directory.appendingPathComponent("Out/Employee/ann@example.com.template"), encoding: .utf8)
        #expect(annFile.contains(#""department": "Sales""#) && annFile.contains(#""hired_at": 1714555800.25"#))
        #expect(annFile.contains(#""last_login": 1714555800123"#) && annFile.contains(#""email_address": "ann@example.com""#))
        #expect(try Fixtures.runSeed(["--templates", "Out", "--store", "two.sqlite"], in: directory).status == 0)
        #expect(
            try Fixtures.runSeed(["export", "--store", "two.sqlite", "--format", "templates", "--output", "Again"], in: directory)
                .status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.appendingPathComponent("Out").path)
            .filter { $0.hasSuffix(".template") || $0.hasSuffix(".json") }
        #expect(files.count == 7, "model.json, two departments, two employees, two projects")
        for file in files {
            let first = directory.appendingPathComponent("Out/\(file)"), second = directory.appendingPathComponent("Again/\(file)")
            #expect(try Data(contentsOf: first) == Data(contentsOf: second), "\(file)")
        }
    }

    @Test func aDriftCheckLocatesObjectsInTemplatesWrittenInTheConventions() throws {
        let directory = try Fixtures.conventionsTemplateSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--templates", ".", "--store", "s.sqlite"], in: directory).status == 0)
        try SQLiteConnection(path: directory.appendingPathComponent("s.sqlite").path)
            .execute(sql: #"UPDATE "Employee" SET "fullName" = 'John J.' WHERE "emailAddress" = 'john@example.com'"#)
        let diff = try Fixtures.runSeed(
            ["diff", "--templates", ".", "--store", "s.sqlite", "--format", "json"], in: directory)
        #expect(diff.status == 1)
        let change = try JSONDocument(parsing: Array(diff.stdout.utf8)).value["differences"]?.arrayValue?.first
        #expect(change?["path"] == "Employee[emailAddress=john@example.com].fullName")
        // Where John is written in full: staff.template, line 5 — found by his snake_case identity key.
        #expect(change?["file"]?.stringValue?.hasSuffix("staff.template") == true && change?["line"] == 5, "\(diff.stdout)")
    }

    @Test func aMistypedIdentityValueIsALocatedErrorAndNothingIsWritten() throws {
        let directory = try Fixtures.conventionsTemplateSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let staff = directory.appendingPathComponent("staff.template")
        let text = try String(contentsOf: staff, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #""department": "Sales""#, with: #""department": "Sles""#).utf8).write(to: staff)
        let expected = "staff.template:3:75: /0/department: Department[name=Sles] names no Department the templates or "
            + "the store hold; did you mean Sales?\n"
        let validate = try Fixtures.runSeed(["validate", "--templates", "."], in: directory)
        #expect(validate.status == 1 && validate.stderr.hasPrefix(expected), "\(validate.stderr)")
        let seed = try Fixtures.runSeed(["--templates", ".", "--store", "s.sqlite"], in: directory)
        #expect(seed.status == 1 && seed.stderr.hasPrefix(expected), "\(seed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("s.sqlite").path))
    }
}
