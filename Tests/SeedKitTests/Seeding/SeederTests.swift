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
        #expect(ledger.objects[#"Employee["ann@example.com"]/addresses/1"#]?.entity == "Address")
    }

    /// A dry run gives its plan as two contexts, which the diff layer renders; the store is left as it was.
    @Test func planGivesTheStoreBeforeAndAfterWithoutWriting() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeder = Seeder(storePath: directory.appendingPathComponent("app.sqlite").path)
        let templates = directory.appendingPathComponent("Templates")
        #expect(try seeder.seed(templates: templates).status == .applied)
        let sales = templates.appendingPathComponent("staff/sales.template")
        let text = try String(contentsOf: sales, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Dev Patel", with: "Dev K. Patel").utf8).write(to: sales)

        let (report, plan) = try seeder.plan(templates: templates)
        #expect(report.status == .applied && report.isDryRun)
        let changes = try GraphDiff(#require(plan)).changes
        #expect(changes.map(\.path) == ["Employee[email=dev@example.com].name"])
        #expect(try seeder.seed(templates: templates, options: SeedOptions(dryRun: true)).entities["Employee"]?.updated == 1)
        let stored = try SQLiteStore(existingAt: seeder.storePath).newContext()
        let dev = try #require(stored.object("Employee", identity: ["email": "dev@example.com"]))
        #expect(try dev.value(forKey: "name") as? String == "Dev Patel")
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
        #expect(try SeedLedger.fingerprint(in: store.connection) == report.fingerprint)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains("creating") })
    }

    /// A first launch of a flat set into a new store writes objects as it checks files, and reports the files.
    @Test func aFlatSetReportsItsFilesChecked() throws {
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
        let count = spec.fileSizes.count
        #expect(seen.withLock { $0 } == (1...count).map { SeedProgress(phase: .checking, completed: $0, total: count) })
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
        #expect(sales.attributeValue(at: sales.entity.attributeIndex(named: "budget")!) == .decimal(Decimal(string: "480000.00")!))
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
        #expect(sales.attributeValue(at: sales.entity.attributeIndex(named: "budget")!) == .decimal(Decimal(string: "480000.00")!))
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
            "Templates/x.template:1:1: /: Project[code=X] is referenced but never defined; it lacks required attribute 'title'") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func validateReadsWithoutAStore() throws {
        let report = try Seeder.validate(templates: Fixtures.packageRoot.appendingPathComponent("Templates"))
        #expect(report.status == .applied && report.fileCount == 5)
        #expect(throws: SeedError.self) { try Seeder.validate(templates: URL(fileURLWithPath: "/nonexistent-seedkit")) }
    }

    /// Stores seeded before keep their ledgers: a value hash is still that of the values' canonical JSON.
    @Test func ledgerHashesAreOfTheCanonicalJSONOfTheValues() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        _ = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        let ledger = try Seeder(storePath: path).ledger()
        let model = try Fixtures.sampleModel()
        let context = try SQLiteStore(path: path, model: model).newContext()
        var keys: [ObjectIdentifier: String] = [:]
        var seeded: [(key: String, hash: String, object: ManagedObject)] = []
        for (key, entry) in ledger.objects {
            let root = try #require(model.entity(named: entry.entity)).rootName
            let object = try #require(try context.fetch(root).first { $0.objectID.number == entry.rowID })
            keys[ObjectIdentifier(object)] = key
            seeded.append((key, entry.hash, object))
        }
        #expect(seeded.count == 11)
        for (key, hash, object) in seeded {
            var members: JSONObject = ["$class": .string(object.entity.name)]
            for (index, attribute) in object.entity.attributes.enumerated() {
                members[attribute.name] = object.attributeValue(at: index)?.json ?? .null
            }
            for (index, relationship) in object.entity.relationships.enumerated() {
                let inverse = relationship.inverse.flatMap { model.entity(named: relationship.destination)?.relationship(named: $0) }
                if relationship.isToMany, let inverse, !inverse.isToMany { continue }
                if relationship.isToMany {
                    var targets = try object.objects(at: index).map { try #require(keys[ObjectIdentifier($0)]) }
                    if !relationship.isOrdered { targets.sort() }
                    members[relationship.name] = .array(targets.map(JSON.string))
                } else {
                    members[relationship.name] = try object.object(at: index).map { .string(try #require(keys[ObjectIdentifier($0)])) } ?? .null
                }
            }
            #expect(hash == StableHash.hex(of: JSON.object(members).serialized(style: .canonical)), "\(key)")
        }
    }

    /// A first seed saves the templates' own objects instead of copying them: the store and the ledger must be
    /// exactly what a run copying them into the store's context writes, for graphs of every shape.
    @Test(arguments: [1, 2])
    func firstSeedWritesWhatARunWrites(batch: UInt64) throws {
        let model = try Fixtures.graphModel()
        var generator = SeededGenerator(seed: 0x1_5EED_0000 + batch)
        for round in 0..<50 {
            let source = ObjectContext(model: model)
            let json = try GraphSpec.random(using: &generator).build(in: source).toJSON()
            func templates() throws -> ObjectContext {
                let context = ObjectContext(model: model)
                try context.fromJSON(json)
                return context
            }
            let inserted = try SQLiteStore.inMemory(model: model)
            let insertion = try inserted.connection.inTransaction(.immediate) {
                #expect(try SeedInsertion.isPossible(in: inserted, ledger: SeedLedger()))
                let templates = try templates()
                return try withExtendedLifetime(templates) { try SeedInsertion(saving: templates, to: inserted) }
            }
            let copied = try SQLiteStore.inMemory(model: model)
            let run = try copied.connection.inTransaction(.immediate) {
                let run = SeedRun(templates: try templates(), context: copied.newContext(), ledger: SeedLedger(), options: SeedOptions())
                try run.apply()
                try run.context.save()
                return run
            }
            #expect(insertion.ledger.objects == run.ledgerAfterSave().objects, "batch \(batch) round \(round)")
            #expect(insertion.counts == run.counts, "batch \(batch) round \(round)")
            let exported = try GraphExport().document(of: inserted.newContext())
            #expect(exported == (try GraphExport().document(of: copied.newContext())), "batch \(batch) round \(round)")
            // The insertion builds the indexes after its rows: they must be the schema's, as the run left them.
            #expect(try Self.indexes(of: inserted) == Self.indexes(of: copied), "batch \(batch) round \(round)")
        }
    }

    /// A flat set seeded into a new store — read into rows and written as the files are read, into a store built
    /// beside its path — holds exactly what decoding the set and saving its context writes, and is then unchanged.
    @Test func flatSetsSeedANewStoreAsDecodingDoes() throws {
        var generator = SeededGenerator(seed: 0x5EED_F1A7)
        for round in 0..<20 {
            try Self.expectSeededAsDecoded(FlatSetSpec.random(using: &generator), "round \(round)")
        }
    }

    /// Rows of one entity go into a new store many to a statement: long runs of one entity, cut at any point by the
    /// end of a file or of a statement, go in as decoding saves them.
    @Test func flatSetsInLongRunsOfOneEntitySeedANewStoreAsDecodingDoes() throws {
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
        let files = spec.files
        try spec.write(to: templates, model: model)
        let path = directory.appendingPathComponent("seed.sqlite").path
        let report = try Seeder(storePath: path).seed(templates: templates)
        #expect(report.status == .applied, comment)

        let decoded = try SQLiteStore.inMemory(model: model)
        let saved = try decoded.connection.inTransaction(.immediate) {
            let context = try SeedRowsTests.decode(files, model: model)
            return try withExtendedLifetime(context) { try SeedInsertion(saving: context, to: decoded) }
        }
        let seeded = try SQLiteStore(path: path, model: model)
        #expect(try SeedRowsTests.tables(of: seeded) == SeedRowsTests.tables(of: decoded), comment)
        // The ledger's tables, which only the seeded store has, aside.
        let seededIndexes = try Self.indexes(of: seeded).filter { !$0.contains("_seedkit_seed") }
        let decodedIndexes = try Self.indexes(of: decoded)
        #expect(seededIndexes == decodedIndexes, comment)
        #expect(try SeedLedger.read(from: seeded.connection).objects == saved.ledger.objects, comment)
        #expect(report.entities == saved.counts, comment)
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
        let store = try SQLiteStore(path: seeder.storePath, model: Fixtures.sampleModel())
        #expect(try SeedLedger.knownFiles(in: store.connection).count == files.count)

        // Contents changed behind the stamp's back (same size, time and inode) are not read: the set is unchanged.
        let projects = try #require(files.first { $0.contains("projects") })
        let url = templates.appendingPathComponent(projects)
        let original = try Data(contentsOf: url)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: " "), count: original.count))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: url.path)
        #expect(try seeder.seed(templates: templates).status == .unchanged)

        // Written the usual way, the file has a new time: it is read, and the change found.
        try original.write(to: url)
        let changed = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"title\": \"", with: "\"title\": \"New ")
        try Data(changed.utf8).write(to: url)
        let report = try seeder.seed(templates: templates)
        #expect(report.status == .applied)
        #expect(report.entities["Project"]?.updated ?? 0 > 0)
        #expect(try seeder.seed(templates: templates).status == .unchanged)
    }

    /// A store holding any object, or a ledger with any entry, is met by a run instead.
    @Test func firstSeedNeedsAnEmptyStore() throws {
        let store = try SQLiteStore.inMemory(model: try Fixtures.graphModel())
        #expect(try SeedInsertion.isPossible(in: store, ledger: SeedLedger()))
        var ledger = SeedLedger()
        ledger.objects["Tag[\"a\"]"] = SeedLedger.Entry(entity: "Tag", rowID: 1, hash: "0")
        #expect(try !SeedInsertion.isPossible(in: store, ledger: ledger))
        let context = store.newContext()
        try context.insert("Tag", values: ["label": "a"])
        try context.save()
        #expect(try !SeedInsertion.isPossible(in: store, ledger: SeedLedger()))
    }
}
