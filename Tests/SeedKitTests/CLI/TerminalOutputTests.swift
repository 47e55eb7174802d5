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

    /// Every command, fed a template directory and a store path holding an escape sequence and a newline, a file name
    /// with a newline, an identity with a newline and values with escape sequences, C1 and line-separator characters:
    /// what reaches the terminal holds no control character but the line breaks the tool prints itself, in text
    /// output; JSON output escapes what JSON escapes. Each run's lines are counted, so that no line is forged.
    @Test func everyCommandEscapesHostilePathsNamesAndValues() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = "Temp\u{1B}[31mlates\n+x", store = "st\u{1B}]0;t\u{7}ore\n.sqlite"
        let model = #"{"entities": {"Employee": {"identity": ["email"], "attributes": {"email": "string", "name": "string", "notes": "json?"}}}}"#
        try Fixtures.write(model, to: "\(templates)/model.json", in: directory)
        let ann = #"{"class": "Employee", "email": "x\n+FakeObject", "name": "Ann\u001b[31mRed", "notes": {"k\u001b[2J": "v\u009b"}}"#
        let bob = #"{"class": "Employee", "email": "y\u2028z", "name": "Bob\u202e"}"#
        try Fixtures.write("[\(ann), \(bob)]", to: "\(templates)/a\nb.template", in: directory)
        let (quotedTemplates, quotedStore) = (#""Temp\u001b[31mlates\n+x""#, #""st\u001b]0;t\u0007ore\n.sqlite""#)

        func run(_ arguments: [String], lines: Int, status: Int32 = 0, json: Bool = false) throws -> CommandResult {
            let result = try Fixtures.runSeed(arguments, in: directory)
            let output = result.stdout + result.stderr
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let forbidden = json
                ? output.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
                : output.unicodeScalars.filter { $0 != "\n" && TerminalText.hasControlCharacters(String($0)) }
            #expect(forbidden.isEmpty, "\(arguments): \(forbidden) in \(output)")
            #expect(output.split(separator: "\n", omittingEmptySubsequences: false).count == lines + 1, "\(arguments): \(output)")
            return result
        }
        let validated = try run(["validate", "--templates", templates], lines: 3)
        #expect(validated.stdout.hasSuffix("1 template files in \(quotedTemplates): valid\n"))
        let seeded = try run(["--templates", templates, "--store", store], lines: 3)
        #expect(seeded.stdout.hasPrefix("seed: applied 1 template files from \(quotedTemplates) to \(quotedStore)\n"))
        #expect(try run(["--templates", templates, "--store", store], lines: 1).stdout.hasPrefix("seed: unchanged — \(quotedStore)"))
        let status = try run(["status", "--store", store], lines: 4)
        #expect(status.stdout.hasPrefix("store \(quotedStore): seeded from \(quotedTemplates) at "))
        #expect(status.stdout.hasSuffix(#"  "a\nb.template""# + "\n"))
        _ = try run(["model", "--templates", templates], lines: 14, json: true)
        _ = try run(["model", "--summary", "--templates", templates], lines: 2)
        let exported = try run(["export", "--store", store], lines: 22, json: true)
        #expect(exported.stdout.contains(#""email":"x\n+FakeObject","name":"Ann\u001b[31mRed""#))

        // The application edits Ann's name in the store, the templates too, and drop Bob: a conflict kept, an object
        // no longer in the templates, the plan of a dry run, and a diff, in text and GitHub's format.
        let connection = try SQLiteConnection(path: directory.appendingPathComponent(store).path)
        try connection.execute(sql: "UPDATE Employee SET name = 'App' || char(27) || '[1m' WHERE email LIKE 'x%'")
        try Fixtures.write(
            #"{"class": "Employee", "email": "x\n+FakeObject", "name": "Changed\u001b[5m"}"#, to: "\(templates)/a\nb.template",
            in: directory)
        let kept = #"  Employee[email="x\n+FakeObject"].name: template "Changed\u001b[5m", store "App\u001b[1m" (changed by the application)"#
        let gone = #"1 no longer in the templates; --prune deletes it: Employee[email="y\u2028z"]"#
        let dryRun = try run(["--dry-run", "--templates", templates, "--store", store], lines: 9)
        #expect(dryRun.stdout.contains(#"~ Employee[email="x\n+FakeObject"].notes: {"k\u001b[2J":"v\u009b"} → (absent)"#))
        let applied = try run(["--templates", templates, "--store", store], lines: 6)
        #expect(applied.stdout.hasSuffix("\n\(kept)\n\(gone)\n"), "\(applied.stdout)")
        let diff = try run(["diff", "--templates", templates, "--store", store], lines: 2, status: 1)
        #expect(diff.stdout.hasPrefix(#"~ Employee[email="x\n+FakeObject"].name: "Changed\u001b[5m" → "App\u001b[1m""#))
        let github = try run(["diff", "--format", "github", "--templates", templates, "--store", store], lines: 2, status: 1)
        #expect(github.stdout.hasPrefix("::warning file=Temp%1B[31mlates%0A+x/a%0Ab.template,line=1,col=1,"), "\(github.stdout)")
    }
}
