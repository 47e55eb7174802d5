import Foundation
import Testing
import SeedKit
@testable import SeedKitExport
@testable import SeedKitJSON

/// `GraphDiff` over `ExportDocument`s: objects matched by entity and identity, each change reported once, and bad
/// input refused with a located `ExportError`.
@Suite("Graph diff")
struct GraphDiffTests {
    /// The sample company's export as the old side, and as the new side after `edit`, made through the API on a copy
    /// inserted in another order.
    private func diff(
        options: GraphDiff.Options = GraphDiff.Options(),
        _ edit: (ObjectContext, [String: ManagedObject]) throws -> Void
    ) throws -> GraphDiff {
        let old = try ExportDocument(exporting: Fixtures.sampleCompanyContext(), file: "old.export.json")
        let context = ObjectContext(model: try Fixtures.sampleModel())
        let objects = try Fixtures.insertSampleCompany(into: context, shuffleSeed: 11)
        try edit(context, objects)
        return try GraphDiff(from: old, to: ExportDocument(exporting: context, file: "new.export.json"), options: options)
    }

    /// The sample company's export text.
    private func sampleExportText() throws -> String {
        String(decoding: try GraphExport().document(of: Fixtures.sampleCompanyContext()), as: UTF8.self)
    }

    /// The diff of two export texts.
    private func diff(_ old: String, _ new: String, options: GraphDiff.Options = GraphDiff.Options()) throws -> GraphDiff {
        try GraphDiff(
            from: ExportDocument(bytes: Array(old.utf8), file: "old.json"),
            to: ExportDocument(bytes: Array(new.utf8), file: "new.json"), options: options)
    }

    /// The error reading an export text named `bad.json`.
    private func readingError(_ text: String) throws -> ExportError {
        try #require(throws: ExportError.self) { try ExportDocument(bytes: Array(text.utf8), file: "bad.json") }
    }

    // MARK: Matching

    @Test func identicalExportsHaveNoChanges() throws {
        let diff = try diff { _, _ in }
        #expect(diff.changes.isEmpty)
        #expect(!diff.hasDifferences)
        #expect(diff.summary == GraphDiff.Summary())
        #expect(diff.text() == "no differences\n")
        #expect(diff.json["differences"] == [])
    }

    @Test func objectsAreMatchedByIdentityNotPosition() throws {
        let text = try sampleExportText()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex(of: "  \"objects\": [")) + 1
        let last = try #require(lines.lastIndex(of: "  ]")) - 1
        // The objects in reverse order, and APOLLO's members (an unordered to-many) reversed too.
        var objects = lines[first...last].map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
        objects.reverse()
        let members = #""members":[{"class":"Employee","email":"ann@example.com"},{"class":"Manager","email":"cleo@example.com"},{"class":"Employee","email":"dev@example.com"}]"#
        let reversedMembers = #""members":[{"class":"Employee","email":"dev@example.com"},{"class":"Manager","email":"cleo@example.com"},{"class":"Employee","email":"ann@example.com"}]"#
        #expect(objects.contains { $0.contains(members) })
        objects = objects.map { $0.replacingOccurrences(of: members, with: reversedMembers) }
        lines.replaceSubrange(first...last, with: objects.enumerated().map { $1 + ($0 < objects.count - 1 ? "," : "") })
        let shuffled = lines.joined(separator: "\n")
        #expect(shuffled != text)
        let diff = try diff(text, shuffled)
        #expect(diff.changes.isEmpty, "\(diff.text())")
        #expect(try self.diff(shuffled, text).changes.isEmpty)
    }

    /// A copy of the sample set seeded through the library into `seed.sqlite` beside it.
    private func seededSampleCopy() throws -> (directory: URL, templates: URL, store: String) {
        let directory = try Fixtures.sampleTemplatesCopy()
        let templates = directory.appendingPathComponent("Templates")
        let store = directory.appendingPathComponent("seed.sqlite").path
        #expect(try Seeder(storePath: store).seed(templates: templates).status == .applied)
        return (directory, templates, store)
    }

    @Test func documentsFromAStoreATemplateDirectoryAndAFileAgree() throws {
        let (directory, templates, store) = try seededSampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("company.export.json").path
        try GraphExport().write(SQLiteStore(existingAt: store).newContext(), toFileAtPath: file)
        let fromTemplates = try ExportDocument(path: templates.path)
        let fromStore = try ExportDocument(path: store)
        let fromFile = try ExportDocument(path: file)
        #expect(fromFile.file == file && fromStore.file == nil)
        for (old, new) in [(fromTemplates, fromStore), (fromStore, fromFile), (fromFile, fromTemplates)] {
            #expect(try GraphDiff(from: old, to: new).changes.isEmpty)
        }
        // The same objects as the API builds them.
        #expect(try GraphDiff(from: fromTemplates, to: ExportDocument(exporting: Fixtures.sampleCompanyContext())).changes.isEmpty)

        // A template directory without model.json, read with the model given.
        let model = directory.appendingPathComponent("model.json")
        try FileManager.default.moveItem(at: templates.appendingPathComponent("model.json"), to: model)
        #expect(try GraphDiff(from: ExportDocument(path: templates.path, modelURL: model), to: fromStore).changes.isEmpty)
        #expect(!fromTemplates.isModelInferred && !fromStore.isModelInferred)
        #expect(try ExportDocument(path: templates.path).isModelInferred, "without the model, it is inferred, and says so")
        // An invalid one lists every issue, located.
        try Fixtures.write(#"{"class": "Project", "code": "X", "title": 7}"#, to: "Templates/x.template", in: directory)
        let error = try #require(throws: ExportError.self) { try ExportDocument(path: templates.path, modelURL: model) }
        let issue = try #require(error.issues.last).description
        #expect(issue.hasSuffix(
            "/Templates/x.template:1:44: /title: attribute 'title' of Project: expected a string, got a number"))
        #expect(throws: ExportError.self) { try ExportDocument(path: directory.appendingPathComponent("nothing").path) }
    }

    @Test func changesAgainstATemplateSetAreLocatedWhereTheSetWritesTheObject() throws {
        let (directory, templates, store) = try seededSampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteConnection(path: store).execute(sql: #"UPDATE "Project" SET "title" = 'Orbit (renamed)' WHERE "code" = 'ORBIT'"#)

        // ORBIT is written in full in projects/, and named by identity in staff/ (a later file): the full one counts,
        // on either side of the diff.
        let fromTemplates = try ExportDocument(path: templates.path)
        let fromStore = try ExportDocument(path: store)
        for diff in [try GraphDiff(from: fromTemplates, to: fromStore), try GraphDiff(from: fromStore, to: fromTemplates)] {
            let change = try #require(diff.changes.first)
            #expect(diff.changes.count == 1)
            #expect(change.location?.file?.hasSuffix("Templates/projects/projects.template") == true)
            #expect(change.location?.line == 3 && change.location?.column == 3)
        }
        // The files are read again only to locate what a diff reports: one changed meanwhile is not read, and its
        // object is shown where another file names it.
        let projects = templates.appendingPathComponent("projects/projects.template")
        try (String(contentsOf: projects, encoding: .utf8) + "\n").write(to: projects, atomically: true, encoding: .utf8)
        let change = try #require(try GraphDiff(from: fromTemplates, to: fromStore).changes.first)
        #expect(change.location?.file?.hasSuffix("Templates/staff/engineering.template") == true)
        #expect(change.location?.line == 9)
    }

    // MARK: Each kind of change

    @Test func addedObjectIsReportedOnceWithItsExportForm() throws {
        let diff = try diff { context, objects in
            let zoe = try context.insert("Employee", values: ["name": "Zoe", "email": "zoe@example.com", "department": objects["Sales"]!])
            try zoe.add(objects["APOLLO"]!, to: "projects")
        }
        // Its links are part of its export form: not also changes on Sales or APOLLO.
        #expect(diff.text() == """
            + Employee[email=zoe@example.com] {"address":"","class":"Employee","department":{"class":"Department","name":"Sales"},"email":"zoe@example.com","name":"Zoe","projects":[{"class":"Project","code":"APOLLO"}]}
            1 object added, 0 removed, 0 changed

            """)
        #expect(diff.changes.first?.kind == .added)
        #expect(diff.changes.first?.new?["email"] == "zoe@example.com")
        #expect(diff.summary.added == 1)
    }

    @Test func removedObjectIsReportedOnce() throws {
        let diff = try diff { context, objects in try context.delete(objects["dev@example.com"]!) }
        #expect(diff.text() == "- Employee[email=dev@example.com]\n0 objects added, 1 removed, 0 changed\n")
        #expect(diff.changes.first?.kind == .removed)
        #expect(diff.changes.first?.old?["name"] == "Dev Patel")
        #expect(diff.changes.first?.location?.file == "old.export.json", "a removal is located in the old export")
    }

    @Test func attributeChangesShowOldAndNewValues() throws {
        let diff = try diff { _, objects in
            try objects["Sales"]!.setValue(Decimal(string: "500000.5")!, forKey: "budget")
            try objects["ann@example.com"]!.setValue(nil, forKey: "hired")
            try objects["ORBIT"]!.setValue(Date(timeIntervalSince1970: 0), forKey: "started")
        }
        #expect(diff.text() == """
            ~ Department[name=Sales].budget: "480000.00" → 500000.5
            ~ Employee[email=ann@example.com].hired: "2021-03-01T09:00:00Z" → (absent)
            ~ Project[code=ORBIT].started: (absent) → "1970-01-01T00:00:00Z"
            0 objects added, 0 removed, 3 changed

            """)
        let budget = try #require(diff.changes.first)
        #expect(budget.kind == .attribute && budget.path == "Department[name=Sales].budget")
        #expect(budget.old == "480000.00" && budget.new == 500000.5)
    }

    @Test func aDecimalWrittenWithAnotherScaleIsAChangeAndTheSameScaleIsNot() throws {
        // 480000.0 is the same number as 480000.00, but every output writes it differently.
        let rescaled = try diff { _, objects in
            try objects["Sales"]!.setValue(ScaledDecimal(exactly: "480000.0")!, forKey: "budget")
        }
        #expect(rescaled.text() == """
            ~ Department[name=Sales].budget: "480000.00" → "480000.0"
            0 objects added, 0 removed, 1 changed

            """)
        let same = try diff { _, objects in
            try objects["Sales"]!.setValue(ScaledDecimal(exactly: "48000000e-2")!, forKey: "budget")
        }
        #expect(same.changes.isEmpty)
    }

    @Test func movedEmployeeIsOneTargetChangeOnItsDepartment() throws {
        let diff = try diff { _, objects in
            try objects["dev@example.com"]!.setValue(objects["Engineering"]!, forKey: "department")
            try objects["bo@example.com"]!.setValue(nil, forKey: "department")
        }
        // Not also a member leaving Sales and joining Engineering: each link is reported once, on the to-one side.
        #expect(diff.text() == """
            ~ Employee[email=bo@example.com].department: Department[name=Engineering] → (none)
            ~ Employee[email=dev@example.com].department: Department[name=Sales] → Department[name=Engineering]
            0 objects added, 0 removed, 2 changed

            """)
        #expect(diff.changes.map(\.kind) == [.target, .target])
        #expect(diff.changes[1].old == "Department[name=Sales]" && diff.changes[1].new == "Department[name=Engineering]")
    }

    @Test func manyToManyMembersJoinAndLeaveAsASet() throws {
        let diff = try diff { _, objects in
            try objects["bo@example.com"]!.add(objects["APOLLO"]!, to: "projects")
            try objects["ORBIT"]!.remove(objects["ann@example.com"]!, from: "members")
            try objects["cleo@example.com"]!.remove(objects["bo@example.com"]!, from: "reports")
        }
        #expect(diff.text() == """
            - Employee[email=cleo@example.com].reports: Employee[email=bo@example.com]
            + Project[code=APOLLO].members: Employee[email=bo@example.com]
            - Project[code=ORBIT].members: Employee[email=ann@example.com]
            0 objects added, 0 removed, 3 changed

            """)
        #expect(diff.changes.map(\.kind) == [.unlinked, .linked, .unlinked])
    }

    @Test func orderedRelationshipReportsAReorder() throws {
        let diff = try diff { _, objects in
            let ann = objects["ann@example.com"]!
            let addresses = try #require(ann.value(forKey: "addresses") as? [ManagedObject])
            try ann.setValue(Array(addresses.reversed()), forKey: "addresses")
        }
        #expect(diff.changes.map(\.kind) == [.reordered])
        #expect(diff.changes.first?.path == "Employee[email=ann@example.com].addresses")
        #expect(diff.changes.first?.old?.arrayValue?.map { $0["street"] } == ["1 Harbour Road", "22 Mill Lane"])
        #expect(diff.changes.first?.new?.arrayValue?.map { $0["street"] } == ["22 Mill Lane", "1 Harbour Road"])
        let reorderedAndAdded = try self.diff { context, objects in
            let ann = objects["ann@example.com"]!
            let addresses = try #require(ann.value(forKey: "addresses") as? [ManagedObject])
            try ann.setValue(addresses.reversed() + [context.insert("Address", values: ["street": "9 Hill Road", "city": "Leeds"])], forKey: "addresses")
        }
        #expect(reorderedAndAdded.changes.map(\.kind) == [.linked, .reordered])
        #expect(reorderedAndAdded.changes.last?.new?.arrayValue?.map { $0["street"] } == ["22 Mill Lane", "1 Harbour Road", "9 Hill Road"])

        // Members with identity, by name.
        let old = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [
            #"{"class":"Playlist","name":"Mix","tracks":[{"class":"Track","number":1},{"class":"Track","number":2},{"class":"Track","number":3}]}"#,
            #"{"class":"Track","number":1}"#, #"{"class":"Track","number":2}"#, #"{"class":"Track","number":3}"#,
        ])
        let reordered = old.replacingOccurrences(
            of: #"[{"class":"Track","number":1},{"class":"Track","number":2},"#, with: #"[{"class":"Track","number":2},{"class":"Track","number":1},"#)
        #expect(try self.diff(old, reordered).text() == """
            ~ Playlist[name=Mix].tracks: order [Track[number=1], Track[number=2], Track[number=3]] → [Track[number=2], Track[number=1], Track[number=3]]
            0 objects added, 0 removed, 1 changed

            """)
    }

    @Test func reorderIsReportedAlongsideMembersJoiningAndLeaving() throws {
        let tracks = (1...4).map { #"{"class":"Track","number":\#($0)}"# }
        func playlist(_ numbers: [Int]) -> String {
            #"{"class":"Playlist","name":"Mix","tracks":[\#(numbers.map { tracks[$0 - 1] }.joined(separator: ","))]}"#
        }
        let old = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [playlist([1, 2, 3])] + tracks)
        let new = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [playlist([3, 4, 1])] + tracks)
        #expect(try diff(old, new).text() == """
            + Playlist[name=Mix].tracks: Track[number=4]
            - Playlist[name=Mix].tracks: Track[number=2]
            ~ Playlist[name=Mix].tracks: order [Track[number=1], Track[number=2], Track[number=3]] → [Track[number=3], Track[number=4], Track[number=1]]
            0 objects added, 0 removed, 1 changed

            """)
        // Members joining and leaving alone move no one: no reorder.
        let appended = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [playlist([1, 3, 4])] + tracks)
        #expect(try diff(old, appended).changes.map(\.kind) == [.linked, .unlinked])
    }

    @Test func classChangeWithinTheInheritanceTreeIsTheSameObject() throws {
        let diff = try diff { context, objects in
            let bo = objects["bo@example.com"]!
            try context.delete(bo)
            let manager = try context.insert("Manager", values: [
                "name": "Bo Chen", "email": "bo@example.com", "level": 1, "department": objects["Engineering"]!,
            ])
            try manager.add(objects["ORBIT"]!, to: "projects")
            try objects["cleo@example.com"]!.add(manager, to: "reports")
        }
        #expect(diff.text() == """
            ~ Employee[email=bo@example.com].class: Employee → Manager
            ~ Employee[email=bo@example.com].level: (absent) → 1
            0 objects added, 0 removed, 1 changed

            """)
        #expect(diff.changes.first?.kind == .classChanged)
        #expect(diff.changes.first?.old == "Employee" && diff.changes.first?.new == "Manager")
    }

    @Test func changedIdentityIsARemovalAndAnAddition() throws {
        let diff = try diff { _, objects in try objects["ORBIT"]!.setValue("NEBULA", forKey: "code") }
        #expect(diff.text() == """
            + Project[code=NEBULA] {"class":"Project","code":"NEBULA","members":[{"class":"Employee","email":"ann@example.com"},{"class":"Employee","email":"bo@example.com"}],"title":"Orbit: seed data tooling"}
            - Project[code=ORBIT]
            1 object added, 1 removed, 0 changed

            """)
    }

    @Test func embeddedObjectsWithoutIdentityAreComparedUnderTheirOwner() throws {
        let diff = try diff { context, objects in
            let ann = objects["ann@example.com"]!
            let addresses = try #require(ann.value(forKey: "addresses") as? [ManagedObject])
            try addresses[1].setValue("23 Mill Lane", forKey: "street")
            try addresses[0].setValue(nil, forKey: "postcode")
            try objects["cleo@example.com"]!.add(context.insert("Address", values: ["street": "9 Hill Road", "city": "Leeds"]), to: "addresses")
        }
        #expect(diff.text() == """
            ~ Employee[email=ann@example.com].addresses[0].postcode: "BS1 4RN" → (absent)
            ~ Employee[email=ann@example.com].addresses[1].street: "22 Mill Lane" → "23 Mill Lane"
            + Employee[email=cleo@example.com].addresses: {"city":"Leeds","class":"Address","street":"9 Hill Road"}
            0 objects added, 0 removed, 2 changed

            """)
        let removed = try self.diff { context, objects in
            let ann = objects["ann@example.com"]!
            try context.delete(try #require((ann.value(forKey: "addresses") as? [ManagedObject])?.first))
        }
        #expect(removed.text() == """
            - Employee[email=ann@example.com].addresses: {"city":"Bristol","class":"Address","postcode":"BS1 4RN","street":"1 Harbour Road"}
            0 objects added, 0 removed, 1 changed

            """)
    }

    @Test func modelChangesComeFirst() throws {
        var modelText = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Templates/model.json"), encoding: .utf8)
        modelText = modelText.replacingOccurrences(
            of: #""code": "string", "title": "string", "started": "date?""#,
            with: #""code": "string", "title": "string", "started": "date?", "budget": "decimal?""#)
        let newModel = try EntityModel(json: JSONDocument(parsing: Array(modelText.utf8)).value)
        let context = ObjectContext(model: newModel)
        let objects = try Fixtures.insertSampleCompany(into: context)
        try objects["APOLLO"]!.setValue(Decimal(12), forKey: "budget")
        let diff = try GraphDiff(
            from: ExportDocument(exporting: Fixtures.sampleCompanyContext()), to: ExportDocument(exporting: context))
        #expect(diff.text() == """
            + model.Project.budget: (absent) → "decimal?"
            ~ Project[code=APOLLO].budget: (absent) → 12
            1 model change; 0 objects added, 0 removed, 1 changed

            """)
        #expect(diff.summary.modelChanges == 1)
        #expect(diff.changes.first?.kind == .model && diff.changes.first?.object == "model")
        #expect(diff.changes.allSatisfy { $0.location == nil }, "exports from no file have no locations")
    }

    @Test func objectsOnlyInNewCanBeLeftOut() throws {
        let options = GraphDiff.Options(ignoresObjectsOnlyInNew: true)
        let diff = try diff(options: options) { context, objects in
            try context.insert("Employee", values: ["name": "Zoe", "email": "zoe@example.com", "department": objects["Sales"]!])
            try context.insert("Project", values: ["code": "ZEUS", "title": "Zeus"])
            try objects["ann@example.com"]!.setValue("Ann Lee-Jones", forKey: "name")
            try context.delete(objects["ORBIT"]!)
        }
        #expect(diff.objectsOnlyInNew == 2)
        #expect(diff.text() == """
            ~ Employee[email=ann@example.com].name: "Ann Lee" → "Ann Lee-Jones"
            - Project[code=ORBIT]
            0 objects added, 1 removed, 1 changed; 2 objects only in the new graph, not compared

            """)
        #expect(diff.json["summary"]?["onlyInNew"] == 2)
        let nothingMissing = try self.diff(options: options) { context, _ in
            try context.insert("Project", values: ["code": "ZEUS", "title": "Zeus"])
        }
        #expect(!nothingMissing.hasDifferences)
        #expect(nothingMissing.summaryLine == "no differences; 1 object only in the new graph, not compared")
    }

    @Test func aDriftCheckLeavesOutValuesTheOldGraphDoesNotState() throws {
        let diff = try diff(options: .driftCheck) { context, objects in
            try objects["bo@example.com"]!.setValue(Timestamp(seconds: 1_700_000_000), forKey: "hired")
            try objects["ann@example.com"]!.setValue(nil, forKey: "hired")
            try context.insert("Project", values: ["code": "ZEUS", "title": "Zeus"])
        }
        #expect(diff.text() == """
            ~ Employee[email=ann@example.com].hired: "2021-03-01T09:00:00Z" → (absent)
            0 objects added, 0 removed, 1 changed; 1 object only in the new graph, not compared

            """)
        #expect(try self.diff(options: GraphDiff.Options()) { _, objects in
            try objects["bo@example.com"]!.setValue(Timestamp(seconds: 1_700_000_000), forKey: "hired")
        }.hasDifferences, "outside a drift check, a value only in the new graph is a change")
    }

    @Test func ignoredPropertiesAndEntitiesAreLeftOut() throws {
        func edits(_ context: ObjectContext, _ objects: [String: ManagedObject]) throws {
            try objects["ann@example.com"]!.setValue("Ann Lee-Jones", forKey: "name")
            try objects["cleo@example.com"]!.setValue("Cleo P.", forKey: "name")
            try objects["Sales"]!.setValue(Decimal(1), forKey: "budget")
            let addresses = try #require(objects["ann@example.com"]!.value(forKey: "addresses") as? [ManagedObject])
            try addresses[0].setValue("Leeds", forKey: "city")
            try context.delete(objects["ORBIT"]!)
        }
        let everything = try diff(edits)
        #expect(everything.changes.count == 5)
        let some = try diff(options: GraphDiff.Options(ignoredProperties: ["Employee.name", "*.budget", "Project"]), edits)
        #expect(some.text() == """
            ~ Employee[email=ann@example.com].addresses[0].city: "Bristol" → "Leeds"
            0 objects added, 0 removed, 1 changed

            """)
        #expect(try !diff(options: GraphDiff.Options(ignoredProperties: ["*.name", "*.budget", "Employee.addresses", "Project"]), edits)
            .hasDifferences, "a relationship's pattern covers the objects nested under it; a subentity's, its root's")
        #expect(throws: ExportError.self) { try diff(options: GraphDiff.Options(ignoredProperties: ["Departmen.budget"])) { _, _ in } }
    }

    @Test func summaryCountsEachChangedObjectOnceWhateverItsIdentity() throws {
        let old = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [
            #"{"class":"Project","code":"a]1","title":"x"}"#, #"{"class":"Project","code":"a]2","title":"x"}"#,
            #"{"class":"Project","code":"b.1","title":"x"}"#,
        ])
        let diff = try diff(old, old.replacingOccurrences(of: #""title":"x""#, with: #""title":"y""#))
        #expect(diff.changes.map(\.object) == [#"Project[code="a]1"]"#, #"Project[code="a]2"]"#, "Project[code=b.1]"])
        #expect(diff.summary.changed == 3)
    }

    @Test func comparingTheOtherWayReportsTheInverseChanges() throws {
        /// Edits of the sample company, each applied or not at random.
        let edits: [(ObjectContext, [String: ManagedObject]) throws -> Void] = [
            { _, o in try o["Sales"]!.setValue(Decimal(string: "1.5")!, forKey: "budget") },
            { _, o in try o["ann@example.com"]!.setValue(nil, forKey: "hired") },
            { _, o in try o["dev@example.com"]!.setValue(o["Engineering"]!, forKey: "department") },
            { _, o in try o["bo@example.com"]!.setValue(nil, forKey: "department") },
            { _, o in try o["bo@example.com"]!.add(o["APOLLO"]!, to: "projects") },
            { _, o in try o["ORBIT"]!.remove(o["ann@example.com"]!, from: "members") },
            { c, o in try c.delete(o["dev@example.com"]!) },
            { c, o in try c.insert("Employee", values: ["name": "Zoe", "email": "zoe@example.com", "department": o["Sales"]!, "projects": [o["ORBIT"]!]]) },
            { _, o in try o["APOLLO"]!.setValue("ZEUS", forKey: "code") },
            { c, o in
                let ann = o["ann@example.com"]!
                let addresses = try #require(ann.value(forKey: "addresses") as? [ManagedObject])
                try addresses[1].setValue("23 Mill Lane", forKey: "street")
                try ann.setValue(addresses.reversed() + [c.insert("Address", values: ["street": "9 Hill Road", "city": "Leeds"])], forKey: "addresses")
            },
            { c, o in try c.delete(try #require((o["cleo@example.com"]!.value(forKey: "addresses") as? [ManagedObject])?.first)) },
            { _, o in try o["cleo@example.com"]!.remove(o["ann@example.com"]!, from: "reports") },
        ]
        /// A change as the other direction reports it, with embedded members' positions left out.
        func inverse(_ change: GraphChange) -> String {
            let kinds: [GraphChange.Kind: GraphChange.Kind] = [.added: .removed, .removed: .added, .linked: .unlinked, .unlinked: .linked]
            return describe(GraphChange(kind: kinds[change.kind] ?? change.kind, object: change.object, property: change.property, old: change.new, new: change.old))
        }
        func describe(_ change: GraphChange) -> String {
            let path = change.path.replacing(/\[[0-9]+\]/, with: "[]")
            return "\(change.kind) \(path) \(change.old.map { $0.text(style: .canonical) } ?? "-") \(change.new.map { $0.text(style: .canonical) } ?? "-")"
        }
        let old = try ExportDocument(exporting: Fixtures.sampleCompanyContext())
        var generator = SeededGenerator(seed: 3)
        for round in 0..<40 {
            let context = ObjectContext(model: try Fixtures.sampleModel())
            let objects = try Fixtures.insertSampleCompany(into: context, shuffleSeed: UInt64(round))
            let chosen = edits.indices.filter { _ in Bool.random(using: &generator) }
            for index in chosen { try edits[index](context, objects) }
            let new = try ExportDocument(exporting: context)
            let forward = try GraphDiff(from: old, to: new)
            let backward = try GraphDiff(from: new, to: old)
            #expect(forward.changes.map(inverse).sorted() == backward.changes.map(describe).sorted(), "edits \(chosen)")
            #expect(forward.summary.added == backward.summary.removed && forward.summary.changed == backward.summary.changed, "edits \(chosen)")
            #expect(forward.hasDifferences == !chosen.isEmpty, "edits \(chosen)")
        }
    }

    // MARK: Formats

    @Test func textIsOneLinePerChangeThenASummaryColouredOnRequest() throws {
        let diff = try diff { context, objects in
            try objects["Sales"]!.setValue(Decimal(500000), forKey: "budget")
            try context.delete(objects["bo@example.com"]!)
        }
        #expect(diff.text() == """
            ~ Department[name=Sales].budget: "480000.00" → 500000
            - Employee[email=bo@example.com]
            0 objects added, 1 removed, 1 changed

            """)
        #expect(diff.text(colored: true) == """
            \u{1B}[33m~ Department[name=Sales].budget: "480000.00" → 500000\u{1B}[0m
            \u{1B}[31m- Employee[email=bo@example.com]\u{1B}[0m
            0 objects added, 1 removed, 1 changed

            """)
    }

    @Test func jsonHasEveryChangeWithItsLocationAndASummary() throws {
        let text = try sampleExportText()
        let changed = text.replacingOccurrences(of: #""budget":"480000.00""#, with: #""budget":"500000.00""#)
        let json = try diff(text, changed).json
        let salesLine = try #require(changed.split(separator: "\n").firstIndex { $0.contains(#""name":"Sales"}"#) }) + 1
        #expect(json == [
            "differences": [[
                "kind": "attribute", "path": "Department[name=Sales].budget", "object": "Department[name=Sales]",
                "property": "budget", "old": "480000.00", "new": "500000.00", "file": "new.json",
                "line": .number(JSONNumber(Int64(salesLine))), "column": 5,
            ]],
            "summary": ["added": 0, "removed": 0, "changed": 1, "model": 0, "onlyInNew": 0],
        ])
    }

    @Test func githubAnnotationsPointAtTheObjectsLine() throws {
        let text = try sampleExportText()
        let changed = text.replacingOccurrences(of: #""name":"Dev Patel""#, with: #""name":"Dev, 100%""#)
            .replacingOccurrences(of: #"    {"class":"Project","code":"ORBIT""#, with: #"    {"class":"Project","code":"ORBIT2""#)
        let devLine = try #require(changed.split(separator: "\n").firstIndex { $0.contains("Dev, 100%") }) + 1
        let orbitLine = try #require(text.split(separator: "\n").firstIndex { $0.hasPrefix(#"    {"class":"Project","code":"ORBIT""#) }) + 1
        let annotations = try diff(text, changed).githubAnnotations().split(separator: "\n").map(String.init)
        #expect(annotations == [
            #"::warning file=new.json,line=\#(devLine),col=5,title=seed diff%3A attribute::~ Employee[email=dev@example.com].name: "Dev Patel" → "Dev, 100%25""#,
            #"::warning file=new.json,line=\#(orbitLine),col=5,title=seed diff%3A added::+ Project[code=ORBIT2] {"class":"Project","code":"ORBIT2","members":[{"class":"Employee","email":"ann@example.com"},{"class":"Employee","email":"bo@example.com"}],"title":"Orbit: seed data tooling"}"#,
            #"::warning file=old.json,line=\#(orbitLine),col=5,title=seed diff%3A removed::- Project[code=ORBIT]"#,
            "::notice title=seed diff::1 object added, 1 removed, 1 changed",
        ])
    }

    // MARK: Bad input: located errors, never a crash

    @Test func malformedJSONIsLocatedByLineAndColumn() throws {
        let trailingComma = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [
            #"{"class":"Project","code":"A","title":"x"}"#, #"{"class":"Project","code":"B","title":"y",}"#,
        ])
        #expect(try readingError(trailingComma).description == "bad.json:7:47: trailing comma in object")
        let text = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [#"{"class":"Project","code":"A","title":"x"}"#])
        let truncated = String(text.prefix(text.count - 12))
        #expect(try readingError(truncated).description == "bad.json:6:42: unexpected end of input, expected ':' after object key")
        #expect(try readingError("").description == "bad.json:1:1: unexpected end of input, expected an export document: an object with \"format\", \"model\" and \"objects\"")
    }

    @Test func aDocumentThatIsNotAnExportSaysWhy() throws {
        #expect(try readingError(#"[{"class": "Project"}]"#).description
            == #"bad.json:1:1: expected an export document: an object with "format", "model" and "objects", found '['"#)
        let text = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [])
        #expect(try readingError(text.replacingOccurrences(of: "seedkit-export", with: "other")).description
            == #"bad.json:1:1: /format: not a SeedKit export: "format" must be "seedkit-export""#)
        #expect(try readingError(text.replacingOccurrences(of: #""formatVersion": 1"#, with: #""formatVersion": 2"#)).description
            == #"bad.json:1:1: /formatVersion: "formatVersion" must be an integer from 1 to 1, the versions this SeedKit reads"#)
        let noObjects = try readingError(#"{"format": "seedkit-export", "formatVersion": 1, "model": \#(Fixtures.projectsModelText)}"#)
        #expect(noObjects.description == #"bad.json:1:1: /: the export has no "objects" array"#)
        // A member this version does not know is refused rather than dropped from the diff and its patch.
        let unknownMember = try readingError(text.replacingOccurrences(of: #""formatVersion": 1"#, with: #""formatVersion": 1, "objets": []"#))
        #expect(unknownMember.description == #"bad.json:3:23: /objets: unknown key 'objets' in an export document; did you mean 'objects'?; it has "format", "formatVersion", "model" and "objects""#)
        let badModel = try readingError(text.replacingOccurrences(of: #""code": "string""#, with: #""code": "strng""#))
        #expect(badModel.pointer?.description == "/model")
        #expect(badModel.location?.line == 4 && badModel.location?.column == 12)
        #expect(badModel.message.hasPrefix("the export's model is invalid: "))
    }

    @Test func unknownClassHasItsPointerAndASuggestion() throws {
        let text = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [
            #"{"class":"Project","code":"A","title":"x"}"#, #"{"class":"Projct","code":"B","title":"y"}"#,
        ])
        let error = try readingError(text)
        #expect(error.description
            == "bad.json:7:5: /objects/1/class: unknown class 'Projct'; did you mean 'Project'?; the model has Playlist, Project, Track")
        #expect(error.pointer == JSONPointer.root.appending("objects").appending(1).appending("class"))
    }

    @Test func anObjectWrittenTwiceIsRefused() throws {
        let text = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [
            #"{"class":"Project","code":"A","title":"x"}"#, #"{"class":"Project","code":"B","title":"y"}"#,
            #"{"class":"Project","code":"A","title":"z"}"#,
        ])
        #expect(try readingError(text).description
            == "bad.json:8:5: /objects/2: Project[code=A] is written twice (first at /objects/0, bad.json:6:5)")
    }

    @Test func unknownKeyInAChangedObjectFailsTheDiffWithItsLocation() throws {
        let old = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [#"{"class":"Project","code":"A","title":"x"}"#])
        let new = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [#"{"class":"Project","code":"A","titel":"x"}"#])
        let error = try #require(throws: ExportError.self) { try diff(old, new) }
        #expect(error.description == "new.json:6:5: /objects/0/titel: unknown key 'titel' of Project; did you mean 'title'?")
    }

    @Test func objectsBeforeTheModelAreKeyedAfterIt() throws {
        let objects = #"[{"class":"Project","code":"B","title":"y"}, {"class":"Project","code":"A","title":"x"}]"#
        let reordered = #"{"objects": \#(objects), "formatVersion": 1, "model": \#(Fixtures.projectsModelText), "format": "seedkit-export"}"#
        let canonical = Fixtures.exportText(model: Fixtures.projectsModelText, objects: [
            #"{"class":"Project","code":"A","title":"x"}"#, #"{"class":"Project","code":"B","title":"z"}"#,
        ])
        #expect(try diff(reordered, canonical).text() == "~ Project[code=B].title: \"y\" → \"z\"\n0 objects added, 0 removed, 1 changed\n")
        let twice = reordered.replacingOccurrences(of: #""code":"B""#, with: #""code":"A""#)
        #expect(try readingError(twice).description.hasSuffix("/objects/1: Project[code=A] is written twice (first at /objects/0, bad.json:1:14)"))
    }

    @Test func aMissingFileIsAnExportError() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-seedkit/old.export.json")
        let error = try #require(throws: ExportError.self) { try ExportDocument(contentsOf: missing) }
        #expect(error.description == "cannot read /nonexistent-seedkit/old.export.json: no such file")
        #expect(throws: ExportError.self) { try ExportDocument(path: missing.path) }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: ExportError.self) { try ExportDocument(contentsOf: directory) }
    }

    @Test func deeplyNestedOwnedChildrenReadBack() throws {
        // Each level of ownership nests two levels of JSON (the child, in its parent's array).
        let context = ObjectContext(model: try Fixtures.graphModel())
        var parent = try context.insert("Node", values: ["title": "0"])
        for depth in 1..<1500 {
            let child = try context.insert("Node", values: ["title": "\(depth)"])
            try parent.add(child, to: "children")
            parent = child
        }
        // Written as top-level objects of at most GraphExport.nestingLimit levels, linked by "$ref".
        let document = try ExportDocument(exporting: context)
        // A node nests its children two levels down (its list between) and reaches two more with its own list: 31
        // nodes of levels 1, 3, …, 61 fit in GraphExport.nestingLimit's 64, so 1,500 make 49 top-level objects.
        #expect(document.objectCount == 49)
        #expect(try GraphDiff(from: document, to: ExportDocument(exporting: context)).changes.isEmpty)
        try parent.setValue("last", forKey: "title")
        let changed = try GraphDiff(from: document, to: ExportDocument(exporting: context))
        #expect(changed.changes.map(\.kind) == [.attribute])
        // Deeper than any SeedKit document nests: an error naming the file, not a stack overflow.
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        let tooDeep = Fixtures.exportText(
            model: Fixtures.projectsModelText, objects: [#"{"class":"Project","code":"A","title":"x","deep":\#(deep)}"#])
        let error = try readingError(tooDeep)
        #expect(error.description.hasPrefix("bad.json:6:") && error.message == "nesting deeper than 512")
    }

    @Test func deepChainsOfObjectsWithIdentityDiffAndPatchWithoutOverflowingTheStack() throws {
        let model = #"{"entities":{"Node":{"identity":["name"],"attributes":{"name":"string"},"#
            + #""relationships":{"children":{"to":"Node","many":true,"ordered":true,"owns":true,"inverse":"parent"},"#
            + #""parent":{"to":"Node","inverse":"children"}}}}}"#
        // 255 levels of ownership: 509 levels of JSON, about the most an exported object takes; 257 are too many for
        // any reader, and refused with the file named.
        func chain(leaf: String, levels: Int = 255) -> String {
            var text = #"{"class":"Node","name":"\#(leaf)"}"#
            for level in (0..<levels - 1).reversed() { text = #"{"children":[\#(text)],"class":"Node","name":"n\#(level)"}"# }
            return Fixtures.exportText(model: model, objects: [text])
        }
        let error = try readingError(chain(leaf: "leaf", levels: 257))
        #expect(error.description.hasPrefix("bad.json:6:") && error.message == "nesting deeper than 512")
        let (oldText, newText) = (chain(leaf: "leaf"), chain(leaf: "leaf2"))
        let old = try ExportDocument(bytes: Array(oldText.utf8))
        let new = try ExportDocument(bytes: Array(newText.utf8))
        let diff = try GraphDiff(from: old, to: new)
        #expect(diff.changes.map(\.path) == ["Node[name=leaf2]", "Node[name=leaf]"])
        #expect(diff.changes.map(\.kind) == [.added, .removed])
        let patch = JSONPatch(from: old, to: new)
        let patched = try patch.apply(to: JSONDocument(parsing: oldText).value)
        #expect(patched == (try JSONDocument(parsing: newText).value))
        #expect(patched != (try JSONDocument(parsing: oldText).value))
    }

    @Test func identicalObjectsWithoutIdentityAreCountedNotRefused() throws {
        let context = ObjectContext(model: try Fixtures.graphModel())
        for _ in 0..<3 { try context.insert("Node", values: ["title": "same"]) }
        let three = try ExportDocument(exporting: context)
        #expect(three.objectCount == 3)
        #expect(try GraphDiff(from: three, to: ExportDocument(exporting: context)).changes.isEmpty)
        try context.delete(try #require(context.fetch("Node").first))
        try context.insert("Node", values: ["title": "other"])
        let diff = try GraphDiff(from: three, to: ExportDocument(exporting: context))
        #expect(diff.changes.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.added, .removed])
        #expect(diff.summary.added == 1 && diff.summary.removed == 1)
    }

    @Test func damagedExportsNeverCrash() throws {
        let text = Array(try sampleExportText().utf8)
        let original = try ExportDocument(bytes: text)
        var generator = SeededGenerator(seed: 6)
        var variants: [[UInt8]] = stride(from: 0, to: text.count, by: 37).map { Array(text[..<$0]) }
        let replacements = Array(#"{}[],:"0 x\"#.utf8)
        for _ in 0..<400 {
            var bytes = text
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = replacements.randomElement(using: &generator)!
            }
            variants.append(bytes)
        }
        var read = 0
        for bytes in variants {
            // Each either reads and compares, or throws an ExportError: the typed throws say which.
            do throws(ExportError) {
                let document = try ExportDocument(bytes: bytes)
                read += 1
                _ = try GraphDiff(from: original, to: document)
                _ = try GraphDiff(from: document, to: original)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
        #expect(read > 0 && read < variants.count)
    }
}
