import Foundation
import Testing
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding

/// The library's `Seeder`, as an app calls it.
@Suite("Seeder")
struct SeederTests {
    @Test func seedsOnceFromAnApp() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeder = Seeder(storePath: directory.appendingPathComponent("app.sqlite").path)
        let templates = directory.appendingPathComponent("Templates")
        let first = try seeder.seed(templates: templates)
        #expect(first.status == .applied)
        #expect(first.entities["Project"]?.inserted == 2)
        #expect(first.issues.isEmpty)
        let second = try seeder.seed(templates: templates)
        #expect(second.status == .unchanged)
        #expect(second.entities["Address"]?.unchanged == 3)
        let ledger = try seeder.ledger()
        #expect(ledger.fingerprint == first.fingerprint)
        #expect(ledger.files.count == 5)
        #expect(ledger.objectCounts == ["Address": 3, "Department": 2, "Employee": 3, "Manager": 1, "Project": 2])
    }

    /// A first launch killed after linking its store into place leaves its temporary name behind: the next run, even
    /// an unchanged one, removes it, and leaves a live process's alone.
    @Test func aLaterRunRemovesTheTemporaryOfAKilledCreation() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        let seeder = Seeder(storePath: path)
        #expect(try seeder.seed(templates: directory.appendingPathComponent("Templates")).status == .applied)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/sh")
        gone.arguments = ["-c", "true"]
        try gone.run()
        gone.waitUntilExit()
        let abandoned = "\(path).creating-\(gone.processIdentifier)-5eed", live = "\(path).creating-\(getpid())-5eed"
        for name in [abandoned, live] { #expect(link(path, name) == 0) }
        #expect(try seeder.seed(templates: directory.appendingPathComponent("Templates")).status == .unchanged)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    /// A run reports each file checked and the objects written, in order; a set found applied reports nothing.
    @Test func progressIsReportedFileByFileThenObjects() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seen = Locked<[SeedProgress]>([])
        let options = SeedOptions(progress: { progress in seen.withLock { $0.append(progress) } })
        let seeder = Seeder(storePath: directory.appendingPathComponent("app.sqlite").path)
        _ = try seeder.seed(templates: directory.appendingPathComponent("Templates"), options: options)
        #expect(seen.withLock { $0 } == (1...5).map { SeedProgress(phase: .checking, completed: $0, total: 5) } + [
            SeedProgress(phase: .writing, completed: 0, total: 11), SeedProgress(phase: .writing, completed: 11, total: 11),
        ])
        seen.withLock { $0 = [] }
        #expect(try seeder.seed(templates: directory.appendingPathComponent("Templates"), options: options).status == .unchanged)
        #expect(seen.withLock { $0 }.isEmpty)
    }

    /// A first launch of a flat set whose new store another seeder links first keeps that store: the same set is then
    /// found unchanged, another set is applied to it as a later launch would.
    @Test(arguments: [false, true])
    func aStoreLinkedFirstByAnotherSeederIsKept(otherSetDiffers: Bool) throws {
        let model = try Fixtures.flatModel()
        var generator = SeededGenerator(seed: 0x11_4CED)
        var spec = FlatSetSpec.random(using: &generator)
        while spec.fileSizes.count < 2 { spec = FlatSetSpec.random(using: &generator) }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func writeSet(_ spec: FlatSetSpec, to name: String) throws -> URL {
            let templates = directory.appendingPathComponent(name)
            try spec.write(to: templates, model: model)
            return templates
        }
        let mine = try writeSet(spec, to: "Mine")
        var other = spec
        if otherSetDiffers {
            let group = try #require(other.objects.firstIndex { $0["class"] == "Group" })
            other.objects[group]["title"] = "Changed by the other seeder"
        }
        let theirs = try writeSet(other, to: "Theirs")
        let path = directory.appendingPathComponent("app.sqlite").path
        // The other seeder runs to its end while this one reads its first file, before this one's store is linked.
        let otherReport = Locked<SeedReport?>(nil)
        let options = SeedOptions(progress: { progress in
            guard progress.completed == 1, otherReport.withLock({ $0 == nil }) else { return }
            let report = try? Seeder(storePath: path).seed(templates: theirs)
            otherReport.withLock { $0 = report }
        })
        let report = try Seeder(storePath: path).seed(templates: mine, options: options)
        #expect(otherReport.withLock { $0?.status } == .applied)
        #expect(report.status == (otherSetDiffers ? .applied : .unchanged))
        if otherSetDiffers { #expect(report.entities["Group"]?.updated == 1) }
        let store = try SQLiteStore(path: path, model: model)
        #expect(try SeedLedger.fingerprint(in: store) == report.fingerprint)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains("creating") })
    }

    /// A first launch into a new store reports the files checked, then the objects written.
    @Test func aFirstLaunchReportsItsFilesThenItsObjects() throws {
        let model = try Fixtures.flatModel()
        var generator = SeededGenerator(seed: 0x9_0C0E55)
        var spec = FlatSetSpec.random(using: &generator)
        while spec.fileSizes.count < 3 { spec = FlatSetSpec.random(using: &generator) }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        try spec.write(to: templates, model: model)
        let seen = Locked<[SeedProgress]>([])
        let options = SeedOptions(progress: { progress in seen.withLock { $0.append(progress) } })
        let report = try Seeder(storePath: directory.appendingPathComponent("app.sqlite").path).seed(templates: templates, options: options)
        #expect(report.status == .applied)
        let count = spec.fileSizes.count, objects = spec.objects.count
        #expect(seen.withLock { $0 } == (1...count).map { SeedProgress(phase: .checking, completed: $0, total: count) } + [
            SeedProgress(phase: .writing, completed: 0, total: objects), SeedProgress(phase: .writing, completed: objects, total: objects),
        ])
    }

    @Test func templatesMeetDataAlreadyInTheStoreWithoutDuplicates() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        do {
            let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
            try context.insert("Department", values: ["name": "Sales", "budget": Decimal(1)])
            try context.insert("Department", values: ["name": "Legal"])
            try context.insert(
                "Employee", values: ["name": "Dev", "email": "dev@example.com", "hired": Date(timeIntervalSince1970: 86400)])
            try context.save()
        }
        let report = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        #expect(report.entities["Department"] == {
            var counts = SeedReport.Counts()
            counts.inserted = 1
            counts.updated = 1
            return counts
        }())
        let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
        let departments = try context.fetch("Department")
        #expect(try departments.map { try $0.value(forKey: "name") as! String }.sorted() == ["Engineering", "Legal", "Sales"])
        let sales = try #require(context.object("Department", identity: ["name": "Sales"]))
        #expect(sales.attributeValue(at: sales.entity.attributeIndex(named: "budget")!) == .decimal(ScaledDecimal(exactly: "480000.00")!))
        // The template's facts join the stored object; what it leaves out (dev's hiring date) stays.
        let dev = try #require(context.object("Employee", identity: ["email": "dev@example.com"]))
        #expect(try dev.value(forKey: "name") as? String == "Dev Patel")
        #expect(try dev.value(forKey: "hired") as? Date == Date(timeIntervalSince1970: 86400))
        #expect(try (dev.value(forKey: "department") as? ManagedObject)?.value(forKey: "name") as? String == "Sales")
        #expect(report.entities["Employee"]?.updated == 1)
    }

    /// A store much larger than the templates is asked per object instead of read whole: the same matches.
    @Test func templatesMeetTheirRowsInALargeStore() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        do {
            let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
            for number in 0..<1_100 { try context.insert("Department", values: ["name": "Department \(number)"]) }
            try context.insert("Department", values: ["name": "Sales", "budget": Decimal(1)])
            try context.save()
        }
        let report = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        #expect(report.entities["Department"]?.inserted == 1)
        #expect(report.entities["Department"]?.updated == 1)
        let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
        #expect(try context.fetch("Department").count == 1_102)
        let sales = try #require(context.object("Department", identity: ["name": "Sales"]))
        #expect(sales.attributeValue(at: sales.entity.attributeIndex(named: "budget")!) == .decimal(ScaledDecimal(exactly: "480000.00")!))
    }

    /// A `"$id"` or a place names one object only while it is of one root entity: a later set stating an object of
    /// another entity under the same `"$id"`, or at the same place, inserts it and leaves the one seeded there to what
    /// the templates no longer hold, pruned with `prune` — the store a first launch of the later set makes. (The new
    /// object was taken for the old one, looked for in its own table, and kept as deleted by the application.)
    @Test(arguments: [#""$id": "x", "#, ""])
    func anIDOrPlaceStatedWithAnotherEntityNamesAnotherObject(id: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = #"{"entities": {"Folder": {"attributes": {"name": "string"}}, "Address": {"attributes": {"city": "string"}}}}"#
        try Fixtures.write(model, to: "Templates/model.json", in: directory)
        try Fixtures.write(#"[{"class": "Folder", \#(id)"name": "a"}]"#, to: "Templates/a.template", in: directory)
        let templates = directory.appendingPathComponent("Templates")
        let path = directory.appendingPathComponent("seed.sqlite").path
        #expect(try Seeder(storePath: path).seed(templates: templates).status == .applied)
        try Fixtures.write(#"[{"class": "Address", \#(id)"city": "Oslo"}]"#, to: "Templates/a.template", in: directory)
        let later = try Seeder(storePath: path).seed(templates: templates)
        #expect(later.status == .applied && later.entities["Address"]?.inserted == 1 && later.keptObjects.isEmpty)
        #expect(later.removedFromTemplates.count == 1, "\(later.removedFromTemplates)")
        #expect(try Seeder(storePath: path).seed(templates: templates, options: SeedOptions(prune: true)).entities["Folder"]?.deleted == 1)
        let fresh = directory.appendingPathComponent("fresh.sqlite").path
        #expect(try Seeder(storePath: fresh).seed(templates: templates).status == .applied)
        #expect(
            try GraphExport().document(of: SQLiteStore(existingAt: path))
                == GraphExport().document(of: SQLiteStore(existingAt: fresh)))
    }

    /// A file bears on the objects of other files that its links decide: a to-many that sets their to-ones, a
    /// `"$ref"` that owns one. A later launch that reads that file alone, once it names other objects, leaves the
    /// store as reading every file does: the objects it no longer names lose what it said of them.
    @Test(arguments: [
        (
            #"{"entities": {"Department": {"identity": ["name"], "attributes": {"name": "string"}, "relationships": {"employees": {"to": "Employee", "many": true, "inverse": "department"}}}, "Employee": {"identity": ["email"], "attributes": {"email": "string"}, "relationships": {"department": {"to": "Department", "inverse": "employees"}}}}}"#,
            #"[{"class": "Employee", "email": "ann"}, {"class": "Employee", "email": "bob"}]"#,
            #"{"class": "Department", "name": "Sales", "employees": [{"class": "Employee", "email": "ann"}]}"#,
            #"{"class": "Department", "name": "Sales", "employees": [{"class": "Employee", "email": "bob"}]}"#
        ),
        (
            #"{"entities": {"Folder": {"attributes": {"name": "string"}, "relationships": {"sub": {"to": "Folder", "many": true, "owns": true, "inverse": "up"}, "up": {"to": "Folder", "inverse": "sub"}}}}}"#,
            #"[{"class": "Folder", "$id": "a", "name": "a"}, {"class": "Folder", "$id": "b", "name": "b"}]"#,
            #"{"class": "Folder", "name": "root", "sub": [{"$ref": "a"}]}"#,
            #"{"class": "Folder", "name": "root", "sub": [{"$ref": "b"}]}"#
        ),
    ])
    func aFileBearsOnTheObjectsOfOthersItsLinksDecide(model: String, first: String, second: String, secondChanged: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(model, to: "Templates/model.json", in: directory)
        try Fixtures.write(first, to: "Templates/a.template", in: directory)
        try Fixtures.write(second, to: "Templates/b.template", in: directory)
        let templates = directory.appendingPathComponent("Templates")
        let path = directory.appendingPathComponent("seed.sqlite").path, everyFilePath = directory.appendingPathComponent("every.sqlite").path
        #expect(try Seeder(storePath: path).seed(templates: templates).status == .applied)
        try FileManager.default.copyItem(atPath: path, toPath: everyFilePath)
        try Fixtures.write(secondChanged, to: "Templates/b.template", in: directory)
        let report = try Seeder(storePath: path).seed(templates: templates)
        var everyFile = SeedOptions()
        everyFile.readsOnlyChangedFiles = false
        let expected = try Seeder(storePath: everyFilePath).seed(templates: templates, options: everyFile)
        #expect(report.status == .applied && expected.status == .applied, "\(report.issues)")
        #expect(report.entities == expected.entities)
        #expect(
            try GraphExport().document(of: SQLiteStore(existingAt: path))
                == GraphExport().document(of: SQLiteStore(existingAt: everyFilePath)))
    }

    /// A `"$id"` stated again in a later file is placed there, beside the place of the first (a file without records
    /// between them, which starts where the next does).
    @Test func aDuplicateIDIsPlacedBesideTheFirst() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(#"{"entities": {"Folder": {"attributes": {"name": "string"}}}}"#, to: "Templates/model.json", in: directory)
        try Fixtures.write(#"[{"class": "Folder", "name": "a"}, {"class": "Folder", "$id": "x", "name": "b"}]"#, to: "Templates/a.template", in: directory)
        try Fixtures.write("[]", to: "Templates/b.template", in: directory)
        try Fixtures.write(#"[{"class": "Folder", "name": "c"}, {"class": "Folder", "$id": "x", "name": "d"}]"#, to: "Templates/c.template", in: directory)
        let path = directory.appendingPathComponent("seed.sqlite").path
        let report = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        #expect(report.status == .invalid && report.issues.count == 1)
        let issue = try #require(report.issues.first)
        #expect(issue.file?.hasSuffix("Templates/c.template") == true && issue.pointer?.description == "/1/$id")
        #expect(issue.message.contains(#"duplicate "$id" 'x'"#))
        #expect(issue.related?.file?.hasSuffix("Templates/a.template") == true)
        #expect(issue.related?.description.hasSuffix("Templates/a.template:1:63") == true, "\(issue)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// An object with an identity may state an `"$id"` too: `"$ref"` from another file names it as a stub of its
    /// identity would, and the `"$id"` is as unique as any other.
    @Test func anIDBesideAnIdentityNamesItsObject() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = #"{"entities": {"Folder": {"identity": ["name"], "attributes": {"name": "string"}, "relationships": {"parent": {"to": "Folder"}}}}}"#
        try Fixtures.write(model, to: "ByID/model.json", in: directory)
        try Fixtures.write(#"[{"class": "Folder", "name": "p", "$id": "home"}]"#, to: "ByID/a.template", in: directory)
        try Fixtures.write(#"[{"class": "Folder", "name": "c", "parent": {"$ref": "home"}}]"#, to: "ByID/b.template", in: directory)
        try Fixtures.write(model, to: "ByIdentity/model.json", in: directory)
        try Fixtures.write(
            #"[{"class": "Folder", "name": "p"}, {"class": "Folder", "name": "c", "parent": {"class": "Folder", "name": "p"}}]"#,
            to: "ByIdentity/a.template", in: directory)
        let byID = directory.appendingPathComponent("id.sqlite").path
        let byIdentity = directory.appendingPathComponent("identity.sqlite").path
        #expect(try Seeder(storePath: byID).seed(templates: directory.appendingPathComponent("ByID")).status == .applied)
        #expect(try Seeder(storePath: byIdentity).seed(templates: directory.appendingPathComponent("ByIdentity")).status == .applied)
        #expect(
            try GraphExport().document(of: SQLiteStore(existingAt: byID))
                == GraphExport().document(of: SQLiteStore(existingAt: byIdentity)))

        try Fixtures.write(#"[{"class": "Folder", "name": "q", "$id": "home"}]"#, to: "ByID/c.template", in: directory)
        let again = directory.appendingPathComponent("again.sqlite").path
        let report = try Seeder(storePath: again).seed(templates: directory.appendingPathComponent("ByID"))
        #expect(report.status == .invalid && report.issues.count == 1)
        let issue = try #require(report.issues.first)
        #expect(issue.file?.hasSuffix("ByID/c.template") == true && issue.pointer?.description == "/0/$id", "\(issue)")
        #expect(issue.message.contains(#"duplicate "$id" 'home'"#), "\(issue)")
        #expect(issue.related?.file?.hasSuffix("ByID/a.template") == true, "\(issue)")
    }

    /// A to-one stated with two targets is placed at both statements, each in the record that makes it: found from
    /// the link alone, when the conflict is met.
    @Test func aToOneStatedTwiceIsPlacedAtBothStatements() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(
            #"{"entities": {"Folder": {"identity": ["name"], "attributes": {"name": "string"}, "relationships": {"parent": {"to": "Folder"}}}}}"#,
            to: "Templates/model.json", in: directory)
        try Fixtures.write(
            #"[{"class": "Folder", "name": "p"}, {"class": "Folder", "name": "q", "parent": {"class": "Folder", "name": "p"}},"#
                + "\n" + #" {"class": "Folder", "name": "c", "parent": {"class": "Folder", "name": "p"}}]"#,
            to: "Templates/a.template", in: directory)
        try Fixtures.write(
            #"[{"class": "Folder", "name": "x", "parent": {"class": "Folder", "name": "q"}},"#
                + "\n" + #" {"class": "Folder", "name": "c", "parent": {"class": "Folder", "name": "q"}}]"#,
            to: "Templates/b.template", in: directory)
        let path = directory.appendingPathComponent("seed.sqlite").path
        let report = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        #expect(report.status == .invalid && report.issues.count == 1)
        let issue = try #require(report.issues.first)
        #expect(issue.message.contains("where it is stated first"), "\(issue)")
        #expect(issue.file?.hasSuffix("Templates/b.template") == true && issue.pointer?.description == "/1/parent", "\(issue)")
        #expect(issue.related?.file?.hasSuffix("Templates/a.template") == true, "\(issue)")
        #expect(issue.related?.pointer?.description == "/2/parent", "\(issue)")
        #expect(issue.related?.description.contains("Templates/a.template:2:") == true, "\(issue)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func invalidTemplatesLeaveNoStore() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write(#"{"class": "Project", "code": "X"}"#, to: "Templates/x.template", in: directory)
        let path = directory.appendingPathComponent("app.sqlite").path
        let report = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        #expect(report.status == .invalid)
        #expect(report.issues.count == 1)
        #expect(report.issues.first?.description.hasSuffix(
            "Templates/x.template:1:1: /: Project[code=X] lacks required attribute 'title'") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func validateReadsWithoutAStore() throws {
        let report = try Seeder.validate(templates: Fixtures.packageRoot.appendingPathComponent("Templates"))
        #expect(report.status == .applied && report.fileCount == 5)
        #expect(throws: SeedError.self) { try Seeder.validate(templates: URL(fileURLWithPath: "/nonexistent-seedkit")) }
    }

    /// An input given the model read already is the input that reads it: the same model, issues and fingerprint,
    /// whether the model file is sound or not.
    @Test func anInputGivenItsModelIsTheInputThatReadsIt() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        let options = SeedOptions()
        func expectSameInput(expectingAModel: Bool) throws {
            let given = try SeedInput(templates: templates, options: options, model: SeedModel(templates: templates, options: options))
            let read = try SeedInput(templates: templates, options: options)
            #expect((given.model != nil) == expectingAModel && given.issues.isEmpty == expectingAModel)
            #expect(given.model == read.model && given.issues == read.issues && given.fingerprint == read.fingerprint)
            // Paths and hashes: a stamp depends on when its file was read (none within 100 ms of a change), and the
            // copied templates are new.
            #expect(given.fileRecords.map(\.path) == read.fileRecords.map(\.path) && !given.isModelInferred)
            #expect(given.fileRecords.map(\.hash) == read.fileRecords.map(\.hash))
        }
        try expectSameInput(expectingAModel: true)
        try Fixtures.write(#"{"entities": {"Project": {"attributes": {"code": "strin"}}}}"#, to: "model.json", in: templates)
        try expectSameInput(expectingAModel: false)
    }

    /// The ledger records, for each seeded object and property, the hash of the canonical JSON of the value the store
    /// holds: what a later seed compares.
    @Test func ledgerHashesAreOfTheStoredValues() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        _ = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        let store = try SQLiteStore(path: path, model: Fixtures.sampleModel())
        let schema = SeedSchema(model: store.model)
        let ledger = try SeedLedger.read(from: store, schema: schema)
        #expect(ledger.entries.count == 11)
        var hasher = SlotHasher()
        for entry in ledger.entries {
            let hashes = Array(ledger.hashes(of: entry))
            let slots = schema.entities[Int(entry.entity)]
            let row = try #require(try store.rows(root: slots.entity.rootName, rowIDs: [entry.rowID])[0])
            #expect(row.entity == slots.entity.name)
            for attribute in 0..<slots.attributeCount {
                #expect(hashes[attribute] == hasher.attribute(row.values[attribute]), "\(entry.key) \(slots.name(ofSlot: attribute))")
            }
            for (index, toOne) in slots.toOnes.enumerated() {
                #expect(
                    hashes[slots.slot(toOne: index)]
                        == SlotHash.toOne(rowID: row.targets[toOne.relationship], position: toOne.isPositioned ? row.positions[toOne.relationship] : nil))
            }
            for (index, join) in slots.joins.enumerated() {
                let members = try store.joinMembers(table: join.table, sources: [entry.rowID], isOrdered: join.isOrdered)[entry.rowID] ?? []
                #expect(hashes[slots.slot(join: index)] == SlotHash.join(members, isOrdered: join.isOrdered))
            }
        }
    }

    /// A flat set seeded into a new store holds exactly what decoding the set through the library and saving it
    /// holds, with the schema's indexes, and is then unchanged.
    @Test func flatSetsSeedANewStoreAsTheLibrarySavesThem() throws {
        var generator = SeededGenerator(seed: 0x5EED_F1A7)
        for round in 0..<20 {
            try Self.expectSeededAsDecoded(FlatSetSpec.random(using: &generator), "round \(round)")
        }
    }

    /// Rows of one entity go into a new store many to a statement: long runs of one entity, cut at any point by the
    /// end of a file or of a statement, go in as the library saves them.
    @Test func flatSetsInLongRunsOfOneEntitySeedANewStoreAsTheLibrarySavesThem() throws {
        var generator = SeededGenerator(seed: 0x1_0005)
        for round in 0..<8 {
            var spec = FlatSetSpec.random(using: &generator, maxItems: 150)
            spec.groupByClass(using: &generator)
            try Self.expectSeededAsDecoded(spec, "round \(round)")
        }
    }

    private static func expectSeededAsDecoded(_ spec: FlatSetSpec, _ comment: Comment) throws {
        let model = try Fixtures.flatModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        try spec.write(to: templates, model: model)
        let path = directory.appendingPathComponent("seed.sqlite").path
        let report = try Seeder(storePath: path).seed(templates: templates)
        #expect(report.status == .applied, comment)

        let decoded = try SQLiteStore.inMemory(model: model)
        let context = decoded.newContext()
        _ = try context.fromJSON(.array(spec.objects.map(JSON.object)))
        try context.save()
        let seeded = try SQLiteStore(path: path, model: model)
        #expect(try GraphExport().document(of: seeded.newContext()) == GraphExport().document(of: decoded.newContext()), comment)
        // The ledger's table, which only the seeded store has, aside.
        #expect(try Self.indexes(of: seeded).filter { !$0.contains("_seedkit_ledger") } == Self.indexes(of: decoded), comment)
        #expect(report.entities.values.map(\.inserted).reduce(0, +) == spec.objects.count, comment)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["Templates", "seed.sqlite", "seed.sqlite-shm", "seed.sqlite-wal"])
        #expect(try Seeder(storePath: path).seed(templates: templates).status == .unchanged, comment)
    }

    static func indexes(of store: SQLiteStore) throws -> [String] {
        let statement = try store.connection.prepare(sql: "SELECT name || ': ' || ifnull(sql, '') FROM sqlite_master WHERE type = 'index' ORDER BY name")
        var indexes: [String] = []
        while try statement.step() { indexes.append(statement.text(at: 0)) }
        return indexes
    }

    /// A later launch reads no file whose stamp the ledger recorded: it takes the recorded hash. A file with another
    /// stamp is read, so a change made the usual way is found.
    @Test func laterLaunchesReadOnlyFilesWithNewStamps() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        let files = try FileManager.default.subpathsOfDirectory(atPath: templates.path).filter { $0.hasSuffix(".template") }
        for file in files { try TemplateSetTests.age(templates.appendingPathComponent(file)) }
        let seeder = Seeder(storePath: directory.appendingPathComponent("app.sqlite").path)
        #expect(try seeder.seed(templates: templates).status == .applied)
        #expect(try seeder.ledger().fileRecords.filter { $0.stamp != nil }.count == files.count)

        // Rewritten in place with its size and modification time restored (as `cp -p` or `rsync -t --inplace` do):
        // the change time tells, the file is read, and the change found.
        let projects = try #require(files.first { $0.contains("projects") })
        let url = templates.appendingPathComponent(projects)
        let original = try String(contentsOf: url, encoding: .utf8)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let changed = original.replacingOccurrences(of: "\"title\": \"A", with: "\"title\": \"a")
        #expect(changed != original && changed.utf8.count == original.utf8.count)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(changed.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: url.path)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date == attributes[.modificationDate] as? Date)
        let report = try seeder.seed(templates: templates)
        #expect(report.status == .applied)
        #expect(report.entities["Project"]?.updated ?? 0 > 0)
        #expect(try seeder.seed(templates: templates).status == .unchanged)
    }

    /// A later launch finds its changed files against the ledger's summary, read before it takes the store's write
    /// lock; under the lock it reuses the summary's files only while the ledger is still that one. Here another seeder
    /// applies a set with one more file in between: the run reads the new ledger's files, carries the unchanged file's
    /// objects from it, and ends with the store a fresh seed of its templates makes.
    @Test func aLaterLaunchReadsTheFilesOfALedgerReplacedSinceItsSummary() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let templates = root.appendingPathComponent("Templates")
        let model = #"{"entities": {"Item": {"identity": ["code"], "attributes": {"code": "string", "name": "string"}}}}"#
        func write(_ files: [String: String]) throws {
            for (code, name) in files {
                try Fixtures.write(#"[{"class": "Item", "code": "\#(code)", "name": "\#(name)"}]"#, to: "\(code).template", in: templates)
                try TemplateSetTests.age(templates.appendingPathComponent("\(code).template"))
            }
        }
        try Fixtures.write(model, to: "model.json", in: templates)
        try write(["a": "Ann", "b": "Bo"])
        let seeder = Seeder(storePath: root.appendingPathComponent("app.sqlite").path)
        #expect(try seeder.seed(templates: templates).status == .applied)
        let summary = try seeder.ledger()

        // Another seeder applies a set of three files; this run's templates change one of the first two.
        try write(["d": "Di"])
        #expect(try seeder.seed(templates: templates).status == .applied)
        try write(["a": "Anna"])
        let options = SeedOptions()
        let input = try SeedInput(templates: templates, options: options, known: summary.fileRecords)
        let changed = try #require(input.changedFiles(since: summary))
        #expect(changed.indices.map { input.set!.files[$0].relativePath } == ["a.template", "d.template"])
        let schema = SeedSchema(model: try #require(input.model))
        let store = try seeder.openStore(model: schema.model, options: options)
        let report = try seeder.apply(
            input.read(schema: schema, progress: nil, only: changed.indices), input: input,
            report: input.report(options: options), options: options, to: store, changed: changed)
        #expect(report.status == .applied && report.entities["Item"]?.updated == 1)

        let fresh = root.appendingPathComponent("fresh.sqlite").path
        #expect(try Seeder(storePath: fresh).seed(templates: templates).status == .applied)
        #expect(try GraphExport().document(of: store) == GraphExport().document(of: SQLiteStore(existingAt: fresh)))
        #expect(try seeder.seed(templates: templates).status == .unchanged)
    }
}
