import Foundation
import Testing
import SeedKit
import SeedKitSupport
@testable import SeedKitJSON
@testable import SeedKitSQLite
@testable import SeedKitModel
@testable import SeedKitStore
@testable import SeedKitSeeding

/// Flat template sets read straight into rows: the same store and ledger as decoding, or no rows at all.
@Suite("Seed rows")
struct SeedRowsTests {
    /// Inserting the rows of a flat set must write exactly what decoding the set and saving its context writes:
    /// every column of every row, row ids included, the ledger and the counts.
    @Test(arguments: [1, 2, 3])
    func flatSetsInsertWhatADecodedSetSaves(batch: UInt64) throws {
        let model = try Fixtures.flatModel()
        var generator = SeededGenerator(seed: 0xF1A7_0000 + batch)
        for round in 0..<60 {
            let files = FlatSetSpec.random(using: &generator).files
            let rows = try #require(SeedRows(reading: files, model: model), "batch \(batch) round \(round)")
            let fromRows = try SQLiteStore.inMemory(model: model)
            let inserted = try fromRows.connection.inTransaction(.immediate) {
                let insertion = try SeedInsertion(inserting: rows, into: fromRows)
                try insertion.ledger.write(to: fromRows.connection)
                return insertion
            }
            let decoded = try SQLiteStore.inMemory(model: model)
            let saved = try decoded.connection.inTransaction(.immediate) {
                let templates = try Self.decode(files, model: model)
                return try withExtendedLifetime(templates) { try SeedInsertion(saving: templates, to: decoded) }
            }
            // The rows' entries are packed as the rows are written: read back, they are the decoded set's.
            #expect(try SeedLedger.read(from: fromRows.connection).objects == saved.ledger.objects, "batch \(batch) round \(round)")
            #expect(inserted.counts == saved.counts, "batch \(batch) round \(round)")
            #expect(try Self.tables(of: fromRows) == Self.tables(of: decoded), "batch \(batch) round \(round)")
            // The ledger's tables, which only the rows' store has, aside.
            let rowsIndexes = try SeederTests.indexes(of: fromRows).filter { !$0.contains("_seedkit_seed") }
            #expect(try rowsIndexes == SeederTests.indexes(of: decoded), "batch \(batch) round \(round)")
        }
    }

    /// An object that leaves out a required attribute with no default is a problem the decoder reports, so a flat
    /// reading gives no rows; one that leaves out optional attributes, or those with a default, reads as decoding
    /// saves it.
    @Test func aRequiredAttributeLeftOutGivesNoRows() throws {
        let model = try EntityModel([
            EntityDescription(
                "Book", identity: ["isbn"],
                attributes: [
                    AttributeDescription("isbn", .string), AttributeDescription("title", .string),
                    AttributeDescription("note", .string, isOptional: true),
                    AttributeDescription("pages", .integer, defaultValue: .integer(1)),
                ]),
        ])
        func file(_ text: String) -> [TemplateSet.File] {
            [TemplateSet.File(relativePath: "b.template", displayPath: "b.template", bytes: Array(text.utf8), hash: StableHash.hex(of: Array(text.utf8)))]
        }
        let missing = file(#"[{"class": "Book", "isbn": "1", "title": "One"}, {"class": "Book", "isbn": "2"}]"#)
        #expect(SeedRows(reading: missing, model: model) == nil)
        #expect(throws: (any Error).self) { _ = try Self.decode(missing, model: model) }

        let complete = file(#"[{"class": "Book", "isbn": "1", "title": "One"}, {"class": "Book", "isbn": "2", "title": "Two", "pages": 5}]"#)
        let rows = try #require(SeedRows(reading: complete, model: model))
        let names = try #require(model.entity(named: "Book")).attributes.map(\.name)
        let values = rows.rows.map { row in Dictionary(uniqueKeysWithValues: zip(names, row.values).compactMap { name, value in value.map { (name, $0) } }) }
        // "note" is unset: nil, and left out here.
        #expect(values == [
            ["isbn": .string("1"), "title": .string("One"), "pages": .integer(1)],
            ["isbn": .string("2"), "title": .string("Two"), "pages": .integer(5)],
        ])
    }

    /// Numbering gives each key the next row id of its root table at its first mention, stated or referenced, and
    /// resolves every reference to it, however many keys there are: checked against a plain dictionary over 20,000
    /// keys in files of growing size, from a table reserved far too small, so that it grows many times.
    @Test func numberingMatchesADictionaryThroughManyGrowths() throws {
        let model = try Fixtures.flatModel()
        let group = try #require(model.entity(named: "Group")), item = try #require(model.entity(named: "Item"))
        let special = try #require(model.entity(named: "SpecialItem"))
        let groupRelationship = try #require(item.relationshipIndex(named: "group"))
        var generator = SeededGenerator(seed: 0x0DD5)
        var numbering = SeedRows.Numbering()
        numbering.reserveCapacity(8)
        // The oracle: row ids by first mention, per root table.
        var expected: [String: Int64] = [:]
        var next: [String: Int64] = [:]
        var stated: Set<String> = []
        var order: [String] = []
        func id(_ key: String, root: String) -> Int64 {
            if let id = expected[key] { return id }
            let id = next[root, default: 1]
            next[root] = id + 1
            expected[key] = id
            order.append(key)
            return id
        }
        var statedCount = 0
        var rowIndexOfKey: [String: Int] = [:]
        for file in 0..<40 {
            var rows: [SeedRows.Row] = []
            for _ in 0..<(file * 25) {
                let code = Int.random(in: 0..<20_000, using: &generator)
                let itemKey = "Item[\(code)]"
                guard !stated.contains(itemKey) else { continue }
                stated.insert(itemKey)
                let groupKey = "Group[\"g\(Int.random(in: 0..<500, using: &generator))\"]"
                rows.append(SeedRows.Row(
                    entity: code % 3 == 0 ? special : item, key: Prehashed(itemKey), values: [],
                    targets: [SeedRows.Target(relationship: groupRelationship, key: Prehashed(groupKey), entity: group)]))
            }
            // The groups are stated only after every item: each reference to a group goes forward.
            var expectedIDs: [(Int64, Int64)] = []
            for row in rows {
                let rowID = id(row.key.value, root: "Item")
                rowIndexOfKey[row.key.value] = statedCount + expectedIDs.count
                expectedIDs.append((rowID, id(row.targets[0].key!.value, root: "Group")))
            }
            let added = numbering.add(&rows)
            #expect(added, "file \(file)")
            let rowIDs = rows.map(\.rowID), targetIDs = rows.map { row in row.targets[0].rowID }
            #expect(rowIDs == expectedIDs.map(\.0), "file \(file)")
            #expect(targetIDs == expectedIDs.map(\.1), "file \(file)")
            statedCount += rows.count
        }
        var groups: [SeedRows.Row] = []
        for key in order where key.hasPrefix("Group") {
            groups.append(SeedRows.Row(entity: group, key: Prehashed(key), values: [], targets: []))
            rowIndexOfKey[key] = statedCount + groups.count - 1
        }
        let groupsAdded = numbering.add(&groups)
        #expect(groupsAdded)
        let groupIDs = groups.map(\.rowID), expectedGroupIDs = groups.map { row in expected[row.key.value]! }
        #expect(groupIDs == expectedGroupIDs)
        let numbered = try #require(numbering.finish())
        #expect(numbered.order == order.map { rowIndexOfKey[$0]! })
        #expect(numbered.refersForward)
        let specials = stated.filter { Int($0.dropFirst(5).dropLast())! % 3 == 0 }.count
        #expect(numbered.counts["SpecialItem"]?.inserted == specials)
        #expect(numbered.counts["Item"]?.inserted == stated.count - specials)
        #expect(numbered.counts["Group"]?.inserted == groups.count)
    }

    /// Whatever a flat reading cannot settle alone gives no rows, so that the seeder decodes the set: each change
    /// below, made to a flat set, is either a problem the decoder reports or a set that is not flat.
    @Test(arguments: NotFlat.allCases)
    func setsThatAreNotFlatGiveNoRows(change: NotFlat) throws {
        let model = try Fixtures.flatModel()
        var generator = SeededGenerator(seed: 0x0F1A_7000)
        var changed = 0
        for _ in 0..<40 {
            var spec = FlatSetSpec.random(using: &generator)
            guard change.apply(to: &spec) else { continue }
            var files = spec.files
            if change == .syntaxError { files[files.count - 1].bytes.removeLast() }
            changed += 1
            #expect(SeedRows(reading: files, model: model) == nil, "\(change): \(spec.objects)")
        }
        #expect(changed > 0)
    }

    /// Ways to make a flat set something else.
    enum NotFlat: CaseIterable {
        case syntaxError, unknownClass, unknownKey, identifierKey, wrongType, nullForRequired, missingIdentity
        case statedTwice, referencedOnly, toManyKey, nestedObject, stubMoreSpecificThanDefinition, oneToOne
        case orderedInverse

        /// Makes the change; false when the set has no object it applies to.
        func apply(to spec: inout FlatSetSpec) -> Bool {
            let groups = spec.objects.indices.filter { spec.objects[$0]["class"] == "Group" }
            let items = spec.objects.indices.filter { ["Item", "SpecialItem"].contains(spec.objects[$0]["class"]) }
            let group = groups[0]
            switch self {
            case .syntaxError:
                break
            case .unknownClass:
                spec.objects[group]["class"] = "Gadget"
            case .unknownKey:
                spec.objects[group]["colour"] = "red"
            case .identifierKey:
                spec.objects[group]["$id"] = "first"
            case .wrongType:
                spec.objects[group]["rank"] = "seven"
            case .nullForRequired:
                spec.objects[group]["rank"] = .null
            case .missingIdentity:
                spec.objects[group]["name"] = nil
            case .statedTwice:
                spec.objects.append(spec.objects[group])
                spec.fileSizes[spec.fileSizes.count - 1] += 1
            case .referencedOnly:
                spec.objects[group]["parent"] = ["name": "nowhere"]
            case .toManyKey:
                spec.objects[group]["items"] = []
            case .nestedObject:
                spec.objects[group]["parent"] = ["name": spec.objects[group]["name"]!, "title": "stated inside"]
            case .stubMoreSpecificThanDefinition:
                // The decoder would make the plain item a SpecialItem.
                guard let plain = items.first(where: { spec.objects[$0]["class"] == "Item" }) else { return false }
                spec.objects[group]["featured"] = ["class": "SpecialItem", "code": spec.objects[plain]["code"]!]
            case .oneToOne:
                guard items.count >= 2 else { return false }
                spec.objects[items[0]]["partner"] = ["class": spec.objects[items[1]]["class"]!, "code": spec.objects[items[1]]["code"]!]
            case .orderedInverse:
                guard let item = items.first else { return false }
                spec.objects.append(["class": "Shelf", "code": "s1"])
                spec.fileSizes[spec.fileSizes.count - 1] += 1
                spec.objects[item]["shelf"] = ["code": "s1"]
            }
            return true
        }
    }

    /// The files decoded into a context of their own, as a seed decodes them.
    static func decode(_ files: [TemplateSet.File], model: EntityModel) throws -> ObjectContext {
        let context = ObjectContext(model: model)
        var decoder = GraphDecoder(context: context)
        for file in files { decoder.add(bytes: file.bytes, file: file.displayPath) }
        try decoder.decode()
        #expect(context.validationErrors().isEmpty)
        return context
    }

    /// Every row of every entity table, by table, in row id order.
    static func tables(of store: SQLiteStore) throws -> [String: [[SQLiteValue]]] {
        var tables: [String: [[SQLiteValue]]] = [:]
        for table in store.schema.tables.values {
            let statement = try store.connection.prepare(sql: "SELECT * FROM \(table.quoted) ORDER BY \"_id\"")
            var rows: [[SQLiteValue]] = []
            while try statement.step() { rows.append((0..<statement.columnCount).map(statement.value(at:))) }
            tables[table.name] = rows
        }
        return tables
    }
}
