import Foundation
import Testing
import SeedKit

/// End-to-end tests of `seed export` and `seed diff`: the built binary, its output and exit status.
@Suite("seed command: export and diff")
struct DiffCommandTests {
    /// A fresh directory with a copy of the sample Templates/ seeded into `seed.sqlite` by the binary.
    private func seededDirectory() throws -> URL {
        let directory = try Fixtures.sampleTemplatesCopy()
        let seeded = try Fixtures.runSeed(["--quiet"], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        return directory
    }

    /// Edits the store as an application would, through a context: renames Ann, moves Dev to Engineering.
    private func editStoreInApp(_ directory: URL) throws {
        let context = try SQLiteStore(path: directory.appendingPathComponent("seed.sqlite").path, model: Fixtures.sampleModel())
            .newContext()
        let ann = try #require(context.object("Employee", identity: ["email": "ann@example.com"]))
        try ann.setValue("Ann Lee-Jones", forKey: "name")
        let dev = try #require(context.object("Employee", identity: ["email": "dev@example.com"]))
        try dev.setValue(context.object("Department", identity: ["name": "Engineering"]), forKey: "department")
        try context.save()
    }

    private func read(_ path: String, in directory: URL) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }

    // MARK: Owned chains

    /// An owned chain of `length` links, written as a flat template set in `Chain/` (each link a top-level object
    /// owning the next through an identity stub, or, `throughReferences`, links without identity owning the next
    /// through `"$ref"`).
    private func chainTemplates(length: Int, throughReferences: Bool = false) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        let model = #"{"entities": {"Link": {\#(throughReferences ? "" : #""identity": ["n"], "#)"attributes": {"n": "integer"}, "relationships": {"#
            + #""next": {"to": "Link", "owns": true, "inverse": "previous"}, "previous": {"to": "Link", "inverse": "next"}}}}}"#
        var text = "["
        for n in 0..<length {
            text += n == 0 ? "\n" : ",\n"
            let next = n + 1 == length ? "" : throughReferences ? #","next":{"$ref":"l\#(n + 1)"}"# : #","next":{"class":"Link","n":\#(n + 1)}"#
            text += #"{"class":"Link",\#(throughReferences ? #""$id":"l\#(n)","# : "")"n":\#(n)\#(next)}"#
        }
        text += "\n]\n"
        try Fixtures.write(model, to: "Chain/model.json", in: directory)
        try Fixtures.write(text, to: "Chain/chain.template", in: directory)
        return directory
    }

    /// ``chainTemplates(length:throughReferences:)`` seeded by the binary into `seed.sqlite`.
    private func seededChain(length: Int, throughReferences: Bool = false) throws -> URL {
        let directory = try chainTemplates(length: length, throughReferences: throughReferences)
        let seeded = try Fixtures.runSeed(["--templates", "Chain", "--quiet"], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        return directory
    }

    /// A drift check seeds its templates alone, then reads the store: its peak is the seeding's, not the seeding's and
    /// the store's export added (a 100,000-link chain's check once peaked 26 MB above seeding the same templates).
    @Test(.enabled(if: Fixtures.canMeasurePeakMemory, Fixtures.peakMemoryUnmeasured))
    func aDriftCheckPeaksNoHigherThanSeedingItsTemplates() throws {
        let directory = try chainTemplates(length: 100_000, throughReferences: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeded = try Fixtures.runSeedMeasured(["--templates", "Chain", "--quiet"], in: directory)
        #expect(seeded.result.status == 0, "\(seeded.result.stderr)")
        let check = try Fixtures.runSeedMeasured(["diff", "--templates", "Chain", "--store", "seed.sqlite"], in: directory)
        #expect(check.result.status == 0 && check.result.stdout == "no differences\n", "\(check.result.stderr)")
        // A few megabytes for what varies between two runs of a process: which threads' arenas hold what.
        #expect(check.peakBytes <= seeded.peakBytes + 4 << 20, "drift check \(check.peakBytes), seed \(seeded.peakBytes) bytes")
    }

    /// Links without identity, each owning the next through `"$ref"` (4,000 links once made an 88 MB store and 20,000
    /// ran out of memory, the ledger keying each link by the whole chain above it): the ledger grows with the chain's
    /// length, not its square, and the chain diffs against its templates and against its own export, and seeds back
    /// from its exported templates.
    @Test func ownedChainsThroughReferencesGrowLinearly() throws {
        var ledgerBytes: [Int64] = []
        for length in [1_000, 4_000] {
            let directory = try seededChain(length: length, throughReferences: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
            guard case .integer(let bytes) = try SQLiteTesting.firstValue(store, #"SELECT sum(length("bytes")) FROM "_seedkit_ledger""#)
            else { throw CocoaError(.fileReadCorruptFile) }
            ledgerBytes.append(bytes)
            let againstTemplates = try Fixtures.runSeed(["diff", "--templates", "Chain", "--store", "seed.sqlite"], in: directory)
            #expect(againstTemplates.status == 0 && againstTemplates.stdout == "no differences\n", "\(againstTemplates.stderr)")
            #expect(try Fixtures.runSeed(["export", "--output", "chain.export.json"], in: directory).status == 0)
            let againstExport = try Fixtures.runSeed(["diff", "chain.export.json", "seed.sqlite"], in: directory)
            #expect(againstExport.status == 0 && againstExport.stdout == "no differences\n", "\(againstExport.stderr)")
            #expect(try Fixtures.runSeed(["export", "--format", "templates", "--output", "Snapshot"], in: directory).status == 0)
            let reseeded = try Fixtures.runSeed(["--templates", "Snapshot", "--store", "again.sqlite", "--quiet"], in: directory)
            #expect(reseeded.status == 0, "\(reseeded.stderr)")
            let same = try Fixtures.runSeed(["diff", "seed.sqlite", "again.sqlite"], in: directory)
            #expect(same.status == 0 && same.stdout == "no differences\n", "\(same.stderr)")
        }
        // Four times the links: four times the ledger, give or take the longer numbers (sixteen if it were quadratic).
        #expect(ledgerBytes[0] < 1_000 * 64 && Double(ledgerBytes[1]) / Double(ledgerBytes[0]) < 4.5, "\(ledgerBytes)")
    }

    /// The store's own export of a long owned chain is a document `seed diff` reads, and its template set seeds the
    /// same graph: every writer stays within the nesting every reader accepts (a chain once failed from ~2,000 links
    /// with "nesting deeper than 4096", and template sets from 256 with "nesting deeper than 512").
    @Test(arguments: [2_000, 100_000])
    func longOwnedChainsExportDiffAndSeedBack(length: Int) throws {
        let directory = try seededChain(length: length)
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = try Fixtures.runSeed(["export", "--output", "chain.export.json"], in: directory)
        #expect(exported.status == 0, "\(exported.stderr)")
        let document = try ExportDocument(contentsOf: directory.appendingPathComponent("chain.export.json"))
        #expect(document.objectCount == (length + GraphExport.nestingLimit - 2) / (GraphExport.nestingLimit - 1))
        let diff = try Fixtures.runSeed(["diff", "chain.export.json", "seed.sqlite"], in: directory)
        #expect(diff.status == 0 && diff.stdout == "no differences\n", "\(diff.stderr)")

        let templates = try Fixtures.runSeed(["export", "--format", "templates", "--output", "Snapshot"], in: directory)
        #expect(templates.status == 0, "\(templates.stderr)")
        let reseeded = try Fixtures.runSeed(["--templates", "Snapshot", "--store", "again.sqlite", "--quiet"], in: directory)
        #expect(reseeded.status == 0, "\(reseeded.stderr)")
        let same = try Fixtures.runSeed(["diff", "seed.sqlite", "again.sqlite"], in: directory)
        #expect(same.status == 0 && same.stdout == "no differences\n", "\(same.stderr)")
    }

    // MARK: seed export

    @Test func exportWritesTheSameBytesToStandardOutputAndToAFile() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let printed = try Fixtures.runSeed(["export"], in: directory)
        #expect(printed.status == 0)
        #expect(printed.stderr.isEmpty)
        #expect(printed.stdout.hasPrefix("{\n  \"format\": \"seedkit-export\",\n  \"formatVersion\": 1,\n"))
        let written = try Fixtures.runSeed(["export", "--store", "seed.sqlite", "--output", "company.export.json"], in: directory)
        #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.isEmpty)
        #expect(try read("company.export.json", in: directory) == Data(printed.stdout.utf8))
        // What the library exports from the same store, opened with the model it holds.
        let library = try GraphExport().document(of: SQLiteStore(existingAt: directory.appendingPathComponent("seed.sqlite").path).newContext())
        #expect(Array(printed.stdout.utf8) == library)
        // The same data inserted by the application in another order, in another store file, exports the same bytes.
        let other = directory.appendingPathComponent("other.sqlite").path
        let context = try SQLiteStore(path: other, model: Fixtures.sampleModel()).newContext()
        try Fixtures.insertSampleCompany(into: context, shuffleSeed: 21)
        try context.save()
        #expect(try Fixtures.runSeed(["export", "--store", other], in: directory).stdout == printed.stdout)
    }

    @Test func exportOfSomeEntities() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Fixtures.runSeed(["export", "--entity", "Manager", "--entity=Project"], in: directory)
        #expect(result.status == 0)
        let objects = try #require(JSONDocument(parsing: Array(result.stdout.utf8)).value["objects"]?.arrayValue)
        #expect(objects.map { $0["class"] } == ["Manager", "Project", "Project"])
        #expect(objects[0]["addresses"]?.arrayValue?.count == 1, "owned children come with their owner")
        let unknown = try Fixtures.runSeed(["export", "--entity", "Employe"], in: directory)
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
        #expect(unknown.stderr
            == "seed: unknown entity 'Employe'; did you mean 'Employee'?; the model has Address, Department, Employee, Manager, Project\n")
    }

    @Test func exportedTemplateSetSeedsAStoreThatExportsTheSameBytes() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try editStoreInApp(directory)
        let original = try Fixtures.runSeed(["export"], in: directory)
        let templates = try Fixtures.runSeed(["export", "--format", "templates", "--output", "Snapshot"], in: directory)
        #expect(templates.status == 0)
        #expect(templates.stdout.isEmpty)
        #expect(templates.stderr == "seed: wrote 8 template files and model.json to Snapshot\n")
        let seeded = try Fixtures.runSeed(["--templates", "Snapshot", "--store", "fresh.sqlite", "--quiet"], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let again = try Fixtures.runSeed(["export", "--store", "fresh.sqlite"], in: directory)
        #expect(again.status == 0)
        #expect(again.stdout == original.stdout)
        #expect(try Fixtures.runSeed(["diff", "Snapshot", "seed.sqlite"], in: directory).status == 0)
        // A second export into the same directory is refused, leaving it as it was.
        let refused = try Fixtures.runSeed(["export", "--format", "templates", "--output", "Snapshot"], in: directory)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("already exists and is not an empty directory"))
        let missingOutput = try Fixtures.runSeed(["export", "--format", "templates"], in: directory)
        #expect(missingOutput.status == 2)
        #expect(missingOutput.stderr == "seed: --format templates needs --output DIR; see 'seed export --help'\n")
    }

    @Test func decimalsKeepTheScaleTheTemplatesWriteThroughSeedExportAndDiff() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Templates/departments.template writes "budget": "1250000.00".
        let exported = try Fixtures.runSeed(["export"], in: directory)
        #expect(exported.stdout.contains(#"    {"budget":"1250000.00","class":"Department""#))
        let templates = try Fixtures.runSeed(["export", "--format", "templates", "--output", "Snapshot"], in: directory)
        #expect(templates.status == 0, "\(templates.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.appendingPathComponent("Snapshot").path)
        let texts = try files.filter { $0.hasSuffix(".template") }.map {
            try String(contentsOf: directory.appendingPathComponent("Snapshot/\($0)"), encoding: .utf8)
        }
        #expect(texts.contains { $0.contains(#""budget": "1250000.00""#) })
        #expect(try Fixtures.runSeed(["diff", "Templates", "seed.sqlite"], in: directory).status == 0)
        #expect(try Fixtures.runSeed(["diff", "Snapshot", "Templates"], in: directory).status == 0)
        // The same number written without its scale is a difference: the export's bytes differ.
        let store = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
        try store.execute(sql: #"UPDATE "Department" SET "budget" = '1250000' WHERE "name" = 'Engineering'"#)
        let rescaled = try Fixtures.runSeed(["diff", "Templates", "seed.sqlite"], in: directory)
        #expect(rescaled.status == 1)
        #expect(rescaled.stdout == """
            ~ Department[name=Engineering].budget: "1250000.00" → 1250000
            0 objects added, 0 removed, 1 changed

            """)
    }

    @Test func exportWithAModelReadsOnlyAStoreOfThatModel() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try Fixtures.runSeed(["export"], in: directory)
        let same = try Fixtures.runSeed(["export", "--model", "Templates/model.json"], in: directory)
        #expect(same.status == 0 && same.stdout == plain.stdout)
        let text = try String(contentsOf: directory.appendingPathComponent("Templates/model.json"), encoding: .utf8)
        try Fixtures.write(
            text.replacingOccurrences(of: #""started": "date?""#, with: #""started": "date?", "budget": "decimal?""#),
            to: "other-model.json", in: directory)
        let before = try read("seed.sqlite", in: directory)
        let other = try Fixtures.runSeed(["export", "--model", "other-model.json"], in: directory)
        #expect(other.status == 2 && other.stdout.isEmpty)
        #expect(other.stderr
            == "seed: the model in other-model.json is not the one seed.sqlite holds; leave out --model to read the store with its own\n")
        #expect(try read("seed.sqlite", in: directory) == before)
    }

    // MARK: seed diff

    @Test func diffExitsZeroForNoDifferencesAndOneWithTheChanges() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["export", "--output", "old.json"], in: directory).status == 0)
        let same = try Fixtures.runSeed(["diff", "old.json", "old.json"], in: directory)
        #expect(same.status == 0)
        #expect(same.stdout == "no differences\n" && same.stderr.isEmpty)
        try editStoreInApp(directory)
        #expect(try Fixtures.runSeed(["export", "--output", "new.json"], in: directory).status == 0)
        let changed = try Fixtures.runSeed(["diff", "old.json", "new.json"], in: directory)
        #expect(changed.status == 1)
        #expect(changed.stderr.isEmpty)
        // Not a terminal: no colour.
        #expect(changed.stdout == """
            ~ Employee[email=ann@example.com].name: "Ann Lee" → "Ann Lee-Jones"
            ~ Employee[email=dev@example.com].department: Department[name=Sales] → Department[name=Engineering]
            0 objects added, 0 removed, 2 changed

            """)
        // Each side may be an export file, a template directory or a store.
        #expect(try Fixtures.runSeed(["diff", "Templates", "old.json"], in: directory).status == 0)
        let storeSide = try Fixtures.runSeed(["diff", "Templates", "seed.sqlite"], in: directory)
        #expect(storeSide.status == 1 && storeSide.stdout == changed.stdout)
        #expect(try Fixtures.runSeed(["diff", "seed.sqlite", "new.json"], in: directory).status == 0)
        // Ignoring what changed on purpose leaves the rest, and no differences exits 0.
        let ignoring = try Fixtures.runSeed(["diff", "old.json", "new.json", "--ignore", "Employee.name"], in: directory)
        #expect(ignoring.status == 1)
        #expect(ignoring.stdout.hasPrefix("~ Employee[email=dev@example.com].department:"))
        let all = try Fixtures.runSeed(
            ["diff", "old.json", "new.json", "--ignore", "*.name", "--ignore=Employee.department"], in: directory)
        #expect(all.status == 0 && all.stdout == "no differences\n")
        let unknown = try Fixtures.runSeed(["diff", "old.json", "new.json", "--ignore", "Employe.name"], in: directory)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown entity 'Employe'; did you mean 'Employee'?"))
    }

    @Test func diffFormatsJSONAndGitHub() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["export", "--output", "old.json"], in: directory).status == 0)
        try editStoreInApp(directory)
        #expect(try Fixtures.runSeed(["export", "--output", "new.json"], in: directory).status == 0)

        let json = try Fixtures.runSeed(["diff", "old.json", "new.json", "--format", "json"], in: directory)
        #expect(json.status == 1)
        let report = try JSONDocument(parsing: Array(json.stdout.utf8)).value
        let differences = try #require(report["differences"]?.arrayValue)
        #expect(differences.map { $0["path"] } == ["Employee[email=ann@example.com].name", "Employee[email=dev@example.com].department"])
        #expect(differences.map { $0["kind"] } == ["attribute", "target"])
        #expect(differences[0]["old"] == "Ann Lee" && differences[0]["new"] == "Ann Lee-Jones")
        #expect(differences.allSatisfy { $0["file"] == "new.json" && $0["line"]?.numberValue != nil })
        #expect(report["summary"] == ["added": 0, "removed": 0, "changed": 2, "model": 0, "onlyInNew": 0])
        let none = try Fixtures.runSeed(["diff", "old.json", "old.json", "--format=json"], in: directory)
        #expect(none.status == 0)
        #expect(try JSONDocument(parsing: Array(none.stdout.utf8)).value["differences"] == [])

        let github = try Fixtures.runSeed(["diff", "old.json", "new.json", "--format", "github"], in: directory)
        #expect(github.status == 1)
        let lines = github.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("::warning file=new.json,line=") && $0.contains(",col=5,") })
        #expect(lines.last == "::notice title=seed diff::0 objects added, 0 removed, 2 changed")
    }

    @Test func badInputExitsTwoWithALocatedError() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["export", "--output", "good.json"], in: directory).status == 0)
        let good = try String(contentsOf: directory.appendingPathComponent("good.json"), encoding: .utf8)
        let lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sales = try #require(lines.firstIndex { $0.hasPrefix(#"    {"budget":"480000.00","#) })
        let damaged = lines[sales].replacingOccurrences(of: #""name":"Sales"}"#, with: #""name":"Sales",}"#)
        try Fixtures.write(good.replacingOccurrences(of: lines[sales], with: damaged), to: "bad.json", in: directory)
        // The closing brace after the comma, counted from 1.
        let column = try #require(damaged.firstRange(of: ",}")).upperBound.utf16Offset(in: damaged)
        let malformed = try Fixtures.runSeed(["diff", "good.json", "bad.json"], in: directory)
        #expect(malformed.status == 2)
        #expect(malformed.stdout.isEmpty)
        #expect(malformed.stderr == "seed: bad.json:\(sales + 1):\(column): trailing comma in object\n")

        try Data([0xEF, 0xBB, 0xBF] + Array(good.utf8)).write(to: directory.appendingPathComponent("bom.json"))
        let byteOrderMark = try Fixtures.runSeed(["diff", "good.json", "bom.json"], in: directory)
        #expect(byteOrderMark.status == 2)
        #expect(byteOrderMark.stderr == "seed: bom.json:1:1: byte order mark is not allowed\n")

        let missing = try Fixtures.runSeed(["diff", "good.json", "missing.json"], in: directory)
        #expect(missing.status == 2 && missing.stderr == "seed: no such file or directory: missing.json\n")
        try Fixtures.write(#"{"format": "other"}"#, to: "other.json", in: directory)
        let notAnExport = try Fixtures.runSeed(["diff", "other.json", "good.json"], in: directory)
        #expect(notAnExport.status == 2)
        #expect(notAnExport.stderr == #"seed: other.json:1:1: /format: not a SeedKit export: "format" must be "seedkit-export""# + "\n")
        let unknownClass = good.replacingOccurrences(of: #"{"class":"Project","code":"ORBIT""#, with: #"{"class":"Projet","code":"ORBIT""#)
        try Fixtures.write(unknownClass, to: "class.json", in: directory)
        let orbit = try #require(lines.firstIndex { $0.hasPrefix(#"    {"class":"Project","code":"ORBIT""#) })
        let objectIndex = orbit - (try #require(lines.firstIndex(of: "  \"objects\": ["))) - 1
        let badClass = try Fixtures.runSeed(["diff", "good.json", "class.json"], in: directory)
        #expect(badClass.status == 2)
        #expect(badClass.stderr.hasPrefix(
            "seed: class.json:\(orbit + 1):5: /objects/\(objectIndex)/class: unknown class 'Projet'; did you mean 'Project'?"))

        // A template directory side is checked as the seeder checks it, every issue located.
        try Fixtures.write(#"{"class": "Departmnt", "name": "X"}"#, to: "Templates/bad.template", in: directory)
        let badTemplates = try Fixtures.runSeed(["diff", "Templates", "good.json"], in: directory)
        #expect(badTemplates.status == 2)
        #expect(badTemplates.stderr.contains("\nTemplates/bad.template:1:11: /class: unknown class 'Departmnt'; did you mean 'Department'?"))
        let badDrift = try Fixtures.runSeed(["diff", "--templates", "Templates", "--store", "seed.sqlite"], in: directory)
        #expect(badDrift.status == 2 && badDrift.stderr == badTemplates.stderr)
    }

    @Test func driftCheckReportsWhatTheStoreNoLongerHolds() throws {
        let directory = try seededDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = try Fixtures.runSeed(["diff", "--templates", "Templates", "--store", "seed.sqlite"], in: directory)
        #expect(clean.status == 0)
        #expect(clean.stdout == "no differences\n")

        // Objects the application adds, even linked to seeded ones, are not drift.
        let store = directory.appendingPathComponent("seed.sqlite").path
        do {
            let context = try SQLiteStore(path: store, model: Fixtures.sampleModel()).newContext()
            let zoe = try context.insert("Employee", values: [
                "name": "Zoe", "email": "zoe@example.com", "department": context.object("Department", identity: ["name": "Sales"])!,
            ])
            try zoe.add(#require(context.object("Project", identity: ["code": "APOLLO"])), to: "projects")
            try context.insert("Project", values: ["code": "ZEUS", "title": "Zeus"])
            try context.save()
        }
        let added = try Fixtures.runSeed(["diff", "--templates", "Templates", "--store", "seed.sqlite"], in: directory)
        #expect(added.status == 0)
        #expect(added.stdout == "no differences; 2 objects only in the new graph, not compared\n")

        // Changes to seeded objects are, whether made through a context or in SQL.
        try editStoreInApp(directory)
        try SQLiteConnection(path: store).execute(sql: #"UPDATE "Project" SET "title" = 'Orbit (renamed in SQL)' WHERE "code" = 'ORBIT'"#)
        let drifted = try Fixtures.runSeed(["diff", "--templates", "Templates", "--store", "seed.sqlite"], in: directory)
        #expect(drifted.status == 1)
        #expect(drifted.stdout == """
            ~ Employee[email=ann@example.com].name: "Ann Lee" → "Ann Lee-Jones"
            ~ Employee[email=dev@example.com].department: Department[name=Sales] → Department[name=Engineering]
            ~ Project[code=ORBIT].title: "Orbit: seed data tooling" → "Orbit (renamed in SQL)"
            0 objects added, 0 removed, 3 changed; 2 objects only in the new graph, not compared

            """)
        // Without --templates/--store, objects only in the store are differences.
        let plain = try Fixtures.runSeed(["diff", "Templates", "seed.sqlite"], in: directory)
        #expect(plain.status == 1 && plain.stdout.contains("+ Project[code=ZEUS] "))

        let noStore = try Fixtures.runSeed(["diff", "--templates", "Templates", "--store", "missing.sqlite"], in: directory)
        #expect(noStore.status == 2 && noStore.stderr == "seed: no store at missing.sqlite\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.sqlite").path))
    }

    @Test func helpAndUsageErrors() throws {
        let exportHelp = try Fixtures.runSeed(["export", "--help"])
        #expect(exportHelp.status == 0 && exportHelp.stdout.hasPrefix("usage: seed export "))
        let diffHelp = try Fixtures.runSeed(["diff", "--help"])
        #expect(diffHelp.status == 0 && diffHelp.stdout.hasPrefix("usage: seed diff OLD NEW"))
        let unknown = try Fixtures.runSeed(["diff", "a.json", "b.json", "--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "seed: unknown option '--frobnicate'; see 'seed diff --help'\n")
        let exportUnknown = try Fixtures.runSeed(["export", "--frobnicate"])
        #expect(exportUnknown.status == 2)
        #expect(exportUnknown.stderr == "seed: unknown option '--frobnicate'; see 'seed export --help'\n")
        let oneSide = try Fixtures.runSeed(["diff", "a.json"])
        #expect(oneSide.status == 2)
        #expect(oneSide.stderr
            == "seed: give OLD and NEW, or --templates DIR and --store PATH; see 'seed diff --help'\n")
        let threeSides = try Fixtures.runSeed(["diff", "a.json", "b.json", "c.json"])
        #expect(threeSides.status == 2)
        #expect(threeSides.stderr
            == "seed: unexpected argument 'c.json': at most 2 are taken; see 'seed diff --help'\n")
        let templatesOnly = try Fixtures.runSeed(["diff", "--templates", "Templates"])
        #expect(templatesOnly.status == 2)
        let format = try Fixtures.runSeed(["diff", "a.json", "b.json", "--format", "yaml"])
        #expect(format.status == 2)
        #expect(format.stderr
            == "seed: --format 'yaml' is not one of text, json, json-patch, github; see 'seed diff --help'\n")
        let noStore = try Fixtures.runSeed(["export", "--store", "/nonexistent-seedkit/seed.sqlite"])
        #expect(noStore.status == 2 && noStore.stderr == "seed: no store at /nonexistent-seedkit/seed.sqlite\n")
    }
}
