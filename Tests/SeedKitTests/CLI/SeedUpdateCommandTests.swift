import Foundation
import Testing
import SeedKit
import SeedKitSupport

/// Later launches through the real `seed` binary: template changes reach owned objects, property by property
/// against the application's edits; model changes leave the application's edits and the templates' changes apart;
/// ownership is a forest; references name what exists; a dry run writes nothing.
@Suite("seed command: later launches")
struct SeedUpdateCommandTests {
    /// Employees nested in their department, each owning an address through a to-one.
    static let companyModel = """
        {
          "entities": {
            "Department": {
              "identity": ["name"], "attributes": { "name": "string" },
              "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } }
            },
            "Employee": {
              "identity": ["email"], "attributes": { "email": "string", "name": "string", "salary": "double" },
              "relationships": {
                "department": { "to": "Department", "inverse": "employees" },
                "address": { "to": "Address", "owns": true, "inverse": "resident" }
              }
            },
            "Address": {
              "attributes": { "street": "string" },
              "relationships": { "resident": { "to": "Employee", "inverse": "address" } }
            }
          }
        }
        """

    static func department(salaries: [Double], streets: [String]) -> String {
        let employees = zip(salaries, streets).enumerated().map { index, pair in
            #"{"class": "Employee", "email": "e\#(index)@example.com", "name": "Employee \#(index)", "salary": \#(pair.0), "address": {"street": "\#(pair.1)"}}"#
        }
        return #"{"class": "Department", "name": "Sales", "employees": [\#(employees.joined(separator: ", "))]}"#
    }

    private func directory(model: String = Self.companyModel, template: String) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        try Fixtures.write(model, to: "Templates/model.json", in: directory)
        try Fixtures.write(template, to: "Templates/sales.template", in: directory)
        return directory
    }

    private func rows(_ sql: String, in directory: URL) throws -> [String] {
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
        let statement = try connection.prepare(sql: sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { column -> String in
                if case .text(let text) = statement.value(at: column) { return text }
                return statement.value(at: column).description
            }.joined(separator: "|"))
        }
        return rows
    }

    /// An employee owning its address through a to-one: a later seed finds both as seeded, and applies a template's
    /// change to either (it kept them all, as changed by the application, and applied nothing).
    @Test func changesReachObjectsOwnedThroughAToOne() throws {
        let directory = try directory(template: Self.department(salaries: [40000, 41000], streets: ["1 Main", "2 Main"]))
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try Fixtures.write(
            Self.department(salaries: [40011.5, 41000], streets: ["1 Main", "2 High"]), to: "Templates/sales.template", in: directory)
        let changed = try Fixtures.runSeed([], in: directory)
        #expect(changed.status == 0)
        #expect(changed.stdout.contains("Address            0        1          1     0        0"), "\(changed.stdout)")
        #expect(changed.stdout.contains("Employee           0        1          1     0        0"), "\(changed.stdout)")
        #expect(!changed.stdout.contains("changed since seeding"))
        #expect(try rows(#"SELECT "email", "salary" FROM "Employee" ORDER BY "email""#, in: directory) == [
            "e0@example.com|40011.5", "e1@example.com|41000.0",
        ])
        #expect(try rows(#"SELECT "street" FROM "Address" ORDER BY "street""#, in: directory) == ["1 Main", "2 High"])
        #expect(try Fixtures.runSeed([], in: directory).stdout.hasPrefix("seed: unchanged"))
    }

    /// An owned object that names its owner from its own side (the inverse of the owning to-one) is owned all the
    /// same: a later seed finds it as seeded after the objects before it in its file have changed, where a place in
    /// the file would name another object and insert it again.
    @Test func anObjectNamingItsOwnerFromItsOwnSideIsFoundWhereverItMoves() throws {
        func template(_ employees: [String]) -> String {
            let stated = employees.map { #"{"class": "Employee", "email": "\#($0)@example.com", "name": "\#($0)", "salary": 1}"# }
            return "[" + (stated + [
                #"{"class": "Address", "street": "1 Main", "resident": {"class": "Employee", "email": "ann@example.com"}}"#
            ]).joined(separator: ", ") + "]"
        }
        let directory = try directory(template: template(["ann"]))
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try Fixtures.write(template(["bob", "ann"]), to: "Templates/sales.template", in: directory)
        let changed = try Fixtures.runSeed([], in: directory)
        #expect(changed.status == 0)
        let addressCounts = changed.stdout.split(separator: "\n").first { $0.hasPrefix("Address ") }?.split(separator: " ")
        #expect(addressCounts == ["Address", "0", "0", "1", "0", "0"], "inserted, updated, unchanged, kept, deleted")
        #expect(try rows(#"SELECT "street" FROM "Address""#, in: directory) == ["1 Main"])
    }

    /// The application's change to one property and the templates' to another both stay; a property both changed is
    /// a conflict, listed readably and in --json, kept unless --force.
    @Test func conflictsAreThePropertiesBothChanged() throws {
        let directory = try directory(template: Self.department(salaries: [40000, 41000], streets: ["1 Main", "2 Main"]))
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
        try connection.execute(sql: #"UPDATE "Employee" SET "salary" = 40020, "name" = 'Renamed by the app' WHERE "email" = 'e0@example.com'"#)
        try Fixtures.write(
            Self.department(salaries: [40011.5, 41500], streets: ["1 Main", "2 Main"]), to: "Templates/sales.template", in: directory)
        let json = try JSONDocument(parsing: Array(try Fixtures.runSeed(["--json", "--dry-run"], in: directory).stdout.utf8)).value
        #expect(json["conflicts"] == [["object": "Employee[email=e0@example.com]", "property": "salary", "template": "40011.5", "store": "40020"]])
        let changed = try Fixtures.runSeed([], in: directory)
        #expect(changed.stdout.contains("kept 1 object the application changed since seeding (--force overwrites):\n"))
        #expect(changed.stdout.contains(
            "\n  Employee[email=e0@example.com].salary: template 40011.5, store 40020 (changed by the application)\n"))
        #expect(try rows(#"SELECT "name", "salary" FROM "Employee" ORDER BY "email""#, in: directory) == [
            "Renamed by the app|40020.0", "Employee 1|41500.0",
        ])
        let forced = try Fixtures.runSeed(["--force"], in: directory)
        #expect(forced.status == 0)
        #expect(try rows(#"SELECT "name", "salary" FROM "Employee" ORDER BY "email""#, in: directory) == [
            "Renamed by the app|40011.5", "Employee 1|41500.0",
        ], "--force writes what the templates changed, not what they did not")
    }

    /// A seeded object is found by its identity, not by the row the ledger gave it: a row whose identity the
    /// application changed is no longer the object's (kept as deleted or changed by the application, the renamed row
    /// left as it is), and after the application swapped two identities each object updates the row that now holds
    /// its own.
    @Test(arguments: ["renamed", "swapped"])
    func seededObjectsAreFoundByTheirIdentityNotTheirFormerRow(change: String) throws {
        let directory = try directory(template: Self.department(salaries: [40000, 41000], streets: ["1 Main", "2 Main"]))
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
        if change == "renamed" {
            try connection.execute(sql: #"UPDATE "Employee" SET "email" = 'gone@example.com' WHERE "email" = 'e0@example.com'"#)
        } else {
            try connection.execute(sql: #"UPDATE "Employee" SET "email" = 'swap' WHERE "email" = 'e0@example.com'"#)
            try connection.execute(sql: #"UPDATE "Employee" SET "email" = 'e0@example.com' WHERE "email" = 'e1@example.com'"#)
            try connection.execute(sql: #"UPDATE "Employee" SET "email" = 'e1@example.com' WHERE "email" = 'swap'"#)
        }
        try Fixtures.write(
            Self.department(salaries: [40500, 41500], streets: ["1 Main", "2 Main"]), to: "Templates/sales.template", in: directory)
        let changed = try Fixtures.runSeed([], in: directory)
        #expect(changed.status == 0)
        if change == "renamed" {
            #expect(changed.stdout.contains("Employee           0        1          0     1        0"), "\(changed.stdout)")
            #expect(changed.stdout.contains("  Employee[email=e0@example.com] (deleted or changed by the application)\n"))
            #expect(try rows(#"SELECT "_id", "email", "salary" FROM "Employee" ORDER BY "_id""#, in: directory) == [
                "1|gone@example.com|40000.0", "2|e1@example.com|41500.0",
            ])
        } else {
            #expect(changed.stdout.contains("Employee           0        2          0     0        0"), "\(changed.stdout)")
            #expect(try rows(#"SELECT "_id", "email", "salary" FROM "Employee" ORDER BY "_id""#, in: directory) == [
                "1|e1@example.com|41500.0", "2|e0@example.com|40500.0",
            ])
        }
    }

    /// The model file as each lightweight migration changes it — a property added optional, added with a default,
    /// removed (with --allow-data-loss), renamed through an alias — with the templates as they are then written, and
    /// the arguments the run needs.
    static func migrated(
        _ change: String, model: String = companyModel, template: String
    ) -> (model: String, template: String, arguments: [String], nameColumn: String) {
        switch change {
        case "add optional":
            return (
                model.replacingOccurrences(of: #""salary": "double" }"#, with: #""salary": "double", "phone": "string?" }"#),
                template, [], "name")
        case "add with default":
            return (
                model.replacingOccurrences(
                    of: #""salary": "double" }"#, with: #""salary": "double", "grade": { "type": "integer", "default": 3 } }"#),
                template, [], "name")
        case "remove":
            let salaries = try! NSRegularExpression(pattern: #", "salary": [0-9.]+"#)
            let range = NSRange(template.startIndex..., in: template)
            return (
                model.replacingOccurrences(of: #", "salary": "double""#, with: ""),
                salaries.stringByReplacingMatches(in: template, range: range, withTemplate: ""), ["--allow-data-loss"],
                "name")
        default:
            return (
                model.replacingOccurrences(
                    of: #""name": "string", "salary""#, with: #""fullName": { "type": "string", "aliases": ["name"] }, "salary""#),
                template.replacingOccurrences(of: #""name": "Employee"#, with: #""fullName": "Employee"#), [], "fullName")
        }
    }

    /// Every lightweight migration leaves the seeded objects as seeded: a template change after it is applied, not
    /// kept as the application's, while a property the application did change is still kept.
    @Test(arguments: ["add optional", "add with default", "remove", "rename"])
    func modelChangesDoNotLookLikeTheApplications(change: String) throws {
        let seeded = Self.department(salaries: [40000, 41000, 42000], streets: ["1 Main", "2 Main", "3 Main"])
        let directory = try directory(template: seeded)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("seed.sqlite").path)
        try connection.execute(sql: #"UPDATE "Employee" SET "name" = 'Renamed by the app' WHERE "email" = 'e1@example.com'"#)
        // The templates rename employee 0 (theirs alone) and employee 1 (the application's too), and move employee 2.
        let edited = seeded.replacingOccurrences(of: "Employee 0", with: "Ann").replacingOccurrences(of: "Employee 1", with: "Ben")
            .replacingOccurrences(of: "3 Main", with: "3 High")
        let (model, template, arguments, column) = Self.migrated(change, template: edited)
        try Fixtures.write(model, to: "Templates/model.json", in: directory)
        try Fixtures.write(template, to: "Templates/sales.template", in: directory)
        let changed = try Fixtures.runSeed(arguments, in: directory)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("Employee           0        1          1     1        0"), "\(change): \(changed.stdout)")
        #expect(changed.stdout.contains("Address            0        1          2     0        0"), "\(change): \(changed.stdout)")
        #expect(
            changed.stdout.contains(
                "kept 1 object the application changed since seeding (--force overwrites):\n"
                    + "  Employee[email=e1@example.com].\(column): template Ben, store Renamed by the app (changed by the application)\n"),
            "\(change): \(changed.stdout)")
        #expect(try rows(#"SELECT "\#(column)" FROM "Employee" ORDER BY "email""#, in: directory) == [
            "Ann", "Renamed by the app", "Employee 2",
        ])
        #expect(try rows(#"SELECT "street" FROM "Address" ORDER BY "street""#, in: directory) == ["1 Main", "2 Main", "3 High"])
        #expect(try Fixtures.runSeed(arguments, in: directory).stdout.hasPrefix("seed: unchanged"))
    }

    /// The same on a set of 20,000 objects (every hash computed in parallel chunks, every file read): adding an
    /// optional property and renaming a tenth of the employees updates them all and keeps none.
    @Test func modelChangesOnALargeNestedSet() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(renaming: Bool) throws {
            for file in 0..<20 {
                let departments = (0..<10).map { index in
                    let department = file * 10 + index
                    let employees = (0..<50).map { index in
                        let number = department * 50 + index
                        let name = renaming && index % 10 == 0 ? "Renamed \(number)" : "Employee \(number)"
                        return #"{"email": "e\#(number)@example.com", "name": "\#(name)", "salary": \#(number), "address": {"street": "\#(number) Main"}}"#
                    }
                    return #"{"class": "Department", "name": "D\#(department)", "employees": [\#(employees.joined(separator: ", "))]}"#
                }
                try Fixtures.write("[\(departments.joined(separator: ",\n"))]", to: "Templates/\(file).template", in: directory)
            }
        }
        try Fixtures.write(Self.companyModel, to: "Templates/model.json", in: directory)
        try write(renaming: false)
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try Fixtures.write(Self.migrated("add optional", template: "").model, to: "Templates/model.json", in: directory)
        try write(renaming: true)
        let changed = try Fixtures.runSeed([], in: directory)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("Employee           0     1000       9000     0        0"), "\(changed.stdout)")
        #expect(changed.stdout.contains("Address            0        0      10000     0        0"), "\(changed.stdout)")
        #expect(try rows(#"SELECT count(*) FROM "Employee" WHERE "name" LIKE 'Renamed %'"#, in: directory) == ["1000"])
    }

    /// A run that reports nothing was written wrote nothing, the migration of a changed model included (no column
    /// added, dropped or renamed); so does a dry run.
    @Test(arguments: ["add optional", "add with default", "remove", "rename"])
    func invalidTemplatesAndDryRunsDoNotMigrate(change: String) throws {
        let directory = try directory(template: Self.department(salaries: [40000], streets: ["1 Main"]))
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let store = directory.appendingPathComponent("seed.sqlite")
        let before = try Data(contentsOf: store)
        let columns = #"SELECT group_concat(name) FROM pragma_table_info('Employee')"#
        let storedColumns = try rows(columns, in: directory)
        let (model, template, arguments, _) = Self.migrated(
            change, template: Self.department(salaries: [40000], streets: ["2 High"]))
        try Fixtures.write(model, to: "Templates/model.json", in: directory)
        try Fixtures.write(template, to: "Templates/sales.template", in: directory)
        let dryRun = try Fixtures.runSeed(arguments + ["--dry-run"], in: directory)
        #expect(dryRun.status == 0 && dryRun.stdout.contains("would apply"), "\(change): \(dryRun.stderr)")
        #expect(dryRun.stdout.contains(#"~ Employee[email=e0@example.com].address.street: "1 Main" → "2 High""#), "\(dryRun.stdout)")
        #expect(try Data(contentsOf: store) == before)
        try Fixtures.write(#"{"class": "Department", "name": 7}"#, to: "Templates/bad.template", in: directory)
        let invalid = try Fixtures.runSeed(arguments, in: directory)
        #expect(invalid.status == 1 && invalid.stderr.hasSuffix("nothing was written\n"), "\(change): \(invalid.stderr)")
        #expect(try Data(contentsOf: store) == before)
        #expect(try rows(columns, in: directory) == storedColumns)
    }

    /// Ownership is a forest: a cycle of owning links, through nesting, "$ref" or two top-level objects, is a located
    /// problem naming the objects on it, in validate as in seed, and nothing is written.
    @Test(arguments: [
        #"{"class": "Folder", "name": "root", "$id": "r", "sub": [{"class": "Folder", "name": "child", "sub": [{"$ref": "r"}]}]}"#,
        #"{"class": "Folder", "name": "self", "$id": "s", "sub": [{"$ref": "s"}]}"#,
        #"[{"class": "Folder", "name": "a", "$id": "a", "sub": [{"$ref": "b"}]}, {"class": "Folder", "name": "b", "$id": "b", "sub": [{"$ref": "a"}]}]"#,
    ])
    func ownershipCyclesAreProblems(template: String) throws {
        let model = """
            {"entities": {"Folder": {"attributes": {"name": "string"},
              "relationships": {"sub": {"to": "Folder", "many": true, "owns": true, "inverse": "up"}, "up": {"to": "Folder", "inverse": "sub"}}}}}
            """
        let directory = try directory(model: model, template: template)
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [["validate"], [], ["--dry-run"]] {
            let run = try Fixtures.runSeed(arguments, in: directory)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("Templates/sales.template:1:"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("ownership is a cycle: Folder at "), "\(arguments): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
    }

    /// Cycles through identity stubs — an object naming itself as what it owns, two objects in two files owning
    /// each other, three in one file — are the same problem, naming the objects on the cycle, and a store seeded
    /// before is left as it was by validate, seed and a dry run.
    @Test(arguments: [
        ([#"{"class": "Node", "name": "a", "next": {"class": "Node", "name": "a"}}"#], "Node[name=a] owns Node[name=a]"),
        (
            [
                #"{"class": "Node", "name": "a", "next": {"class": "Node", "name": "b"}}"#,
                #"{"class": "Node", "name": "b", "next": {"class": "Node", "name": "a"}}"#,
            ],
            "Node[name=b] owns Node[name=a] owns Node[name=b]"
        ),
        (
            [
                #"[{"class": "Node", "name": "a", "next": {"class": "Node", "name": "b", "next": {"class": "Node", "name": "c"}}}, "#
                    + #"{"class": "Node", "name": "c", "next": {"class": "Node", "name": "a"}}]"#
            ],
            "Node[name=b] owns Node[name=c] owns Node[name=a] owns Node[name=b]"
        ),
    ])
    func ownershipCyclesThroughStubsLeaveTheStoreAsItWas(templates: [String], cycle: String) throws {
        let model = """
            {"entities": {"Node": {"identity": ["name"], "attributes": {"name": "string"},
              "relationships": {"next": {"to": "Node", "owns": true, "inverse": "previous"}, "previous": {"to": "Node", "inverse": "next"}}}}}
            """
        let directory = try directory(model: model, template: #"{"class": "Node", "name": "z"}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let store = directory.appendingPathComponent("seed.sqlite")
        let before = try Data(contentsOf: store)
        for (index, template) in templates.enumerated() {
            try Fixtures.write(template, to: "Templates/cycle\(index).template", in: directory)
        }
        for arguments in [["validate"], [], ["--dry-run"]] {
            let run = try Fixtures.runSeed(arguments, in: directory)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("Templates/cycle")
                    && run.stderr.contains(": ownership is a cycle: \(cycle); an object cannot own itself")
                    && run.stderr.hasSuffix("\nseed: 1 problem in Templates; nothing was written\n"),
                "\(arguments): \(run.stderr)")
        }
        #expect(try Data(contentsOf: store) == before)
    }

    /// A reference names an object the templates or the store hold: a mistyped name is a located problem with the
    /// nearest identity, in validate too, and creates nothing; an object only the store holds is found there.
    @Test func referencesNameWhatExists() throws {
        let directory = try directory(template: Self.department(salaries: [40000], streets: ["1 Main"]))
        defer { try? FileManager.default.removeItem(at: directory) }
        let typo = #"{"class": "Employee", "email": "x@example.com", "name": "X", "salary": 1, "department": {"class": "Department", "name": "Saels"}}"#
        try Fixtures.write(typo, to: "Templates/x.template", in: directory)
        for arguments in [["validate"], []] {
            let run = try Fixtures.runSeed(arguments, in: directory)
            #expect(run.status == 1)
            #expect(run.stderr.contains(
                "Templates/x.template:1:89: /department: Department[name=Saels] names no Department the templates or the store hold; did you mean Sales?"),
                "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
        // Seeded from the Sales file alone, then named from another set: found in the store.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Templates/x.template"))
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try Fixtures.write(Self.companyModel, to: "Other/model.json", in: directory)
        try Fixtures.write(typo.replacingOccurrences(of: "Saels", with: "Sales"), to: "Other/x.template", in: directory)
        let other = try Fixtures.runSeed(["--templates", "Other"], in: directory)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try rows(#"SELECT "e"."email", "d"."name" FROM "Employee" "e" JOIN "Department" "d" ON "e"."department" = "d"."_id" ORDER BY 1"#, in: directory) == [
            "e0@example.com|Sales", "x@example.com|Sales",
        ])
        #expect(other.stdout.contains("Employee           1        0          0     0        0"), "\(other.stdout)")
        #expect(other.stdout.contains("1 no longer in the templates; --prune deletes it: Employee[email=e0@example.com]\n"))
        #expect(try rows(#"SELECT "street" FROM "Address""#, in: directory) == ["1 Main"], "kept with its owner")
    }

    /// A read-only store (mode 444) in a directory its reader can't write (mode 555: SQLite can make no file beside
    /// it) serves an unchanged seed, validate, status, export, diff and the dry run of a changed set; a changed set
    /// says why it can't be written, as it does when only the file is read-only. Run as `nobody` under root, whom no
    /// permission stops.
    @Test func readOnlyDirectoriesServeUnchangedRuns() throws {
        let directory = try directory(template: Self.department(salaries: [40000], streets: ["1 Main"]))
        defer {
            chmod(directory.path, 0o755)
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        let asReader: [String]
        if geteuid() == 0 {
            guard getpwnam("nobody") != nil, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
            asReader = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=\(getpwnam("nobody")!.pointee.pw_gid)", "--clear-groups"]
        } else {
            asReader = []
        }
        let store = directory.appendingPathComponent("seed.sqlite")
        #expect(chmod(store.path, 0o444) == 0 && chmod(directory.path, 0o555) == 0)
        let before = try Data(contentsOf: store)
        func run(_ arguments: [String]) throws -> CommandResult {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: asReader.first ?? Fixtures.seedExecutable.path)
            process.arguments = Array(asReader.dropFirst()) + (asReader.isEmpty ? [] : [Fixtures.seedExecutable.path]) + arguments
            process.currentDirectoryURL = directory
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return CommandResult(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }
        let unchanged = try run([])
        #expect(unchanged.status == 0 && unchanged.stdout.hasPrefix("seed: unchanged"), "\(unchanged.stderr)")
        #expect(try run(["status"]).stdout.contains("seeded from Templates"))
        let export = try run(["export"])
        #expect(export.stdout.contains("e0@example.com"), "\(export.stderr)")
        #expect(try run(["diff", "--templates", "Templates", "--store", "seed.sqlite"]).stdout == "no differences\n")
        #expect(try run(["validate"]).status == 0)
        chmod(directory.path, 0o755)
        try Fixtures.write(Self.department(salaries: [40001], streets: ["1 Main"]), to: "Templates/sales.template", in: directory)
        chmod(directory.path, 0o555)
        let dryRun = try run(["--dry-run"])
        #expect(dryRun.status == 0 && dryRun.stdout.contains("~ Employee[email=e0@example.com].salary: 40000 → 40001"), "\(dryRun)")
        let changed = try run([])
        let cause = "seed: store seed.sqlite can't be written: the file or its directory is read-only to this user; "
            + "the store is as it was (seed status, export and diff only read it)\n"
        #expect(changed.status == 2 && changed.stderr == cause, "\(changed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite-wal").path))
        #expect(try Data(contentsOf: store) == before)
        // The store file alone read-only, in a directory its reader may write: the same cause.
        chmod(directory.path, 0o777)
        let fileOnly = try run([])
        #expect(fileOnly.status == 2 && fileOnly.stderr == cause, "\(fileOnly.stderr)")
        #expect(try Data(contentsOf: store) == before)
    }
}
