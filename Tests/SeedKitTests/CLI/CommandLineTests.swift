import Foundation
import Testing

import SeedKit
import SeedKitSupport

/// End-to-end tests of how `seed` reads its command line: one line for a mistake, with a did-you-mean and where the
/// help is; help and usage from one table of options; exit statuses.
@Suite("seed command: command line")
struct CommandLineTests {
    @Test func aMistypedOptionIsOneLineWithADidYouMean() throws {
        let typo = try Fixtures.runSeed(["--tempaltes", "x"])
        #expect(typo.status == 2 && typo.stdout.isEmpty)
        #expect(typo.stderr == "seed: unknown option '--tempaltes'; did you mean '--templates'? see 'seed --help'\n")
        let inCommand = try Fixtures.runSeed(["status", "--stroe", "a.sqlite"])
        #expect(
            inCommand.stderr == "seed: unknown option '--stroe'; did you mean '--store'? see 'seed status --help'\n")
        let flagWithValue = try Fixtures.runSeed(["--json=yes"])
        #expect(flagWithValue.status == 2 && flagWithValue.stderr == "seed: --json takes no value; see 'seed --help'\n")
    }

    @Test func aMistypedCommandIsOneLineWithADidYouMean() throws {
        let typo = try Fixtures.runSeed(["valdate"])
        #expect(typo.status == 2 && typo.stdout.isEmpty)
        #expect(typo.stderr == "seed: unknown command 'valdate'; did you mean 'validate'? see 'seed --help'\n")
        let unknown = try Fixtures.runSeed(["frobnicate"])
        #expect(
            unknown.stderr
                == "seed: unknown command 'frobnicate'; commands are validate, status, model, schema, export, "
                + "diff, help, version; see 'seed --help'\n")
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try Fixtures.runSeed(["Templates"], in: directory)
        #expect(folder.status == 2)
        #expect(folder.stderr == "seed: 'Templates' is not a command; to seed from that directory, give --templates "
            + "Templates; see 'seed --help'\n")
        let help = try Fixtures.runSeed(["help", "exprot"])
        #expect(
            help.status == 2
                && help.stderr == "seed: unknown command 'exprot'; did you mean 'export'? see 'seed help --help'\n")
    }

    /// `--templates --store x` is a missing value, not a directory named `--store`; `--templates=-x` is one.
    @Test func anOptionMissingItsValueSaysSo() throws {
        let next = try Fixtures.runSeed(["--templates", "--store", "x.sqlite"])
        #expect(next.status == 2)
        #expect(
            next.stderr == "seed: --templates needs a value (DIR); '--store' is an option, not its value "
                + "(write --templates=--store if it is); see 'seed --help'\n")
        let last = try Fixtures.runSeed(["diff", "a", "b", "--ignore"])
        #expect(last.status == 2 && last.stderr == "seed: --ignore needs a value (PATTERN); see 'seed diff --help'\n")

        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(#"{"class": "Note", "text": "hi"}"#, to: "-odd/a.template", in: directory)
        let dashed = try Fixtures.runSeed(["validate", "--templates=-odd"], in: directory)
        #expect(dashed.status == 0 && dashed.stdout.hasSuffix("1 template files in -odd: valid\n"))
    }

    @Test func helpAndVersion() throws {
        let toolHelp = try Fixtures.runSeed(["--help"])
        #expect(toolHelp.status == 0 && toolHelp.stderr.isEmpty)
        #expect(try Fixtures.runSeed(["help"]).stdout == toolHelp.stdout)
        #expect(toolHelp.stdout.hasPrefix("usage: seed [--templates DIR] [--store PATH] [--model FILE] [--dry-run]"))
        #expect(
            toolHelp.stdout.contains(
                "\n       seed diff --templates DIR --store PATH [--model FILE] [--ignore PATTERN...]"))
        #expect(toolHelp.stdout.contains("\ncommands:\n  validate"))
        for command in ["validate", "status", "model", "schema", "export", "diff", "help", "version"] {
            let help = try Fixtures.runSeed(["help", command])
            #expect(help.status == 0 && help.stdout.hasPrefix("usage: seed \(command)"), "\(command)")
            #expect(try Fixtures.runSeed([command, "--help"]).stdout == help.stdout, "\(command)")
            #expect(
                help.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 },
                "\(command): lines of at most 100 columns")
        }
        for arguments in [["version"], ["--version"]] {
            #expect(try Fixtures.runSeed(arguments).stdout == "seed (SeedKit) 0.1.0\n")
        }
    }

    /// The help lists exactly the options the parser takes: every option listed is accepted, and the usage line and
    /// the option list name the same ones.
    @Test func theHelpListsTheOptionsTheParserTakes() throws {
        for command in ["", "validate", "status", "model", "schema", "export", "diff"] {
            let help = try Fixtures.runSeed(command.isEmpty ? ["--help"] : [command, "--help"]).stdout
            let sections = help.components(separatedBy: "\noptions:\n")
            try #require(sections.count == 2, "\(command)")
            // "  --format json|templates  json: …": the option, and a value it takes (the first of a list).
            let listed = sections[1].split(separator: "\n").prefix { $0.hasPrefix("  ") }.filter {
                $0.hasPrefix("  --")
            }
            .map { line in line.split(separator: " ").prefix(2).map(String.init) }
            #expect(!listed.isEmpty)
            let usage = help.components(separatedBy: "\n\n")[0]
            for words in listed {
                let option = words[0]
                #expect(usage.contains(option), "\(command): \(option) in the usage lines")
                let value = words.count > 1 && words[1].contains("|") ? String(words[1].prefix { $0 != "|" }) : "x"
                // --help after the option: parsed, then the help shown; an option the parser lacked would fail first.
                let arguments = (command.isEmpty ? [] : [command]) + ["\(option)=\(value)", "--help"]
                let accepted = try Fixtures.runSeed(arguments)
                #expect(accepted.status == 0 || accepted.stderr.contains("takes no value"), "\(command): \(option)")
            }
        }
    }

    /// `NO_COLOR` turns colours off only when it is set to something (no-color.org): set and empty, it does not.
    @Test func noColorCountsOnlyWhenNotEmpty() throws {
        try #require(Fixtures.canRunOnTerminal, "util-linux's script gives the seed a terminal")
        let directory = try Fixtures.seededSampleWithANewProject()
        defer { try? FileManager.default.removeItem(at: directory) }
        let diff = ["diff", "--templates", "Templates", "--store", "seed.sqlite"]
        // The templates are OLD, the store NEW: the project only the templates hold shows as removed, in red.
        let empty = try Fixtures.runSeedOnTerminal(diff, in: directory, environment: ["NO_COLOR": ""])
        #expect(empty.status == 1 && empty.output.hasPrefix("\u{1B}[31m- Project[code=ZEUS]\u{1B}[0m\r\n"))
        let set = try Fixtures.runSeedOnTerminal(diff, in: directory, environment: ["NO_COLOR": "1"])
        #expect(set.status == 1 && set.output.hasPrefix("- Project[code=ZEUS]\r\n") && !set.output.contains("\u{1B}["))
    }
}

/// `--store` and what seed says about a store it cannot use, with the fix.
@Suite("seed command: stores")
struct StoreArgumentCommandTests {
    /// Paths SQLite reads as something other than a file are refused before anything is written: a `file:` URI
    /// used to leave `abc.sqlite.creating-*` files behind, `:memory:` made a file of that name.
    @Test(arguments: [
        ("", "seed: --store path is empty: give a file path, such as seed.sqlite; see 'seed --help'\n"),
        (
            ":memory:",
            "seed: --store ':memory:' is a private in-memory database that would vanish when the run ends: give a "
                + "file path (an app wanting an in-memory store uses SQLiteStore.inMemory(model:) instead); "
                + "see 'seed --help'\n"
        ),
        (
            "file:abc.sqlite",
            "seed: --store 'file:abc.sqlite' is an SQLite URI, not a file path: give the path (abc.sqlite), "
                + "or ./file:abc.sqlite for a file whose name starts with 'file:'; see 'seed --help'\n"
        ),
        (
            "mysql://seed@localhost/app",
            "seed: --store 'mysql://seed@localhost/app' is a store URL, and this SeedKit "
                + "has no store for 'mysql://': a SQLite store is a file path, such as seed.sqlite; "
                + "see 'seed --help'\n"
        ),
    ])
    func pathsThatNameNoFileAreRefused(path: String, message: String) throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Fixtures.runSeed(["--store", path], in: directory)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Templates"], "nothing written")
        let status = try Fixtures.runSeed(["status", "--store", path], in: directory)
        #expect(
            status.status == 2
                && status.stderr == message.replacingOccurrences(of: "'seed --help'", with: "'seed status --help'"))
        // The library refuses them too, for an app that calls Seeder itself.
        #expect(throws: SeedError.self) {
            try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Templates"], "nothing written")
    }

    /// A store another process holds is waited for up to --busy-timeout, then named, with the option to change.
    @Test func aLockedStoreSaysSoAfterTheBusyTimeout() throws {
        let directory = try Fixtures.seededSampleWithANewProject()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        let locked = try Fixtures.runSeed(["--busy-timeout", "0.3"], in: directory)
        let waited = ContinuousClock.now - start
        #expect(locked.status == 2 && locked.stdout.isEmpty)
        #expect(
            locked.stderr == "seed: store seed.sqlite is locked by another process; waited 0.3 s (--busy-timeout)\n")
        #expect(waited >= .milliseconds(300) && waited < .seconds(4))
        try holder.execute(sql: "ROLLBACK")
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0, "seeds once the store is free")

        for bad in ["soon", "-1", "nan"] {
            let usage = try Fixtures.runSeed(["--busy-timeout=\(bad)"], in: directory)
            let message =
                "seed: --busy-timeout '\(bad)' is not a number of seconds from 0 to 86400; see 'seed --help'\n"
            #expect(usage.status == 2 && usage.stderr == message)
        }
    }

    /// A model that drops a property stops seed with the flag that lets it go ahead; with the flag, it does.
    @Test func aMigrationThatLosesDataNamesAllowDataLoss() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let templates = directory.appendingPathComponent("Templates")
        for file in ["model.json", "projects/projects.template"] {
            let url = templates.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: #", "started": "date?""#, with: "")
                .replacingOccurrences(of: #", "started": "2025-01-06T09:00:00Z""#, with: "").write(
                    to: url, atomically: true, encoding: .utf8)
        }
        let refused = try Fixtures.runSeed([], in: directory)
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("seed: Project: started: dropping the column would lose its values"))
        #expect(
            refused.stderr.hasSuffix(
                "; run again with --allow-data-loss to drop it, or give the property or entity its old "
                    + "name as an alias to keep it\n"))
        let allowed = try Fixtures.runSeed(["--allow-data-loss"], in: directory)
        #expect(allowed.status == 0 && allowed.stdout.hasPrefix("seed: applied 5 template files"))
    }
}

/// `seed model --write`, and the model file it replaces the shell redirect of.
@Suite("seed command: model file")
struct ModelFileCommandTests {
    @Test func writeMakesTheModelFileAndKeepsAnExistingOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(Fixtures.originEmployeeTemplate, to: "T/john.template", in: directory)
        try Fixtures.write(Fixtures.originDepartmentTemplate, to: "T/boring.template", in: directory)
        let model = directory.appendingPathComponent("T/model.json")

        let written = try Fixtures.runSeed(["model", "--write", "--templates", "T"], in: directory)
        #expect(written.status == 0 && written.stdout.isEmpty)
        #expect(written.stderr == "seed: wrote T/model.json: 2 entities; edit it to change what inference chose\n")
        // Both forms state the department: nothing is created by reference alone.
        var expected = try EntityModel(json: JSONDocument(parsing: Fixtures.originModelText).value).declarations
        for index in expected.indices { expected[index].isCreatedByReference = false }
        #expect(try EntityModel(contentsOf: model) == EntityModel(expected))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("T").path).sorted()
                == ["boring.template", "john.template", "model.json"], "no temporary file left")

        try Data(#"{"entities": {}}"#.utf8).write(to: model)
        let kept = try Fixtures.runSeed(["model", "--write", "--templates", "T"], in: directory)
        #expect(
            kept.status == 2
                && kept.stderr == "seed: T/model.json exists; --force replaces it with the inferred model\n")
        #expect(try String(contentsOf: model, encoding: .utf8) == #"{"entities": {}}"#)
        let replaced = try Fixtures.runSeed(["model", "--write", "--force", "--templates", "T"], in: directory)
        #expect(replaced.status == 0)
        #expect(try EntityModel(contentsOf: model).entityNames == ["Department", "Employee"])

        let misused = try Fixtures.runSeed(["model", "--force", "--templates", "T"], in: directory)
        #expect(
            misused.status == 2
                && misused.stderr
                    == "seed: --force replaces an existing model.json, with --write; see 'seed model --help'\n"
        )
    }

    /// `seed model > DIR/model.json` leaves an empty file when the command fails: that counts as no model file, for
    /// seeding and for --write.
    @Test func anEmptyModelFileCountsAsNone() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(Fixtures.originDepartmentTemplate, to: "Templates/boring.template", in: directory)
        try Data().write(to: directory.appendingPathComponent("Templates/model.json"))
        let seeded = try Fixtures.runSeed(["--quiet"], in: directory)
        #expect(seeded.status == 0)
        #expect(
            seeded.stderr.hasPrefix(
                "seed: warning: Templates/model.json is empty; using a model inferred from the templates"))
        let written = try Fixtures.runSeed(["model", "--write"], in: directory)
        #expect(written.status == 0)
        #expect(
            try EntityModel(contentsOf: directory.appendingPathComponent("Templates/model.json")).entityNames == [
                "Department", "Employee",
            ])
        let explicit = try Fixtures.runSeed([], in: directory)
        #expect(explicit.status == 0 && explicit.stderr.isEmpty && explicit.stdout.hasPrefix("seed: unchanged"))
    }

    /// A directory of Django fixtures holds no templates: seed says what it ignored instead of succeeding silently.
    @Test func aDirectoryWithoutTemplatesWarnsNamingWhatWasIgnored() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["auth.json", "catalog.json", "orders.json", "users.json"] {
            try Fixtures.write(
                #"[{"model": "app.thing", "pk": 1, "fields": {}}]"#, to: "fixtures/\(name)", in: directory)
        }
        let result = try Fixtures.runSeed(["validate", "--templates", "fixtures"], in: directory)
        #expect(
            result.stderr.hasPrefix(
                "seed: warning: no .template files in fixtures; ignored 4 other files (auth.json, "
                    + "catalog.json, orders.json and 1 more): templates are JSON files named NAME.template\n"))
    }
}
