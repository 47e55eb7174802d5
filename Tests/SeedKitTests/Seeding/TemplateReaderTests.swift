import Foundation
import Testing
import SeedKit
@testable import SeedKitSeeding

/// The read stage: what each key of a template object is, worked out once per key layout and entity and kept across
/// objects and files (``TemplateReader``), must be that object's own.
@Suite("TemplateReader")
struct TemplateReaderTests {
    /// Two classes whose attributes sort differently (`name` is A's second attribute and B's first), and a parent
    /// with a subentity, under one relationship.
    private static let model = """
        {
          "entities": {
            "A": { "identity": ["name"], "attributes": { "a": "string?", "name": "string" } },
            "B": { "identity": ["name"], "attributes": { "name": "string", "z": "string?" } },
            "Holder": {
              "identity": ["name"], "attributes": { "name": "string" },
              "relationships": { "items": { "to": "A", "many": true } }
            },
            "SubA": { "parent": "A", "attributes": { "extra": "string?" } }
          }
        }
        """

    /// Seeds `files` (path → text) into a new store: the report, and the store when the set was applied.
    private func seed(_ files: [String: String]) throws -> (report: SeedReport, store: SQLiteStore?, directory: URL) {
        let directory = try Fixtures.temporaryDirectory()
        try Fixtures.write(Self.model, to: "Templates/model.json", in: directory)
        for (path, text) in files { try Fixtures.write(text, to: "Templates/\(path)", in: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        let report = try Seeder(storePath: path).seed(templates: directory.appendingPathComponent("Templates"))
        guard report.status == .applied else { return (report, nil, directory) }
        let model = try EntityModel(contentsOf: directory.appendingPathComponent("Templates/model.json"))
        return (report, try SQLiteStore(path: path, model: model), directory)
    }

    /// Objects of two classes with the same keys in the same order, alternating within files and across them, each
    /// get their own entity's attributes.
    @Test func objectsOfClassesWithTheSameKeysGetTheirOwnAttributes() throws {
        let file = { (index: Int) in
            (0..<3).map { #"{"class": "A", "name": "a\#(index)-\#($0)"}, {"class": "B", "name": "b\#(index)-\#($0)"}"# }
                .joined(separator: ", ")
        }
        let (report, store, directory) = try seed(["1.template": "[\(file(1))]", "2.template": "[\(file(2))]"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(report.issues.isEmpty, "\(report.issues)")
        let context = try #require(store).newContext()
        #expect(try context.fetch("A").map { try $0.value(forKey: "name") as! String }.sorted()
            == ["a1-0", "a1-1", "a1-2", "a2-0", "a2-1", "a2-2"])
        #expect(try context.fetch("A").allSatisfy { try $0.value(forKey: "a") == nil })
        #expect(try context.fetch("B").map { try $0.value(forKey: "name") as! String }.sorted()
            == ["b1-0", "b1-1", "b1-2", "b2-0", "b2-1", "b2-2"])
        #expect(try context.fetch("B").allSatisfy { try $0.value(forKey: "z") == nil })
    }

    /// More key layouts than the reader compares before it hashes, taken in turn: each object still has its values.
    @Test func manyLayoutsInTurnKeepTheirValues() throws {
        let keys = ["name", "a", "extra"]
        let orders = [[0, 1], [1, 0], [0, 2], [2, 0], [0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        var objects: [String] = []
        for round in 0..<3 {
            for (index, order) in orders.enumerated() {
                let name = "n\(round)-\(index)"
                let members = order.map { position -> String in
                    let key = keys[position]
                    return #""\#(key)": "\#(key == "name" ? name : "\(key) of \(name)")""#
                }
                objects.append(#"{"class": "SubA", \#(members.joined(separator: ", "))}"#)
            }
        }
        let (report, store, directory) = try seed(["all.template": "[\(objects.joined(separator: ",\n"))]"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(report.issues.isEmpty, "\(report.issues)")
        let context = try #require(store).newContext()
        for round in 0..<3 {
            for (index, order) in orders.enumerated() {
                let name = "n\(round)-\(index)"
                let object = try #require(context.object("SubA", identity: ["name": name]))
                #expect(try object.value(forKey: "a") as? String == (order.contains(1) ? "a of \(name)" : nil))
                #expect(try object.value(forKey: "extra") as? String == (order.contains(2) ? "extra of \(name)" : nil))
            }
        }
    }

    /// A nested object of a class met just before, at the top, is still checked against what its relationship takes.
    @Test func aRecentClassIsStillCheckedAgainstTheRelationship() throws {
        let (report, store, directory) = try seed([
            "h.template": #"[{"class": "B", "name": "b"}, {"class": "Holder", "name": "h", "items": [{"class": "A", "name": "a", "a": "x"}, {"class": "B", "name": "c"}]}]"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(store == nil)
        #expect(report.issues.map { $0.description.components(separatedBy: "Templates/").last! } == [
            "h.template:1:123: /1/items/1/class: class 'B' is not a kind of A; valid classes for a A: A, SubA",
        ])
    }

    /// A syntax error after objects of the array already made into records, one with a problem, is the file's only
    /// issue, as when a file was read whole before its objects.
    @Test func aSyntaxErrorAfterElementsIsTheFilesOnlyIssue() throws {
        let (report, store, directory) = try seed([
            "s.template": #"[{"class": "A", "name": "a", "unknown": 1}, {"class": "B", "name": "b"} {"class": "A", "name": "c"}]"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(store == nil)
        #expect(report.issues.map { $0.description.components(separatedBy: "Templates/").last! } == [
            "s.template:1:73: expected ',' or ']' after array element, found '{'",
        ])
    }

    /// An array longer than the reader reads before it gives the file's records room for the whole, whose later
    /// objects make more records per byte than its first: every object is read.
    @Test func aLargeArrayGrowingDenserIsReadWhole() throws {
        var objects = (0..<1_000).map { #"{"class": "A", "name": "a\#($0)", "a": "\#(String(repeating: "x", count: 200))"}"# }
        for index in 0..<500 {
            let items = (0..<10).map { #"{"class": "SubA", "name": "s\#(index)-\#($0)", "extra": "e"}"# }
            objects.append(#"{"class": "Holder", "name": "h\#(index)", "items": [\#(items.joined(separator: ", "))]}"#)
        }
        let (report, store, directory) = try seed(["large.template": "[\n\(objects.joined(separator: ",\n"))\n]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(report.issues.isEmpty, "\(report.issues)")
        let context = try #require(store).newContext()
        #expect(try context.fetch("Holder").count == 500)
        #expect(try context.fetch("SubA").map { try $0.value(forKey: "name") as! String }.sorted()
            == (0..<500).flatMap { index in (0..<10).map { "s\(index)-\($0)" } }.sorted())
        let last = try #require(context.object("A", identity: ["name": "a999"]))
        #expect(try last.value(forKey: "a") as? String == String(repeating: "x", count: 200))
    }
}
