import Foundation
import Testing
import SeedKit

/// End-to-end tests of `seed` seeding a store: the built binary, its output and exit status, and the store it wrote.
@Suite("seed command: seeding")
struct SeederCommandTests {
    /// Seeds the sample set in `directory`, then renames one employee through a context, as an application would;
    /// returns the store's URL.
    private func seedAndEditInApp(_ directory: URL, email: String, name: String) throws -> URL {
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let store = directory.appendingPathComponent("seed.sqlite")
        let context = try SQLiteStore(path: store.path, model: Fixtures.sampleModel()).newContext()
        let employee = try #require(context.object("Employee", identity: ["email": email]))
        try employee.setValue(name, forKey: "name")
        try context.save()
        return store
    }

    /// Names of the stored objects of an entity (and its subentities), sorted.
    func names(_ entity: String, store path: URL) throws -> [String] {
        let store = try SQLiteStore(path: path.path, model: Fixtures.sampleModel())
        return try store.newContext().fetch(entity).map { try $0.value(forKey: "name") as! String }.sorted()
    }

    @Test func firstLaunchAppliesSecondSaysUnchanged() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Fixtures.runSeed([], in: directory)
        #expect(first.status == 0)
        #expect(first.stderr.isEmpty)
        #expect(first.stdout.hasPrefix("seed: applied 5 template files from Templates to seed.sqlite\n"))
        #expect(first.stdout.contains("Employee           3        0          0     0        0"))
        #expect(first.stdout.contains("Address            3        0          0     0        0"))
        let store = directory.appendingPathComponent("seed.sqlite")
        #expect(try names("Employee", store: store) == ["Ann Lee", "Bo Chen", "Cleo Park", "Dev Patel"])
        let context = try SQLiteStore(path: store.path, model: Fixtures.sampleModel()).newContext()
        let ann = try #require(context.object("Employee", identity: ["email": "ann@example.com"]))
        #expect(try (ann.value(forKey: "addresses") as! [ManagedObject]).map { try $0.value(forKey: "street") as! String }
            == ["1 Harbour Road", "22 Mill Lane"])
        #expect(try (ann.value(forKey: "projects") as! [ManagedObject]).count == 2)
        let cleo = try #require(context.object("Manager", identity: ["email": "cleo@example.com"]))
        #expect(try (cleo.value(forKey: "reports") as! [ManagedObject]).count == 2)

        let second = try Fixtures.runSeed([], in: directory)
        #expect(second.status == 0)
        #expect(second.stdout == "seed: unchanged — seed.sqlite already holds Templates (5 files, 11 objects)\n")
        let status = try Fixtures.runSeed(["status"], in: directory)
        #expect(status.status == 0)
        #expect(status.stdout.contains("11 objects: Address 3, Department 2, Employee 3, Manager 1, Project 2"))
        #expect(status.stdout.contains("  staff/managers.template"))
    }

    @Test func changedTemplatesUpdateUntouchedObjectsAndKeepEditedOnes() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try seedAndEditInApp(directory, email: "ann@example.com", name: "Ann (edited in the app)")
        let staff = directory.appendingPathComponent("Templates/staff/engineering.template")
        let text = try String(contentsOf: staff, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Ann Lee", with: "Ann Lee-Jones").replacingOccurrences(of: "Bo Chen", with: "Bo Chen-Smith").utf8)
            .write(to: staff)

        let changed = try Fixtures.runSeed([], in: directory)
        #expect(changed.status == 0)
        #expect(changed.stdout.contains("Employee           0        1          1     1        0"))
        #expect(changed.stdout.contains("kept 1 object the application changed since seeding (--force overwrites):"))
        #expect(changed.stdout.contains(
            "  Employee[email=ann@example.com].name: template Ann Lee-Jones, store Ann (edited in the app) (changed by the application)"))
        #expect(try names("Employee", store: store) == ["Ann (edited in the app)", "Bo Chen-Smith", "Cleo Park", "Dev Patel"])
        // The kept object stays kept on the next run: the set is unchanged.
        #expect(try Fixtures.runSeed([], in: directory).stdout.contains("unchanged"))

        let forced = try Fixtures.runSeed(["--force"], in: directory)
        #expect(forced.status == 0)
        #expect(forced.stdout.contains("Employee           0        1          2     0        0"))
        #expect(try names("Employee", store: store) == ["Ann Lee-Jones", "Bo Chen-Smith", "Cleo Park", "Dev Patel"])
    }

    @Test func pruneDeletesObjectsGoneFromTheTemplates() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let store = directory.appendingPathComponent("seed.sqlite")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Templates/staff/sales.template"))
        let kept = try Fixtures.runSeed([], in: directory)
        #expect(kept.status == 0)
        #expect(try names("Employee", store: store).contains("Dev Patel"))
        let pruned = try Fixtures.runSeed(["--prune"], in: directory)
        #expect(pruned.status == 0)
        #expect(pruned.stdout.contains("Employee           0        0          2     0        1"))
        #expect(try names("Employee", store: store) == ["Ann Lee", "Bo Chen", "Cleo Park"])
    }

    @Test func pruneKeepsObjectsTheApplicationChanged() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try seedAndEditInApp(directory, email: "dev@example.com", name: "Dev (edited)")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Templates/staff/sales.template"))
        let pruned = try Fixtures.runSeed(["--prune"], in: directory)
        #expect(pruned.status == 0)
        #expect(pruned.stdout.contains("Employee[email=dev@example.com]"))
        #expect(try names("Employee", store: store).contains("Dev (edited)"))
    }

    @Test func dryRunWritesNothing() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dry = try Fixtures.runSeed(["--dry-run"], in: directory)
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("seed: would apply 5 template files"))
        #expect(dry.stdout.contains("Department         2        0          0     0        0"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))

        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Templates/staff/sales.template"))
        let dryPrune = try Fixtures.runSeed(["--dry-run", "--prune"], in: directory)
        #expect(dryPrune.stdout.contains("Employee           0        0          2     0        1"))
        #expect(try names("Employee", store: directory.appendingPathComponent("seed.sqlite")).contains("Dev Patel"))
    }

    @Test func dryRunShowsItsPlanAsSeedDiffDoes() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let sales = directory.appendingPathComponent("Templates/staff/sales.template")
        let text = try String(contentsOf: sales, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Dev Patel", with: "Dev K. Patel").utf8).write(to: sales)
        let dry = try Fixtures.runSeed(["--dry-run"], in: directory)
        #expect(dry.status == 0)
        #expect(dry.stdout.hasSuffix("""
            plan, as seed diff shows it:
            ~ Employee[email=dev@example.com].name: "Dev Patel" → "Dev K. Patel"
            0 objects added, 0 removed, 1 changed

            """))
        let json = try JSONDocument(parsing: Array(try Fixtures.runSeed(["--dry-run", "--json"], in: directory).stdout.utf8)).value
        #expect(json["plan"]?["differences"]?.arrayValue?.first?["path"] == "Employee[email=dev@example.com].name")
        #expect(try names("Employee", store: directory.appendingPathComponent("seed.sqlite")).contains("Dev Patel"))

        try FileManager.default.removeItem(at: sales)
        let dryPrune = try Fixtures.runSeed(["--dry-run", "--prune"], in: directory)
        #expect(dryPrune.stdout.contains("\n- Employee[email=dev@example.com]\n"))
        #expect(dryPrune.stdout.contains("0 objects added, 1 removed"))
    }

    @Test func jsonReportIsOneObject() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Fixtures.runSeed(["--json"], in: directory)
        #expect(result.status == 0)
        let json = try JSONDocument(parsing: Array(result.stdout.utf8)).value
        #expect(json["status"] == "applied")
        #expect(json["entities"]?["Employee"]?["inserted"] == 3)
        #expect(json["errors"] == [])
        let again = try JSONDocument(parsing: Array(try Fixtures.runSeed(["--json"], in: directory).stdout.utf8)).value
        #expect(again["status"] == "unchanged")
        let status = try JSONDocument(parsing: Array(try Fixtures.runSeed(["status", "--json"], in: directory).stdout.utf8)).value
        #expect(status["entities"]?["Address"] == 3)
    }

    @Test func badTemplatesAreAllReportedAndNothingIsWritten() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Templates/model.json"), to: templates.appendingPathComponent("model.json"))
        let files = [
            "a-syntax.template": #"{"class": "Department", "name": "X",}"#,
            "b-type.template": #"{"class": "Department", "name": 42}"#,
            "c-class.template": #"{"class": "Departmnt", "name": "Y"}"#,
            "d-key.template": #"{"class": "Department", "name": "D", "nme": "Z"}"#,
            "e-ref.template": #"{"class": "Employee", "name": "E", "email": "e@x", "projects": [{"$ref": "nope"}]}"#,
            "f-conflict.template": #"[{"class": "Department", "name": "C", "budget": "1"}, {"class": "Department", "name": "C", "budget": "2"}]"#,
            "sub/g-dup.template": #"[{"class": "Address", "$id": "x", "street": "s", "city": "c"}, {"class": "Address", "$id": "x", "street": "t", "city": "c"}]"#,
            "i-empty.template": "",
        ]
        for (path, text) in files { try Fixtures.write(text, to: path, in: templates) }
        try Data(#"{"class": "Department", "name": ""#.utf8 + [0xFF] + #""}"#.utf8).write(to: templates.appendingPathComponent("h-utf8.template"))
        try FileManager.default.createSymbolicLink(
            at: templates.appendingPathComponent("sub/j-link.template"), withDestinationURL: URL(fileURLWithPath: "/etc/hostname"))

        let result = try Fixtures.runSeed([], in: directory)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let expected = [
            "Templates/a-syntax.template:1:37: trailing comma in object",
            "Templates/b-type.template:1:33: /name: attribute 'name' of Department: expected a string, got a number",
            "Templates/c-class.template:1:11: /class: unknown class 'Departmnt'; did you mean 'Department'?",
            "Templates/d-key.template:1:38: /nme: unknown attribute 'nme' of Department; did you mean 'name'?",
            #"Templates/e-ref.template:1:74: /projects/0/$ref: no object has "$id": "nope""#,
            "Templates/f-conflict.template:1:102: /1/budget: Department[name=C].budget is 2 here but 1",
            "Templates/h-utf8.template:1:34: invalid UTF-8 byte 0xFF",
            "Templates/i-empty.template:1:1: unexpected end of input, expected a value",
            #"Templates/sub/g-dup.template:1:92: /1/$id: duplicate "$id" 'x'"#,
            "Templates/sub/j-link.template: a symbolic link leading outside the template directory is refused",
        ]
        for line in expected { #expect(result.stderr.contains(line), "\(line)") }
        // Sorted by file, then position.
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.dropLast() == lines.dropLast().sorted())
        #expect(lines.last == "seed: 10 problems in Templates; nothing was written", "one per problem: a mistyped value is not also reported missing")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))

        let json = try JSONDocument(parsing: Array(try Fixtures.runSeed(["--json"], in: directory).stdout.utf8)).value
        #expect(json["status"] == "invalid")
        #expect(json["errors"]?.arrayValue?.first?["file"] == "Templates/a-syntax.template")
        let validate = try Fixtures.runSeed(["validate"], in: directory)
        #expect(validate.status == 1 && validate.stderr.contains("h-utf8.template:1:34"))
    }

    @Test func anInvalidChangeLeavesASeededStoreUntouched() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let before = try Fixtures.runSeed(["status"], in: directory).stdout
        try Fixtures.write(#"{"class": "Project", "code": "NEW", "title": 7}"#, to: "Templates/projects/new.template", in: directory)
        let result = try Fixtures.runSeed([], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Templates/projects/new.template:1:46: /title:"))
        #expect(try Fixtures.runSeed(["status"], in: directory).stdout == before)
    }

    @Test func usageVersionAndStoreErrors() throws {
        #expect(try Fixtures.runSeed(["--version"]).stdout == "seed (SeedKit) 0.1.0\n")
        let help = try Fixtures.runSeed(["status", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: seed status"))
        let validateHelp = try Fixtures.runSeed(["validate", "--help"])
        #expect(validateHelp.stdout.hasPrefix("usage: seed validate"))
        let unknown = try Fixtures.runSeed(["status", "--prune"])
        #expect(unknown.status == 2 && unknown.stderr == "seed: unknown option '--prune'; see 'seed status --help'\n")
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let noStore = try Fixtures.runSeed(["status", "--store", "missing.sqlite"], in: directory)
        #expect(noStore.status == 2 && noStore.stderr == "seed: no store at missing.sqlite\n")
        try Fixtures.write("{}", to: "Templates/x.template", in: directory)
        let noModel = try Fixtures.runSeed(["--model", "missing.json"], in: directory)
        #expect(noModel.status == 2 && noModel.stderr == "seed: no model file at missing.json\n")
        let notAStore = try Fixtures.runSeed(
            ["--templates", Fixtures.packageRoot.appendingPathComponent("Templates").path, "--store", "Templates/x.template"],
            in: directory)
        #expect(notAStore.status == 2)
    }

    /// A directory whose store `a.sqlite` holds one seeded file, and whose Templates/ then gain 200 more (20,000
    /// objects): the next seed of it has work to do and must take the store's write lock to do it.
    private func writeGrownSet() throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        try Fixtures.write(
            #"{"entities": {"Item": {"identity": ["code"], "attributes": {"code": "string", "name": "string"}}}}"#,
            to: "Templates/model.json", in: directory)
        try Fixtures.write(#"[{"class": "Item", "$id": "first", "code": "i-first", "name": "First"}]"#, to: "Templates/part-0999.template", in: directory)
        #expect(try Fixtures.runSeed(["--store", "a.sqlite", "--quiet"], in: directory).status == 0)
        for file in 0..<200 {
            let items = (0..<100).map { #"{"class": "Item", "code": "i\#(file * 100 + $0)", "name": "Item number \#($0)"}"# }
            try Fixtures.write("[" + items.joined(separator: ",\n") + "]", to: "Templates/part-\(1000 + file).template", in: directory)
        }
        return directory
    }

    /// Holds the write lock of the store at `path` as another process's long transaction would, so that a seed of it
    /// runs as long as the test needs, whatever the machine's speed; `release()` ends the transaction.
    private final class WriteLock: @unchecked Sendable {
        private let connection: SQLiteConnection
        private let lock = NSLock()
        private var isHeld = true

        init(path: String) throws {
            connection = try SQLiteConnection(path: path)
            try connection.execute(sql: "BEGIN IMMEDIATE")
        }

        func release() {
            lock.withLock {
                guard isHeld else { return }
                isHeld = false
                try? connection.execute(sql: "ROLLBACK")
            }
        }
    }

    /// Ctrl-C while the bar shows erases it, leaves the line clean for the shell, and ends with status 130; the
    /// store is not half-written: the next run seeds it.
    @Test func ctrlCErasesTheProgressBarAndExits130() throws {
        try #require(Fixtures.canRunOnTerminal, "util-linux's script gives the seed a terminal")
        let directory = try writeGrownSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = try WriteLock(path: directory.appendingPathComponent("a.sqlite").path)
        let interrupted = try Fixtures.runSeedOnTerminal(
            shell: #""$SEED" --store a.sqlite --busy-timeout 60 & pid=$!; sleep 1.5; kill -INT $pid; wait $pid; echo "exit=$?""#,
            in: directory)
        lock.release()
        #expect(interrupted.output.hasPrefix("\r["), "the bar was showing")
        #expect(interrupted.output.hasSuffix("\r\u{1B}[Kexit=130\r\n"), "erased, then the shell's line")
        #expect(!interrupted.output.contains("seed: applied"))
        let again = try Fixtures.runSeed(["--store", "a.sqlite"], in: directory)
        #expect(again.status == 0 && again.stdout.hasPrefix("seed: applied 201 template files"), "\(again.stdout)")
    }

    /// A long seed run from a terminal draws a progress bar on stderr and erases it before the summary; with
    /// `--quiet`, or when stderr is not a terminal, it draws none.
    @Test func longSeedsShowTheirProgressOnATerminal() throws {
        try #require(Fixtures.canRunOnTerminal, "util-linux's script gives the seed a terminal")
        let directory = try writeGrownSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        func onTerminal(_ arguments: [String]) throws -> String {
            let result = try Fixtures.runSeedOnTerminal(arguments, in: directory)
            #expect(result.status == 0)
            return result.output
        }

        // Waiting 1.5 s for another process's transaction makes the run long on any machine.
        let lock = try WriteLock(path: directory.appendingPathComponent("a.sqlite").path)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { lock.release() }
        let shown = try onTerminal(["--store", "a.sqlite", "--busy-timeout", "60"])
        lock.release()
        #expect(shown.hasPrefix("\r["), "the bar is the first thing shown")
        #expect(shown.contains("/201 files · ") || shown.contains("/20001 objects · "))
        // Between reports, the bar is redrawn with the time spent: no two drawings are more than half a second apart.
        let times = shown.split(separator: "\r").compactMap { frame -> Double? in
            guard frame.hasPrefix("["), frame.hasSuffix(" s\u{1B}[K"),
                let dot = frame.range(of: " · ", options: .backwards)
            else { return nil }
            return Double(frame[dot.upperBound...].dropLast(" s\u{1B}[K".count))
        }
        #expect(times.count >= 2)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 0.5 }, "\(times)")
        #expect(shown.contains("\r\u{1B}[Kseed: applied 201 template files from Templates to a.sqlite"), "erased before the summary")
        let quiet = try onTerminal(["--store", "b.sqlite", "--quiet"])
        #expect(!quiet.contains("\r["))
        let piped = try Fixtures.runSeed(["--store", "c.sqlite"], in: directory)
        #expect(piped.status == 0 && piped.stderr.isEmpty)
        #expect(piped.stdout.hasPrefix("seed: applied 201 template files"))
    }

    /// Runs four `seed` processes in `directory` at once; their exit statuses and outputs.
    private func runConcurrentSeeds(in directory: URL) throws -> [(status: Int32, stdout: String)] {
        let processes = try (0..<4).map { _ -> (Process, Pipe) in
            let process = Process()
            process.executableURL = Fixtures.seedExecutable
            process.currentDirectoryURL = directory
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, pipe)
        }
        return processes.map { process, pipe in
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }
    }

    @Test func concurrentFirstLaunchesApplyOnce() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = try runConcurrentSeeds(in: directory)
        #expect(results.allSatisfy { $0.0 == 0 })
        #expect(results.filter { $0.1.hasPrefix("seed: applied") }.count == 1)
        #expect(results.filter { $0.1.hasPrefix("seed: unchanged") }.count == 3)
        #expect(try names("Employee", store: directory.appendingPathComponent("seed.sqlite")).count == 4)
    }

    /// A flat set: 3,000 items referring to 30 groups by identity, in 30 files — what a first launch reads straight
    /// into rows.
    private func writeFlatSet(in directory: URL) throws {
        try Fixtures.write(
            #"{"entities": {"Group": {"identity": ["name"], "attributes": {"name": "string"}}, "Item": {"identity": ["code"], "attributes": {"code": "string", "price": "double"}, "relationships": {"group": {"to": "Group"}}}}}"#,
            to: "Templates/model.json", in: directory)
        try Fixtures.write(
            "[" + (0..<30).map { #"{"class": "Group", "name": "g\#($0)"}"# }.joined(separator: ",") + "]", to: "Templates/groups.template",
            in: directory)
        for file in 0..<30 {
            let items = (0..<100).map { #"{"class": "Item", "code": "i\#(file * 100 + $0)", "price": \#($0).5, "group": {"name": "g\#(file)"}}"# }
            try Fixtures.write("[" + items.joined(separator: ",\n") + "]", to: "Templates/items-\(1000 + file).template", in: directory)
        }
    }

    @Test func concurrentFirstLaunchesOfAFlatSetApplyOnce() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFlatSet(in: directory)
        let results = try runConcurrentSeeds(in: directory)
        #expect(results.allSatisfy { $0.0 == 0 })
        #expect(results.filter { $0.1.hasPrefix("seed: applied") }.count == 1)
        #expect(results.filter { $0.1.hasPrefix("seed: unchanged") }.count == 3)
        let store = try SQLiteStore(path: directory.appendingPathComponent("seed.sqlite").path, model: EntityModel(
            contentsOf: directory.appendingPathComponent("Templates/model.json")))
        #expect(try store.newContext().fetch("Item").count == 3000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains("creating") })
    }

    /// A flat set with one mistake is checked like any set: every problem located, and no store — not even a
    /// temporary one — left behind.
    @Test func aFlatSetWithAMistakeWritesNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFlatSet(in: directory)
        try Fixtures.write(
            #"[{"class": "Item", "code": "late", "price": "cheap", "group": {"name": "g0"}}]"#, to: "Templates/items-9999.template",
            in: directory)
        let result = try Fixtures.runSeed([], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Templates/items-9999.template:1:45: /0/price: attribute 'price' of Item: expected a number, got a string"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Templates"])
    }

    /// A set whose only mistake is a file that does not parse is refused with that file located, and nothing is
    /// written; before, the file was left out and the rest applied.
    @Test(arguments: [
        (#"[{"class": "Item", "code": "late", "price": }]"#, "Templates/items-9999.template:1:45: expected a value"),
        (#"[{"class": "Item", "code": "late", "price": 1e400}]"#, "Templates/items-9999.template:1:45: number out of range"),
    ])
    func aSetWhoseOnlyMistakeIsSyntaxWritesNothing(text: String, message: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFlatSet(in: directory)
        try Fixtures.write(text, to: "Templates/items-9999.template", in: directory)
        for arguments in [["validate"], []] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Templates"])
    }

    /// A flat set whose object leaves out a required attribute is refused like any set, not written with a NULL.
    @Test func aFlatSetMissingARequiredAttributeWritesNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFlatSet(in: directory)
        try Fixtures.write(#"[{"class": "Item", "code": "late", "group": {"name": "g0"}}]"#, to: "Templates/items-9999.template", in: directory)
        let result = try Fixtures.runSeed([], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Templates/items-9999.template:1:2: /0: "), "\(result.stderr)")
        #expect(result.stderr.contains("required attribute 'price'"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Templates"])
    }
}
