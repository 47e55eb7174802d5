import Foundation
import Testing
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding
@testable import SeedKitExport

/// The seeding pipeline on random graphs written as templates in random shapes: what a seed writes is what the
/// library builds, a re-seed after random template edits is a fresh seed of the new templates, and with the
/// application's edits exactly the properties both changed are kept.
@Suite("Seeding pipeline")
struct SeedPipelineTests {
    /// Every kind of link the pipeline plans: an owned to-one (Badge), an owned ordered to-many (Note), a
    /// many-to-many (friends), a to-one without inverse (mentor), objects without identity met from several places
    /// (Room, through "$id"), and a subentity (Lead).
    static func model() throws -> EntityModel {
        try EntityModel([
            EntityDescription(
                "Team", identity: ["name"],
                attributes: [AttributeDescription("name", .string), AttributeDescription("motto", .string, isOptional: true)],
                relationships: [RelationshipDescription("members", to: "Person", isToMany: true, inverse: "team")]),
            EntityDescription(
                "Person", identity: ["email"],
                attributes: [
                    AttributeDescription("email", .string), AttributeDescription("name", .string),
                    AttributeDescription("age", .integer, isOptional: true), AttributeDescription("score", .double, isOptional: true),
                ],
                relationships: [
                    RelationshipDescription("team", to: "Team", inverse: "members"),
                    RelationshipDescription("badge", to: "Badge", inverse: "holder", owns: true),
                    RelationshipDescription("notes", to: "Note", isToMany: true, isOrdered: true, inverse: "author", owns: true),
                    RelationshipDescription("friends", to: "Person", isToMany: true, inverse: "friendOf"),
                    RelationshipDescription("friendOf", to: "Person", isToMany: true, inverse: "friends"),
                    RelationshipDescription("mentor", to: "Person"),
                    RelationshipDescription("room", to: "Room", inverse: "occupants"),
                ]),
            EntityDescription("Lead", parent: "Person", attributes: [AttributeDescription("level", .integer)]),
            EntityDescription(
                "Badge", attributes: [AttributeDescription("code", .string)],
                relationships: [RelationshipDescription("holder", to: "Person", inverse: "badge")]),
            EntityDescription(
                "Note", attributes: [AttributeDescription("text", .string)],
                relationships: [RelationshipDescription("author", to: "Person", inverse: "notes")]),
            EntityDescription(
                "Room", attributes: [AttributeDescription("label", .string)],
                relationships: [RelationshipDescription("occupants", to: "Person", isToMany: true, inverse: "room")]),
        ])
    }

    /// The model with every template convention that fits it on: snake_case keys (`friend_of`), and the links to
    /// teams and people given by identity; `conventions` false gives ``model()`` itself.
    static func model(conventions: Bool) throws -> EntityModel {
        guard conventions else { return try model() }
        let byIdentity: Set<String> = ["team", "members", "friends", "friendOf", "mentor"]
        return try EntityModel(
            model().declarations.map { declaration in
                var declaration = declaration
                for index in declaration.relationships.indices where byIdentity.contains(declaration.relationships[index].name) {
                    declaration.relationships[index].isByIdentity = true
                }
                return declaration
            },
            keyStyle: .snakeCase)
    }

    /// A graph of the model, described apart from any context; links by identity (emails, team names, room labels).
    struct Graph {
        struct Person {
            var email: String
            var name: String
            var age: Int64?
            var score: Double?
            var level: Int64?
            var team: String?
            var badge: String?
            var notes: [String] = []
            var friends: [String] = []
            var mentor: String?
            var room: String?
        }

        var teams: [String: String?] = [:]
        var people: [Person] = []
        var rooms: [String] = []

        static func random(using generator: inout SeededGenerator) -> Graph {
            var graph = Graph()
            for index in 0..<Int.random(in: 1...3, using: &generator) {
                graph.teams["team \(index)"] = Bool.random(using: &generator) ? "motto \(generator.next() % 100)" : nil
            }
            graph.rooms = (0..<Int.random(in: 0...3, using: &generator)).map { "room \($0)-\(generator.next() % 100)" }
            for index in 0..<Int.random(in: 1...10, using: &generator) {
                graph.people.append(graph.randomPerson(email: "p\(index)@example.com", using: &generator))
            }
            for index in graph.people.indices { graph.randomLinks(of: index, using: &generator) }
            return graph
        }

        func randomPerson(email: String, using generator: inout SeededGenerator) -> Person {
            var person = Person(email: email, name: "Person \(generator.next() % 1000)")
            if Bool.random(using: &generator) { person.age = Int64.random(in: 18...70, using: &generator) }
            if Bool.random(using: &generator) { person.score = Double(Int.random(in: -40...40, using: &generator)) / 4 }
            if Int.random(in: 0..<3, using: &generator) == 0 { person.level = Int64.random(in: 1...5, using: &generator) }
            if Bool.random(using: &generator) { person.team = teams.keys.sorted().randomElement(using: &generator) }
            if Bool.random(using: &generator) { person.badge = "badge \(generator.next() % 100)" }
            person.notes = (0..<Int.random(in: 0...3, using: &generator)).map { "note \($0): \(generator.next() % 100)" }
            if Bool.random(using: &generator) { person.room = rooms.randomElement(using: &generator) }
            return person
        }

        mutating func randomLinks(of index: Int, using generator: inout SeededGenerator) {
            let emails = people.map(\.email)
            people[index].friends = Array(Set((0..<Int.random(in: 0...3, using: &generator)).compactMap { _ in emails.randomElement(using: &generator) })).sorted()
            people[index].mentor = Bool.random(using: &generator) ? emails.randomElement(using: &generator) : nil
        }

        /// Random template edits: attributes, links, removals and additions.
        func edited(using generator: inout SeededGenerator) -> Graph {
            var graph = self
            for index in graph.people.indices where Int.random(in: 0..<3, using: &generator) == 0 {
                switch Int.random(in: 0..<8, using: &generator) {
                case 0: graph.people[index].name += " (renamed)"
                case 1: graph.people[index].age = graph.people[index].age == nil ? 40 : nil
                case 2: graph.people[index].team = graph.teams.keys.sorted().randomElement(using: &generator)
                case 3: graph.people[index].badge = graph.people[index].badge == nil ? "new badge" : (Bool.random(using: &generator) ? nil : "changed badge")
                case 4: graph.people[index].notes = graph.people[index].notes.isEmpty ? ["first note"] : Array(graph.people[index].notes.dropFirst()) + ["added note"]
                case 5: graph.randomLinks(of: index, using: &generator)
                case 6: graph.people[index].room = graph.rooms.randomElement(using: &generator)
                default: graph.people[index].level = graph.people[index].level == nil ? 2 : nil
                }
            }
            if Bool.random(using: &generator), graph.people.count > 1 {
                let removed = graph.people.remove(at: Int.random(in: 0..<graph.people.count, using: &generator)).email
                for index in graph.people.indices {
                    graph.people[index].friends.removeAll { $0 == removed }
                    if graph.people[index].mentor == removed { graph.people[index].mentor = nil }
                }
            }
            if Bool.random(using: &generator) {
                graph.people.append(graph.randomPerson(email: "new\(generator.next() % 1000)@example.com", using: &generator))
                graph.randomLinks(of: graph.people.count - 1, using: &generator)
            }
            if let team = graph.teams.keys.sorted().randomElement(using: &generator), Bool.random(using: &generator) {
                graph.teams[team] = "changed motto"
            }
            return graph
        }

        /// Builds the graph through the library.
        func build(in context: ObjectContext) throws {
            var teamObjects: [String: ManagedObject] = [:]
            for (name, motto) in teams.sorted(by: { $0.key < $1.key }) {
                teamObjects[name] = try context.insert("Team", values: ["name": name, "motto": motto as Any])
            }
            var roomObjects: [String: ManagedObject] = [:]
            for label in rooms { roomObjects[label] = try context.insert("Room", values: ["label": label]) }
            var personObjects: [String: ManagedObject] = [:]
            for person in people {
                var values: [String: Any] = ["email": person.email, "name": person.name]
                if let age = person.age { values["age"] = age }
                if let score = person.score { values["score"] = score }
                if let level = person.level { values["level"] = level }
                let object = try context.insert(person.level == nil ? "Person" : "Lead", values: values)
                personObjects[person.email] = object
                if let team = person.team { try object.setValue(teamObjects[team]!, forKey: "team") }
                if let code = person.badge { try object.setValue(try context.insert("Badge", values: ["code": code]), forKey: "badge") }
                for text in person.notes { try object.add(try context.insert("Note", values: ["text": text]), to: "notes") }
                if let room = person.room { try object.setValue(roomObjects[room]!, forKey: "room") }
            }
            for person in people {
                let object = personObjects[person.email]!
                for friend in person.friends { try object.add(personObjects[friend]!, to: "friends") }
                if let mentor = person.mentor { try object.setValue(personObjects[mentor]!, forKey: "mentor") }
            }
        }

        /// The export of the graph as the library builds it.
        func export(model: EntityModel) throws -> [UInt8] {
            let context = ObjectContext(model: model)
            try build(in: context)
            return try GraphExport().document(of: context)
        }
    }

    /// How a graph is written as templates.
    enum Shape: CaseIterable {
        /// As an export writes it: owned objects and objects without identity nested, the rest named by identity.
        case export
        /// Every object at the top level, links by identity stub or "$ref" (``GraphEncoder/encodeFlat(_:)``).
        case flat
        /// Every object nested where first met.
        case nested
    }

    /// Writes the graph as templates of `shape`, its objects split at random across files, and the model.
    static func writeTemplates(
        _ graph: Graph, shape: Shape, model: EntityModel, to directory: URL, using generator: inout SeededGenerator
    ) throws {
        let context = ObjectContext(model: model)
        try graph.build(in: context)
        var objects: [JSON]
        switch shape {
        case .export:
            objects = try GraphExport().lines(of: context, templateForm: true).map { try JSONDocument(parsing: $0).value }
        case .flat, .nested:
            let roots = try ["Team", "Person", "Room"].flatMap { try context.fetch($0) }
            objects = shape == .flat ? GraphEncoder().encodeFlat(roots) : GraphEncoder(options: GraphEncodingOptions(nesting: .all)).encode(roots)
        }
        if shape != .export { objects.shuffle(using: &generator) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try model.write(to: directory.appendingPathComponent("model.json"))
        var file = 0
        while !objects.isEmpty {
            let count = min(objects.count, Int.random(in: 1...4, using: &generator))
            let chunk = objects.prefix(count)
            objects.removeFirst(count)
            let json: JSON = chunk.count == 1 && Bool.random(using: &generator) ? chunk.first! : .array(Array(chunk))
            try Data(json.serialized(style: .pretty)).write(to: directory.appendingPathComponent("part-\(file).template"))
            file += 1
        }
    }

    private static func export(_ path: String) throws -> [UInt8] {
        try GraphExport().document(of: SQLiteStore(existingAt: path))
    }

    /// What tells the store's export from the expected one, as `seed diff` says it.
    private static func difference(_ path: String, _ expected: [UInt8]) -> String {
        guard let store = try? ExportDocument(bytes: export(path)), let wanted = try? ExportDocument(bytes: expected),
            let diff = try? GraphDiff(from: wanted, to: store)
        else { return "" }
        return diff.text()
    }

    @Test(arguments: [false, true])
    func seedsWhatTheLibraryBuildsWhateverTheShape(conventions: Bool) throws {
        let model = try Self.model(conventions: conventions)
        var generator = SeededGenerator(seed: 0x91_9E11)
        for round in 0..<24 {
            let graph = Graph.random(using: &generator)
            let shape = Shape.allCases[round % Shape.allCases.count]
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let templates = directory.appendingPathComponent("Templates")
            try Self.writeTemplates(graph, shape: shape, model: model, to: templates, using: &generator)
            let path = directory.appendingPathComponent("seed.sqlite").path
            if conventions, shape == .flat, let person = graph.people.first(where: { $0.mentor != nil }) {
                // Written as the model says, so read as it says.
                let texts = try FileManager.default.contentsOfDirectory(atPath: templates.path)
                    .map { try String(contentsOf: templates.appendingPathComponent($0), encoding: .utf8) }
                #expect(texts.contains { $0.contains(#""mentor": "\#(person.mentor!)""#) })
            }
            let report = try Seeder(storePath: path).seed(templates: templates)
            #expect(report.status == .applied, "round \(round) \(shape): \(report.issues)")
            #expect(try Self.export(path) == (try graph.export(model: model)), "round \(round) \(shape)")
            #expect(try Seeder(storePath: path).seed(templates: templates).status == .unchanged, "round \(round)")
        }
    }

    /// After random template edits, a re-seed (pruning what the templates dropped) leaves the store as a fresh seed of
    /// the new templates would, whatever shape either set is written in.
    @Test(arguments: [false, true])
    func aReseedAfterTemplateEditsIsAFreshSeed(conventions: Bool) throws {
        let model = try Self.model(conventions: conventions)
        var generator = SeededGenerator(seed: 0x2E_5EED)
        for round in 0..<24 {
            let before = Graph.random(using: &generator)
            let after = before.edited(using: &generator)
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let old = directory.appendingPathComponent("Old"), new = directory.appendingPathComponent("New")
            try Self.writeTemplates(before, shape: Shape.allCases.randomElement(using: &generator)!, model: model, to: old, using: &generator)
            try Self.writeTemplates(after, shape: Shape.allCases.randomElement(using: &generator)!, model: model, to: new, using: &generator)
            let path = directory.appendingPathComponent("seed.sqlite").path
            #expect(try Seeder(storePath: path).seed(templates: old).status == .applied)
            let report = try Seeder(storePath: path).seed(templates: new, options: SeedOptions(prune: true))
            #expect(report.status == .applied && report.conflicts.isEmpty && report.keptObjects.isEmpty, "round \(round): \(report.conflicts)")
            let expected = try after.export(model: model)
            #expect(try Self.export(path) == expected, "round \(round): \(Self.difference(path, expected))")
            #expect(try Seeder(storePath: path).seed(templates: new, options: SeedOptions(prune: true)).entities.values.allSatisfy {
                $0.inserted == 0 && $0.updated == 0 && $0.deleted == 0
            }, "round \(round): a second re-seed finds nothing to do")
        }
    }

    /// A later launch reads only the files changed since the last and carries the others' objects over from the
    /// ledger: after random template edits (files unchanged, changed, added and removed, objects moving between
    /// them), the store and the report are what reading every file makes of them.
    @Test func readingOnlyTheChangedFilesIsReadingEveryFile() throws {
        let model = try Self.model()
        var generator = SeededGenerator(seed: 0x1A7E_13)
        var partialReads = 0
        for round in 0..<40 {
            let before = Graph.random(using: &generator)
            let after = before.edited(using: &generator)
            let shape = Shape.allCases.randomElement(using: &generator)!
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let templates = directory.appendingPathComponent("Templates")
            // Split alike, the files before the first edit are the same.
            var split = generator
            try Self.writeTemplates(before, shape: shape, model: model, to: templates, using: &split)
            let path = directory.appendingPathComponent("seed.sqlite").path
            let everyFilePath = directory.appendingPathComponent("every-file.sqlite").path
            #expect(try Seeder(storePath: path).seed(templates: templates).status == .applied)
            try FileManager.default.removeItem(at: templates)
            split = generator
            try Self.writeTemplates(after, shape: shape, model: model, to: templates, using: &split)
            _ = generator.next()
            try FileManager.default.copyItem(atPath: path, toPath: everyFilePath)
            let report = try Seeder(storePath: path).seed(templates: templates)
            var everyFile = SeedOptions()
            everyFile.readsOnlyChangedFiles = false
            let expected = try Seeder(storePath: everyFilePath).seed(templates: templates, options: everyFile)
            #expect(report.status == expected.status && report.issues.isEmpty, "round \(round): \(report.issues)")
            #expect(report.entities == expected.entities, "round \(round)")
            #expect(report.removedFromTemplates == expected.removedFromTemplates, "round \(round)")
            #expect(report.keptObjects == expected.keptObjects && report.conflicts == expected.conflicts, "round \(round)")
            let export = try Self.export(everyFilePath)
            #expect(try Self.export(path) == export, "round \(round): \(Self.difference(path, export))")
            if report.readFileCount < report.fileCount { partialReads += 1 }
        }
        #expect(partialReads >= 4, "only \(partialReads) of 40 launches read the changed files alone")
    }

    /// With the application's edits between the seeds, a property both the application and the templates changed is
    /// a conflict, kept as the application left it; a property only the application changed keeps its value; a
    /// property only the templates changed takes theirs.
    @Test func exactlyThePropertiesBothChangedAreKept() throws {
        let model = try Self.model()
        var generator = SeededGenerator(seed: 0xC0_F11C7)
        for round in 0..<24 {
            let before = Graph.random(using: &generator)
            let after = before.edited(using: &generator)
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let old = directory.appendingPathComponent("Old"), new = directory.appendingPathComponent("New")
            try Self.writeTemplates(before, shape: .export, model: model, to: old, using: &generator)
            let path = directory.appendingPathComponent("seed.sqlite").path
            #expect(try Seeder(storePath: path).seed(templates: old).status == .applied)

            // The application edits names and ages of people both sets hold.
            var conflicts: Set<String> = []
            var edited = after
            let store = try SQLiteStore(path: path, model: model)
            let context = store.newContext()
            for person in before.people where Bool.random(using: &generator) {
                guard let index = after.people.firstIndex(where: { $0.email == person.email }),
                    let object = context.object("Person", identity: ["email": person.email])
                else { continue }
                let name = "edited by the app \(generator.next() % 10)"
                try object.setValue(name, forKey: "name")
                edited.people[index].name = name
                if after.people[index].name != person.name && after.people[index].name != name {
                    conflicts.insert("Person[email=\(person.email)].name")
                }
                if Bool.random(using: &generator) {
                    try object.setValue(Int64(99), forKey: "age")
                    edited.people[index].age = 99
                    if after.people[index].age != person.age && after.people[index].age != 99 {
                        conflicts.insert("Person[email=\(person.email)].age")
                    }
                }
            }
            try context.save()
            try Self.writeTemplates(after, shape: Shape.allCases.randomElement(using: &generator)!, model: model, to: new, using: &generator)
            let report = try Seeder(storePath: path).seed(templates: new, options: SeedOptions(prune: true))
            #expect(report.status == .applied, "round \(round)")
            #expect(Set(report.conflicts.map { "\($0.object).\($0.property)" }) == conflicts, "round \(round)")
            let expected = try edited.export(model: model)
            #expect(try Self.export(path) == expected, "round \(round): \(Self.difference(path, expected))")
        }
    }
}
