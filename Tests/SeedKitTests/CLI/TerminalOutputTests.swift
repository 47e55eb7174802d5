import Foundation
import Testing

import SeedKit
import SeedKitSupport

/// Control characters from templates, stores and file names never reach the terminal as they are: every text output
/// escapes them as JSON strings do, so that a value can neither forge a line nor colour or retitle the terminal.
@Suite("seed command: forged terminal output")
struct TerminalOutputTests {
    /// An identity with a newline that would forge a line of the diff, a name with an escape sequence, and a file
    /// whose name holds a newline.
    static let forgedIdentity = "x\n+FakeObject"
    static let model =
        #"{"entities": {"Employee": {"identity": ["email"], "attributes": {"email": "string", "name": "string"}}}}"#

    private func hostileSet() throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        try Fixtures.write(Self.model, to: "Templates/model.json", in: directory)
        try Fixtures.write(
            #"{"class": "Employee", "email": "x\n+FakeObject", "name": "Ann\u001b[31mRed"}"#,
            to: "Templates/a\nb.template", in: directory)
        return directory
    }

    /// Every byte below U+0020 but the line ends, DEL and C1 characters, in `text`.
    private func controlCharacters(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func seedStatusAndDiffEscapeValuesKeysAndPaths() throws {
        let directory = try hostileSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeded = try Fixtures.runSeed([], in: directory)
        #expect(seeded.status == 0 && controlCharacters(in: seeded.stdout + seeded.stderr).isEmpty)

        let status = try Fixtures.runSeed(["status"], in: directory)
        let fileLine = try #require(status.stdout.split(separator: "\n").last)
        #expect(fileLine.hasPrefix("  ") && fileLine.hasSuffix(#"  "a\nb.template""#), "\(fileLine)")
        #expect(status.stdout.split(separator: "\n").count == 4)

        // The application renames Ann with a C1 control character (CSI in some terminals) in the store.
        let store = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
        try store.execute(sql: "UPDATE Employee SET name = 'Bob' || char(155)")
        let diff = try Fixtures.runSeed(["diff", "--templates", "Templates", "--store", "seed.sqlite"], in: directory)
        #expect(diff.status == 1)
        #expect(
            diff.stdout == #"~ Employee[email="x\n+FakeObject"].name: "Ann\u001b[31mRed" → "Bob\u009b""# + "\n"
                + "0 objects added, 0 removed, 1 changed\n")

        // JSON output escapes what JSON escapes (C0); C1 characters, which JSON need not escape, stay as they are.
        let json = try Fixtures.runSeed(
            ["diff", "--templates", "Templates", "--store", "seed.sqlite", "--format", "json"], in: directory)
        #expect(controlCharacters(in: json.stdout) == ["\u{9B}"] && json.stdout.contains(#""new": "Bob"#))
        let exported = try Fixtures.runSeed(["export"], in: directory)
        #expect(
            exported.stdout.contains(#""email":"x\n+FakeObject""#)
                && controlCharacters(in: exported.stdout) == ["\u{9B}"],
            "canonical JSON keeps C1 characters, which JSON need not escape, byte for byte")
    }

    @Test func errorsEscapeClassNamesAndPaths() throws {
        let directory = try hostileSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(
            #"{"class": "Emp\u001b]0;pwned\u0007loyee", "email": "e"}"#, to: "Templates/c\u{1B}[2J.template",
            in: directory)
        let validate = try Fixtures.runSeed(["validate"], in: directory)
        #expect(validate.status == 1 && controlCharacters(in: validate.stderr).isEmpty)
        let lines = validate.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "")
        #expect(
            lines[0].hasPrefix(
                #""Templates/c\u001b[2J.template":1:11: /class: unknown class 'Emp\u001b]0;pwned\u0007loyee'"#))
        #expect(lines[1] == "seed: 1 problem in Templates; nothing was written")

        let missing = try Fixtures.runSeed(["status", "--store", "no\nstore.sqlite"], in: directory)
        #expect(missing.status == 2 && missing.stderr == #"seed: no store at no\nstore.sqlite"# + "\n")
        let badOption = try Fixtures.runSeed(["--\u{1B}[31m"], in: directory)
        #expect(
            badOption.status == 2
                && badOption.stderr == #"seed: unknown option '--\u001b[31m'; see 'seed --help'"# + "\n")
    }

    @Test func theModelSummaryAndExportsEscapeToo() throws {
        let directory = try hostileSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Templates/model.json"))
        // The same employee stated twice: the summary quotes its identity as the example.
        try Fixtures.write(
            #"{"class": "Employee", "email": "x\n+FakeObject", "name": "Ann\u001b[31mRed"}"#,
            to: "Templates/again.template", in: directory)
        let summary = try Fixtures.runSeed(["model", "--summary"], in: directory)
        #expect(summary.status == 0 && controlCharacters(in: summary.stdout + summary.stderr).isEmpty)
        #expect(
            summary.stdout.contains(
                #"("x\n+FakeObject" 2 times: "Templates/a\nb.template":1:1, Templates/again.template:1:1)"#))

        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let written = try Fixtures.runSeed(["export", "--format", "templates", "--output", "out\nput"], in: directory)
        #expect(
            written.status == 0
                && written.stderr == #"seed: wrote 1 template files and model.json to "out\nput""# + "\n")
    }
}
