import Foundation
import Testing
import SeedKit
@testable import SeedKitExport

/// `GraphExport`: one canonical document per object graph, and the template set that reproduces it.
@Suite("Graph export")
struct GraphExportTests {
    /// The sample company saved to a new store file, inserted in the order `shuffleSeed` makes.
    private func sampleStore(shuffleSeed: UInt64? = nil) throws -> String {
        let path = try Fixtures.temporaryStorePath()
        let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
        try Fixtures.insertSampleCompany(into: context, shuffleSeed: shuffleSeed)
        try context.save()
        return path
    }

    /// The export of the store at `path`, opened as `seed export` opens it: with the model it holds.
    private func export(storeAt path: String, entityNames: [String]? = nil) throws -> [UInt8] {
        try GraphExport(entityNames: entityNames).document(of: SQLiteStore(existingAt: path).newContext())
    }

    /// The top-level objects of an export document.
    private func objects(_ document: [UInt8]) throws -> [JSON] {
        try #require(JSONDocument(parsing: document).value["objects"]?.arrayValue)
    }

    private func removeDirectory(ofStore path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    @Test func sameDataGivesSameBytesWhateverTheInsertionOrderAndStoreFile() throws {
        let paths = try [nil, 1, 2, 3, 4].map { try sampleStore(shuffleSeed: $0) }
        defer { paths.forEach(removeDirectory) }
        let reference = try export(storeAt: paths[0])
        for path in paths.dropFirst() {
            #expect(try export(storeAt: path) == reference, "store inserted in another order: \(path)")
        }
        // The same data unsaved in memory, and seeded by the library from the sample templates.
        let memory = try Fixtures.sampleCompanyContext(shuffleSeed: 9)
        #expect(try GraphExport().document(of: memory) == reference)
        let seeded = try Fixtures.temporaryStorePath()
        defer { removeDirectory(ofStore: seeded) }
        #expect(try Seeder(storePath: seeded).seed(templates: Fixtures.packageRoot.appendingPathComponent("Templates")).status == .applied)
        #expect(try export(storeAt: seeded) == reference)
    }

    /// Deleted rows leave gaps in a table's row ids: the store's export still finds every link's target, as the same
    /// objects' export from memory does.
    @Test func aStoreWithGapsInItsRowIDsExportsLikeTheSameObjectsInMemory() throws {
        let path = try Fixtures.temporaryStorePath()
        defer { removeDirectory(ofStore: path) }
        let store = try SQLiteStore(path: path, model: Fixtures.sampleModel())
        let stored = store.newContext()
        let storedObjects = try Fixtures.insertSampleCompany(into: stored)
        try stored.save()
        let memory = ObjectContext(model: try Fixtures.sampleModel())
        let memoryObjects = try Fixtures.insertSampleCompany(into: memory)
        // Bo is the second employee: the rows after him are no longer at their place in the table.
        for key in ["bo@example.com", "APOLLO"] {
            try stored.delete(try #require(storedObjects[key]))
            try memory.delete(try #require(memoryObjects[key]))
        }
        try stored.save()
        // From the store's rows, as `seed export` reads them.
        let document = try GraphExport().document(of: store)
        #expect(document == (try GraphExport().document(of: memory)))
        // Cleo (after the gap) still has her report, and Dev his project.
        let text = String(decoding: document, as: UTF8.self)
        #expect(text.contains(#""reports":[{"class":"Employee","email":"ann@example.com"}]"#))
        #expect(text.contains(#""members":[{"class":"Employee","email":"ann@example.com"}]"#))
    }

    @Test func randomCompaniesExportTheSameBytesWhateverTheOrder() throws {
        for seed: UInt64 in 1...4 {
            var generator = SeededGenerator(seed: seed)
            let company = RandomCompany(using: &generator)
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            var exports: [[UInt8]] = []
            for order: UInt64 in 0..<3 {
                let path = directory.appendingPathComponent("\(order).sqlite").path
                let context = try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext()
                try company.insert(into: context, shuffleSeed: seed * 10 + order)
                try context.save()
                let file = directory.appendingPathComponent("\(order).export.json").path
                try GraphExport().write(SQLiteStore(existingAt: path).newContext(), toFileAtPath: file)
                exports.append(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))))
            }
            #expect(exports[1] == exports[0], "seed \(seed)")
            #expect(exports[2] == exports[0], "seed \(seed)")
            #expect(try ExportDocument(bytes: exports[0]).objectCount == company.topLevelCount, "seed \(seed)")
            // Its template set seeds a store that exports the same bytes again (once: seeding is the slow part).
            guard seed == 1 else { continue }
            let templates = directory.appendingPathComponent("Templates")
            try GraphExport().writeTemplates(SQLiteStore(existingAt: directory.appendingPathComponent("0.sqlite").path).newContext(), to: templates)
            let reseeded = directory.appendingPathComponent("reseeded.sqlite").path
            #expect(try Seeder(storePath: reseeded).seed(templates: templates).status == .applied)
            #expect(try export(storeAt: reseeded) == exports[0], "seed \(seed)")
        }
    }

    /// The export reads a store's rows straight into the canonical writer, and a context's objects into the same
    /// writer: both give, byte for byte, what the export wrote through managed objects and the graph encoder — for
    /// random graphs of every shape (nested owned children, one-to-ones, many-to-manys, objects without identity met
    /// twice, subentities) and random companies.
    @Test func exportsAreTheBytesTheEncoderWrote() throws {
        var generator = SeededGenerator(seed: 0xE4_0127)
        let model = try Fixtures.graphModel()
        for round in 0..<40 {
            let store = try SQLiteStore.inMemory(model: model)
            let context = store.newContext()
            _ = try GraphSpec.random(using: &generator).build(in: context)
            let unsaved = try GraphExport().lines(of: context)
            #expect(unsaved == (try ReferenceExport.lines(of: context)), "round \(round), unsaved")
            try context.save()
            let reference = try ReferenceExport.lines(of: store.newContext())
            #expect(try GraphExport().lines(of: store) == reference, "round \(round), rows")
            #expect(try GraphExport().lines(of: store.newContext()) == reference, "round \(round), saved")
        }
        for seed: UInt64 in 1...3 {
            var generator = SeededGenerator(seed: seed)
            let store = try SQLiteStore.inMemory(model: Fixtures.sampleModel())
            let context = store.newContext()
            try RandomCompany(using: &generator).insert(into: context, shuffleSeed: seed)
            try context.save()
            #expect(try GraphExport().lines(of: store) == (try ReferenceExport.lines(of: store.newContext())), "company \(seed)")
        }
    }

    @Test func documentHasTheModelThenOneCanonicalLinePerObjectSortedByEntityAndIdentity() throws {
        let path = try sampleStore(shuffleSeed: 5)
        defer { removeDirectory(ofStore: path) }
        let text = String(decoding: try export(storeAt: path), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"format\": \"seedkit-export\",\n  \"formatVersion\": 1,\n  \"model\": {\n"))
        let document = try JSONDocument(parsing: Array(text.utf8)).value
        #expect(try EntityModel(json: #require(document["model"])) == Fixtures.sampleModel())
        let lines = text.split(separator: "\n").map(String.init)
        let objectLines = Array(lines.drop { $0 != "  \"objects\": [" }.dropFirst().prefix { $0 != "  ]" })
        #expect(objectLines == [
            #"    {"budget":"1250000.00","class":"Department","employees":[{"class":"Employee","email":"ann@example.com"},{"class":"Employee","email":"bo@example.com"},{"class":"Manager","email":"cleo@example.com"}],"name":"Engineering"},"#,
            #"    {"budget":"480000.00","class":"Department","employees":[{"class":"Employee","email":"dev@example.com"}],"name":"Sales"},"#,
            #"    {"address":"","addresses":[{"city":"Bristol","class":"Address","postcode":"BS1 4RN","street":"1 Harbour Road"},{"city":"Bath","class":"Address","street":"22 Mill Lane"}],"class":"Employee","department":{"class":"Department","name":"Engineering"},"email":"ann@example.com","hired":"2021-03-01T09:00:00Z","name":"Ann Lee","projects":[{"class":"Project","code":"APOLLO"},{"class":"Project","code":"ORBIT"}]},"#,
            #"    {"address":"","class":"Employee","department":{"class":"Department","name":"Engineering"},"email":"bo@example.com","name":"Bo Chen","projects":[{"class":"Project","code":"ORBIT"}]},"#,
            #"    {"address":"","class":"Employee","department":{"class":"Department","name":"Sales"},"email":"dev@example.com","name":"Dev Patel","projects":[{"class":"Project","code":"APOLLO"}]},"#,
            #"    {"address":"","addresses":[{"city":"Bristol","class":"Address","street":"5 Queen Square"}],"class":"Manager","department":{"class":"Department","name":"Engineering"},"email":"cleo@example.com","level":2,"name":"Cleo Park","projects":[{"class":"Project","code":"APOLLO"}],"reports":[{"class":"Employee","email":"ann@example.com"},{"class":"Employee","email":"bo@example.com"}]},"#,
            #"    {"class":"Project","code":"APOLLO","members":[{"class":"Employee","email":"ann@example.com"},{"class":"Manager","email":"cleo@example.com"},{"class":"Employee","email":"dev@example.com"}],"started":"2025-01-06T09:00:00Z","title":"Apollo: the new storefront"},"#,
            #"    {"class":"Project","code":"ORBIT","members":[{"class":"Employee","email":"ann@example.com"},{"class":"Employee","email":"bo@example.com"}],"title":"Orbit: seed data tooling"}"#,
        ])
        #expect(lines.suffix(2) == ["  ]", "}"])
        #expect(text.hasSuffix("\n  ]\n}\n"))
    }

    @Test func ownedChildrenAreNestedUnderTheirOwnerAndNeverAtTheTopLevel() throws {
        let path = try sampleStore()
        defer { removeDirectory(ofStore: path) }
        let objects = try objects(export(storeAt: path))
        #expect(!objects.contains { $0["class"] == "Address" })
        let ann = try #require(objects.first { $0["email"] == "ann@example.com" })
        // Nested in full, in the ordered relationship's order, without the back-pointer the nesting states.
        #expect(ann["addresses"] == [
            ["city": "Bristol", "class": "Address", "postcode": "BS1 4RN", "street": "1 Harbour Road"],
            ["city": "Bath", "class": "Address", "street": "22 Mill Lane"],
        ])
    }

    @Test func referencesToObjectsWithIdentityAreIdentityStubs() throws {
        let path = try sampleStore(shuffleSeed: 2)
        defer { removeDirectory(ofStore: path) }
        let objects = try objects(export(storeAt: path))
        let dev = try #require(objects.first { $0["email"] == "dev@example.com" })
        #expect(dev["department"] == ["class": "Department", "name": "Sales"])
        // An unordered to-many as stubs sorted by identity; a stub names the member's own class.
        let apollo = try #require(objects.first { $0["code"] == "APOLLO" })
        #expect(apollo["members"] == [
            ["class": "Employee", "email": "ann@example.com"], ["class": "Manager", "email": "cleo@example.com"],
            ["class": "Employee", "email": "dev@example.com"],
        ])
        #expect(objects.filter { $0["class"] == "Project" }.count == 2, "each object in full once, however often it is referenced")
    }

    @Test func objectsWithoutIdentityReferencedTwiceGetDeterministicIDs() throws {
        /// Nodes a and b (no identity) both like c and are both tagged red: the tag, a top-level object with identity,
        /// references a and b, which are written in full elsewhere.
        func export(shuffleSeed: UInt64) throws -> [UInt8] {
            var generator = SeededGenerator(seed: shuffleSeed)
            let context = ObjectContext(model: try Fixtures.graphModel())
            var objects: [String: ManagedObject] = [:]
            for title in ["a", "b", "c"].shuffled(using: &generator) { objects[title] = try context.insert("Node", values: ["title": title]) }
            objects["red"] = try context.insert("Tag", values: ["label": "red"])
            let links = [("red", "a", "nodes"), ("red", "b", "nodes"), ("a", "c", "likes"), ("b", "c", "likes")]
            for (from, to, key) in links.shuffled(using: &generator) { try objects[from]!.add(objects[to]!, to: key) }
            return try GraphExport().document(of: context)
        }
        let first = try export(shuffleSeed: 1)
        for seed: UInt64 in 2...6 { #expect(try export(shuffleSeed: seed) == first, "seed \(seed)") }
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasSuffix("""
            "objects": [
                {"$id":"Node-1","class":"Node","likes":[{"class":"Node","likedBy":[{"$id":"Node-2","class":"Node","tags":[{"class":"Tag","label":"red"}],"title":"b"}],"title":"c"}],"tags":[{"class":"Tag","label":"red"}],"title":"a"},
                {"class":"Tag","label":"red","nodes":[{"$ref":"Node-1"},{"$ref":"Node-2"}]}
              ]
            }

            """))
        // Read back, the ids resolve: one object each, and the tag holds both.
        let context = ObjectContext(model: try Fixtures.graphModel())
        var decoder = GraphDecoder(context: context)
        decoder.add(try #require(JSONDocument(parsing: first).value["objects"]))
        _ = try decoder.decode()
        #expect(try context.fetch("Node").count == 3)
        let red = try #require(context.object("Tag", identity: ["label": "red"]))
        #expect(try (red.value(forKey: "nodes") as! [ManagedObject]).map { try $0.value(forKey: "title") as! String }.sorted() == ["a", "b"])
    }

    @Test func entityFilterKeepsSubentitiesOwnedChildrenAndReferences() throws {
        let path = try sampleStore(shuffleSeed: 3)
        defer { removeDirectory(ofStore: path) }
        let employees = try objects(export(storeAt: path, entityNames: ["Employee"]))
        #expect(employees.map { $0["email"] } == ["ann@example.com", "bo@example.com", "dev@example.com", "cleo@example.com"])
        #expect(employees.map { $0["class"] } == ["Employee", "Employee", "Employee", "Manager"])
        #expect(employees[0]["addresses"]?.arrayValue?.count == 2)
        #expect(employees[0]["department"] == ["class": "Department", "name": "Engineering"])
        #expect(try objects(export(storeAt: path, entityNames: ["Manager"])).map { $0["email"] } == ["cleo@example.com"])
        let two = try objects(export(storeAt: path, entityNames: ["Project", "Department"]))
        #expect(two.map { $0["class"] } == ["Department", "Department", "Project", "Project"])
        // Owned children whose owner is left out are exported at the top level, pointing at their owner.
        let addresses = try objects(export(storeAt: path, entityNames: ["Address"]))
        #expect(addresses.count == 3)
        #expect(addresses.allSatisfy { $0["class"] == "Address" && $0["resident"]?["class"] != nil })
        // The model is the whole model whatever the filter: the document still reads back.
        #expect(try ExportDocument(bytes: export(storeAt: path, entityNames: ["Manager"])).model == Fixtures.sampleModel())
    }

    @Test func equalObjectsWithoutIdentityAtTheTopLevelAreInAFixedOrder() throws {
        /// Ann and Bo live at the same address; only the addresses are exported, so they are top-level objects.
        func export(annFirst: Bool) throws -> [UInt8] {
            let context = ObjectContext(model: try Fixtures.sampleModel())
            var residents: [ManagedObject] = []
            for email in annFirst ? ["ann@example.com", "bo@example.com"] : ["bo@example.com", "ann@example.com"] {
                let employee = try context.insert("Employee", values: ["name": email, "email": email])
                try employee.add(context.insert("Address", values: ["street": "1 Road", "city": "Bath"]), to: "addresses")
                residents.append(employee)
            }
            return try GraphExport(entityNames: ["Address"]).document(of: context)
        }
        let annFirst = try export(annFirst: true)
        #expect(try export(annFirst: false) == annFirst)
        #expect(try objects(annFirst).map { $0["resident"]?["email"] } == ["ann@example.com", "bo@example.com"])
    }

    @Test func unknownEntityIsAnErrorWithASuggestion() throws {
        let context = try Fixtures.sampleCompanyContext()
        let error = try #require(throws: ExportError.self) { try GraphExport(entityNames: ["Employe"]).document(of: context) }
        #expect(error.description
            == "unknown entity 'Employe'; did you mean 'Employee'?; the model has Address, Department, Employee, Manager, Project")
        #expect(throws: ExportError.self) { try GraphExport(entityNames: ["Employee", "Nothing"]).document(of: context) }
    }

    @Test func unsavedChangesAreExported() throws {
        let path = try sampleStore()
        defer { removeDirectory(ofStore: path) }
        let context = try SQLiteStore(existingAt: path).newContext()
        let bo = try #require(context.object("Employee", identity: ["email": "bo@example.com"]))
        try bo.setValue("Bo Chen-Smith", forKey: "name")
        try context.delete(#require(context.object("Employee", identity: ["email": "dev@example.com"])))
        let objects = try objects(GraphExport().document(of: context))
        #expect(objects.first { $0["email"] == "bo@example.com" }?["name"] == "Bo Chen-Smith")
        #expect(!objects.contains { $0["email"] == "dev@example.com" })
        #expect(objects.first { $0["name"] == "Sales" }?["employees"] == nil, "an empty to-many is left out")
    }

    @Test func fileHasTheDocumentsBytes() throws {
        let path = try sampleStore(shuffleSeed: 1)
        defer { removeDirectory(ofStore: path) }
        let context = try SQLiteStore(existingAt: path).newContext()
        let file = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("company.export.json")
        try Data("old".utf8).write(to: file)
        try GraphExport().write(context, toFileAtPath: file.path)
        #expect(try [UInt8](Data(contentsOf: file)) == GraphExport().document(of: context))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(!siblings.contains { $0.hasSuffix(".tmp") }, "no temporary file is left")
        #expect(throws: ExportError.self) { try GraphExport().write(context, toFileAtPath: "/nonexistent-seedkit/out.json") }
    }

    @Test func templateSetRoundTripsToTheSameBytes() throws {
        let path = try sampleStore(shuffleSeed: 4)
        defer { removeDirectory(ofStore: path) }
        let original = try export(storeAt: path)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Snapshot")
        let written = try GraphExport().writeTemplates(SQLiteStore(existingAt: path).newContext(), to: templates)
        #expect(written == [
            "Department/Engineering.template", "Department/Sales.template", "Employee/ann@example.com.template",
            "Employee/bo@example.com.template", "Employee/dev@example.com.template", "Manager/cleo@example.com.template",
            "Project/APOLLO.template", "Project/ORBIT.template", "model.json",
        ])
        #expect(try EntityModel(contentsOf: templates.appendingPathComponent("model.json")) == Fixtures.sampleModel())
        let reseeded = directory.appendingPathComponent("reseeded.sqlite").path
        let report = try Seeder(storePath: reseeded).seed(templates: templates)
        #expect(report.status == .applied)
        #expect(report.issues.isEmpty)
        #expect(try export(storeAt: reseeded) == original)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: directory.path).contains { $0.hasSuffix(".tmp") })
    }

    @Test func templateFileNamesAreSafeAndUniqueForAnyIdentity() throws {
        let context = ObjectContext(model: try Fixtures.sampleModel())
        let names = ["R&D/Ops", "Sales", "sales", ".hidden", "..", "Café", String(repeating: "x", count: 200), "", "a b:c*?"]
        for name in names { try context.insert("Department", values: ["name": name]) }
        let original = try GraphExport().document(of: context)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Odd")
        let written = try GraphExport().writeTemplates(context, to: templates)
        #expect(written.count == names.count + 1)
        #expect(Set(written.map { $0.lowercased() }).count == written.count, "unique even on a case-insensitive file system")
        for path in written where path != "model.json" {
            let components = path.split(separator: "/")
            #expect(components.count == 2 && components[0] == "Department", "\(path)")
            #expect(!components[1].hasPrefix(".") && components[1].utf8.count <= 130, "\(path)")
        }
        let reseeded = directory.appendingPathComponent("odd.sqlite").path
        let report = try Seeder(storePath: reseeded).seed(templates: templates)
        #expect(report.status == .applied, "\(report.issues)")
        #expect(try export(storeAt: reseeded) == original)
    }

    @Test func templateSetOfObjectsWithoutIdentityRoundTrips() throws {
        let context = ObjectContext(model: try Fixtures.graphModel())
        let root = try context.insert("Node", values: ["title": "root", "count": 3])
        let child = try context.insert("SpecialNode", values: ["title": "child", "level": 1])
        try root.add(child, to: "children")
        let loner = try context.insert("Node", values: ["title": "loner"])
        try loner.add(child, to: "likes")
        try root.add(context.insert("Tag", values: ["label": "red"]), to: "tags")
        // Two equal objects without identity: both kept.
        for _ in 0..<2 { try context.insert("Node", values: ["title": "twin"]) }
        let original = try GraphExport().document(of: context)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Graph")
        let written = try GraphExport().writeTemplates(context, to: templates)
        // The loner has no identity, so it is written in full where first met: under the child it likes.
        #expect(written == ["Node/Node-1.template", "Node/Node-2.template", "Node/Node-3.template", "Tag/red.template", "model.json"])
        let reseeded = directory.appendingPathComponent("graph.sqlite").path
        #expect(try Seeder(storePath: reseeded).seed(templates: templates).status == .applied)
        #expect(try export(storeAt: reseeded) == original)
    }

    /// A chain of links, each owning the next: `Link{n}` with identity through a to-one, or `Part{n}` without
    /// identity through an ordered to-many (two levels per link).
    private static func chainContext(length: Int, withIdentity: Bool) throws -> ObjectContext {
        let model = try EntityModel(json: JSONDocument(parsing: """
            {"entities": {
              "Link": {"identity": ["n"], "attributes": {"n": "integer"}, "relationships": {
                "next": {"to": "Link", "owns": true, "inverse": "previous"}, "previous": {"to": "Link", "inverse": "next"}}},
              "Part": {"attributes": {"n": "integer"}, "relationships": {
                "parts": {"to": "Part", "many": true, "ordered": true, "owns": true, "inverse": "whole"},
                "whole": {"to": "Part", "inverse": "parts"}}}
            }}
            """).value)
        let context = ObjectContext(model: model)
        var previous: ManagedObject?
        for n in 0..<length {
            let link = try context.insert(withIdentity ? "Link" : "Part", values: ["n": n])
            if let previous {
                if withIdentity { try previous.setValue(link, forKey: "next") } else { try previous.add(link, to: "parts") }
            }
            previous = link
        }
        return context
    }

    /// An owned chain longer than the nesting limit is written as several top-level objects, each nesting at most
    /// ``GraphExport/nestingLimit`` levels and referenced where it would have nested: the document reads back as
    /// itself, and its template set seeds the same graph.
    @Test(arguments: [true, false])
    func ownedChainsLongerThanTheNestingLimitAreSplitAtIt(withIdentity: Bool) throws {
        let context = try Self.chainContext(length: 300, withIdentity: withIdentity)
        let document = try GraphExport().document(of: context)
        let objects = try self.objects(document)
        let linksPerObject = withIdentity ? GraphExport.nestingLimit - 1 : (GraphExport.nestingLimit - 1) / 2
        #expect(objects.count == (300 + linksPerObject - 1) / linksPerObject)
        #expect(objects.allSatisfy { $0.nestingDepth <= GraphExport.nestingLimit })
        #expect(try JSONDocument(parsing: document).value.nestingDepth <= JSON.maxNestingDepth)
        // The references: an identity stub, or a "$ref" to the "$id" of the object written at the top level.
        let reference = withIdentity ? #"{"class":"Link","n":\#(linksPerObject)}"# : #"[{"$ref":"Part-"#
        #expect(String(decoding: objects[0].serialized(style: .canonical), as: UTF8.self).contains(reference))
        let read = try ExportDocument(bytes: document, file: "chain.json")
        #expect(try !GraphDiff(from: read, to: read).hasDifferences)

        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Chain")
        #expect(try GraphExport().writeTemplates(context, to: templates).count == objects.count + 1)
        let reseeded = directory.appendingPathComponent("chain.sqlite").path
        let report = try Seeder(storePath: reseeded).seed(templates: templates)
        #expect(report.status == .applied, "\(report.issues)")
        #expect(try export(storeAt: reseeded) == document)
    }

    /// A JSON attribute value too deep for any place in a document is refused by name, not written unreadable.
    @Test func aJSONValueTooDeepForAnyDocumentIsRefused() throws {
        let model = try EntityModel(json: JSONDocument(parsing: #"{"entities": {"Doc": {"attributes": {"body": "json"}}}}"#).value)
        let context = ObjectContext(model: model)
        var deep: JSON = 1
        for _ in 0..<GraphExport.objectDepthLimit { deep = [deep] }
        try context.insert("Doc", values: ["body": deep])
        let error = try #require(throws: ExportError.self) { try GraphExport().document(of: context) }
        #expect(error.message == "an object of Doc cannot be exported: its JSON attribute 'body' nests deeper than the 510 levels an exported object may take (512 in all)")
        // One level less fits, at the top level.
        context.rollback()
        try context.insert("Doc", values: ["body": deep.arrayValue![0]])
        let document = try GraphExport().document(of: context)
        #expect(try JSONDocument(parsing: document).value.nestingDepth == JSON.maxNestingDepth)
    }

    /// Documents whose parts own parts and hold JSON values: what the nesting limit counts besides links.
    private static func documentsModel() throws -> EntityModel {
        try EntityModel(json: JSONDocument(parsing: """
            {"entities": {
              "Doc": {"attributes": {"n": "integer", "body": "json"}, "relationships": {
                "parts": {"to": "Doc", "many": true, "ordered": true, "owns": true, "inverse": "whole"},
                "whole": {"to": "Doc", "inverse": "parts"}}}
            }}
            """).value)
    }

    /// An owned object is nested only where its contents fit too: one whose JSON value would take the line past
    /// what a reader accepts is written at the top level, where it fits, and the document reads back.
    @Test func anOwnedObjectWhoseJSONValueWouldNestTooDeepIsWrittenAtTheTopLevel() throws {
        let context = ObjectContext(model: try Self.documentsModel())
        var deep: JSON = 1
        for _ in 1..<GraphExport.objectDepthLimit { deep = [deep] }
        let whole = try context.insert("Doc", values: ["n": 0])
        try whole.add(context.insert("Doc", values: ["n": 1, "body": deep]), to: "parts")
        let document = try GraphExport().document(of: context)
        let objects = try objects(document)
        #expect(objects.count == 2)
        #expect(objects[0]["$id"] == "Doc-1" && objects[0]["parts"] == [["$ref": "Doc-2"]])
        #expect(objects[1]["$id"] == "Doc-2" && objects[1]["whole"] == ["$ref": "Doc-1"])
        #expect(objects[1].nestingDepth == GraphExport.objectDepthLimit)
        let read = try ExportDocument(bytes: document, file: "deep.json")
        #expect(try !GraphDiff(from: read, to: read).hasDifferences)
    }

    /// Top-level objects without identity that differ only in what they nest past the nesting limit are in one
    /// order, whatever order they were inserted in: the objects written at the top level for them break the tie.
    @Test func tiesBeyondTheNestingLimitAreBrokenByEverythingWritten() throws {
        func export(firstLeaf: Int, secondLeaf: Int) throws -> [UInt8] {
            let context = ObjectContext(model: try Self.documentsModel())
            for leaf in [firstLeaf, secondLeaf] {
                var whole = try context.insert("Doc", values: ["n": 0])
                for n in 1..<40 {
                    let part = try context.insert("Doc", values: ["n": n == 39 ? leaf : n])
                    try whole.add(part, to: "parts")
                    whole = part
                }
            }
            return try GraphExport().document(of: context)
        }
        let document = try export(firstLeaf: 1, secondLeaf: 2)
        #expect(try export(firstLeaf: 2, secondLeaf: 1) == document)
        // Each chain is two top-level objects: 31 parts nest within the limit (levels 1, 3, …, 61), the rest follow.
        #expect(try objects(document).count == 4)
    }

    /// An export of a store or of a template set names it in its errors, since the document is in no file.
    @Test func anExportErrorNamesTheStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("deep.sqlite").path
        let context = try SQLiteStore(path: path, model: Self.documentsModel()).newContext()
        var deep: JSON = 1
        for _ in 0..<GraphExport.objectDepthLimit { deep = [deep] }
        try context.insert("Doc", values: ["n": 0, "body": deep])
        try context.save()
        let error = try #require(throws: ExportError.self) { try ExportDocument(storeAt: path) }
        #expect(error.message == "cannot export the store \(path): an object of Doc cannot be exported: its JSON "
            + "attribute 'body' nests deeper than the 510 levels an exported object may take (512 in all)")
    }

    @Test func writeTemplatesRefusesADirectoryThatHoldsFilesOrAFile() throws {
        let context = try Fixtures.sampleCompanyContext()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixtures.write("mine", to: "Busy/notes.txt", in: directory)
        let busy = directory.appendingPathComponent("Busy")
        let error = try #require(throws: ExportError.self) { try GraphExport().writeTemplates(context, to: busy) }
        #expect(error.message.contains("already exists and is not an empty directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: busy.path) == ["notes.txt"])
        #expect(try String(contentsOf: busy.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        try Fixtures.write("a file", to: "plain", in: directory)
        #expect(throws: ExportError.self) { try GraphExport().writeTemplates(context, to: directory.appendingPathComponent("plain")) }
        // An empty directory is fine, and so is one that does not exist yet, below folders that do not either.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Empty"), withIntermediateDirectories: true)
        #expect(try GraphExport().writeTemplates(context, to: directory.appendingPathComponent("Empty")).count == 9)
        #expect(try GraphExport().writeTemplates(context, to: directory.appendingPathComponent("a/b/New")).count == 9)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["Busy", "Empty", "a", "plain"])
    }

    @Test func exportOfAnEmptyStore() throws {
        let path = try Fixtures.temporaryStorePath()
        defer { removeDirectory(ofStore: path) }
        try SQLiteStore(path: path, model: Fixtures.sampleModel()).newContext().save()
        let document = try export(storeAt: path)
        let text = String(decoding: document, as: UTF8.self)
        #expect(text.hasSuffix("\n  },\n  \"objects\": []\n}\n"))
        let read = try ExportDocument(bytes: document)
        #expect(read.objectCount == 0)
        #expect(read.model == (try Fixtures.sampleModel()))
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try GraphExport().writeTemplates(SQLiteStore(existingAt: path).newContext(), to: directory.appendingPathComponent("T"))
            == ["model.json"])
    }
}

/// A random company over the sample model: departments, projects, employees and managers with random links and
/// ordered addresses, insertable in any order.
private struct RandomCompany {
    var departments: [String] = []
    var projects: [String] = []
    /// Email, whether a manager, department index, project indices, addresses (street, city), reports (indices).
    var employees: [(email: String, isManager: Bool, department: Int?, projects: [Int], addresses: [(String, String)], reports: [Int])] = []

    var topLevelCount: Int { departments.count + projects.count + employees.count }

    init(using generator: inout SeededGenerator) {
        departments = (0..<Int.random(in: 1...5, using: &generator)).map { "Dept \($0)" }
        projects = (0..<Int.random(in: 0...8, using: &generator)).map { "P\($0)" }
        let count = Int.random(in: 100...400, using: &generator)
        for index in 0..<count {
            let isManager = Int.random(in: 0..<8, using: &generator) == 0
            employees.append((
                email: "e\(index)@example.com", isManager: isManager,
                department: Bool.random(using: &generator) ? Int.random(in: 0..<departments.count, using: &generator) : nil,
                projects: projects.indices.filter { _ in Int.random(in: 0..<4, using: &generator) == 0 },
                addresses: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    ("\(Int.random(in: 1...99, using: &generator)) Road", ["Bath", "Leeds", "York"].randomElement(using: &generator)!)
                },
                reports: isManager ? (0..<count).filter { _ in Int.random(in: 0..<30, using: &generator) == 0 } : []))
        }
    }

    /// Inserts the company, objects and unordered links in an order the seed shuffles; addresses keep their order.
    func insert(into context: ObjectContext, shuffleSeed: UInt64) throws {
        var generator = SeededGenerator(seed: shuffleSeed)
        var byName: [String: ManagedObject] = [:]
        var inserts: [() throws -> Void] = []
        for name in departments { inserts.append { byName[name] = try context.insert("Department", values: ["name": name]) } }
        for code in projects { inserts.append { byName[code] = try context.insert("Project", values: ["code": code, "title": "Project \(code)"]) } }
        for employee in employees {
            inserts.append {
                var values: [String: Any] = ["name": "Name of \(employee.email)", "email": employee.email]
                if employee.isManager { values["level"] = employee.email.count }
                byName[employee.email] = try context.insert(employee.isManager ? "Manager" : "Employee", values: values)
            }
        }
        for insert in inserts.shuffled(using: &generator) { try insert() }
        var links: [() throws -> Void] = []
        for employee in employees {
            let object = byName[employee.email]!
            if let department = employee.department {
                links.append { try object.setValue(byName[departments[department]]!, forKey: "department") }
            }
            for project in employee.projects { links.append { try byName[projects[project]]!.add(object, to: "members") } }
            for report in employee.reports { links.append { try object.add(byName[employees[report].email]!, to: "reports") } }
            links.append {
                for (street, city) in employee.addresses {
                    try object.add(context.insert("Address", values: ["street": street, "city": city]), to: "addresses")
                }
            }
        }
        for link in links.shuffled(using: &generator) { try link() }
    }
}
