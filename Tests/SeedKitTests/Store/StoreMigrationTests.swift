import Foundation
import Testing
import SeedKit

/// Lightweight migration, checked on every backend: one ``SchemaMigration`` decides what a changed model does to a
/// store, and SQLite and PostgreSQL each run it in their own DDL with the same outcome.
@Suite("Stores: lightweight migration on each backend")
struct StoreMigrationTests {
    private static let seen = Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789)

    /// Owner, and Item (identity `code`) with `attributes` and a to-one `owner`, renamed as given.
    private static func model(
        _ attributes: [AttributeDescription], item: String = "Item", aliases: [String] = [],
        owner: RelationshipDescription = RelationshipDescription("owner", to: "Owner"), extra: [EntityDescription] = []
    ) throws -> EntityModel {
        try EntityModel(
            [
                EntityDescription("Owner", identity: ["name"], attributes: [AttributeDescription("name", .string)]),
                EntityDescription(
                    item, identity: ["code"], attributes: [AttributeDescription("code", .string)] + attributes,
                    relationships: [owner], aliases: aliases),
            ] + extra)
    }

    private static let firstModel: [AttributeDescription] = [
        AttributeDescription("label", .string, isOptional: true), AttributeDescription("seen", .date, isOptional: true),
    ]

    /// Storage holding Item `a` (label "first", seen, owned by Ann) and Item `b` (nothing else) of `model`.
    private static func storage(_ backend: StoreBackend, holding model: EntityModel) throws -> StoreStorage {
        let storage = try backend.makeStorage()
        let context = try storage.newContext(model)
        let ann = try context.insert("Owner", values: ["name": "Ann"])
        let item = try context.insert("Item", values: ["code": "a", "label": "first", "seen": seen])
        try item.setValue(ann, forKey: "owner")
        try context.insert("Item", values: ["code": "b"])
        try context.save()
        return storage
    }

    @Test(arguments: StoreBackend.available)
    func addsEntitiesAttributesAndJoinTablesWithDefaults(_ backend: StoreBackend) throws {
        let storage = try Self.storage(backend, holding: try Self.model(Self.firstModel))
        let later = Timestamp(seconds: 1_800_000_000, nanoseconds: 7)
        let newer = try Self.model(
            Self.firstModel + [
                AttributeDescription("note", .string, isOptional: true),
                AttributeDescription("count", .integer, defaultValue: .integer(7)),
                AttributeDescription("due", .date, defaultValue: .date(later)),
            ],
            extra: [
                EntityDescription(
                    "Tag", identity: ["title"], attributes: [AttributeDescription("title", .string)],
                    relationships: [RelationshipDescription("items", to: "Item", isToMany: true)]),
            ])
        do {
            let context = try storage.newContext(newer)
            let item = try #require(context.object("Item", identity: ["code": "a"]))
            #expect(try item.value(forKey: "count") as? Int64 == 7)
            #expect(item.attributeValue(at: newer.entity(named: "Item")!.attributeIndex(named: "due")!) == .date(later))
            #expect(try item.value(forKey: "note") == nil)
            #expect(try item.value(forKey: "label") as? String == "first")
            let tag = try context.insert("Tag", values: ["title": "new"])
            try tag.setValue([item], forKey: "items")
            try context.save()
        }
        let context = try storage.newContext(newer)
        let tag = try #require(context.object("Tag", identity: ["title": "new"]))
        #expect(try (tag.value(forKey: "items") as? [ManagedObject])?.map { try $0.value(forKey: "code") as? String } == ["a"])
        // The new join table comes with its index of targets, as a new store's does.
        #expect(try storage.indexNames() == ["Item_identity", "Item_owner", "Owner_identity", "Tag_identity", "Tag_items_target"])
    }

    @Test(arguments: StoreBackend.available) func renamesThroughAliases(_ backend: StoreBackend) throws {
        let special = EntityDescription("Special", parent: "Item")
        let storage = try Self.storage(backend, holding: try Self.model(Self.firstModel, extra: [special]))
        do {
            let context = try storage.newContext(try Self.model(Self.firstModel, extra: [special]))
            try context.insert("Special", values: ["code": "s"])
            try context.save()
        }
        let renamed = try Self.model(
            [
                AttributeDescription("title", .string, isOptional: true, aliases: ["label"]),
                AttributeDescription("spotted", .date, isOptional: true, aliases: ["seen"]),
            ],
            item: "Thing", aliases: ["Item"], owner: RelationshipDescription("keeper", to: "Owner", aliases: ["owner"]),
            extra: [EntityDescription("Rare", parent: "Thing", aliases: ["Special"])])
        let context = try storage.newContext(renamed)
        let thing = try #require(context.object("Thing", identity: ["code": "a"]))
        #expect(try thing.value(forKey: "title") as? String == "first")
        #expect(thing.attributeValue(at: renamed.entity(named: "Thing")!.attributeIndex(named: "spotted")!) == .date(Self.seen))
        #expect(try (thing.value(forKey: "keeper") as? ManagedObject)?.value(forKey: "name") as? String == "Ann")
        // Rows are named after their entity's new name: a fetch of the subentity alone finds its row.
        #expect(try context.fetch(FetchRequest("Rare", includesSubentities: false)).map { try $0.value(forKey: "code") as? String } == ["s"])
        #expect(try storage.strings(sql: #"SELECT DISTINCT "_entity" FROM "Thing""#).sorted() == ["Rare", "Thing"])
        // The indexes are named after the new names, none left under the old, and the identity is still unique.
        #expect(try storage.indexNames() == ["Owner_identity", "Thing_identity", "Thing_keeper"])
        #expect {
            try storage.execute(sql: #"INSERT INTO "Thing" ("_id", "_entity", "code") VALUES (99, 'Thing', 'a')"#)
        } throws: { storage.isDuplicateIdentity($0) }
        let keeper = try #require(context.object("Owner", identity: ["name": "Ann"]))
        let new = try context.insert("Thing", values: ["code": "c"])
        try new.setValue(keeper, forKey: "keeper")
        try context.save()
        #expect(try storage.newContext(renamed).count(FetchRequest("Thing", predicate: FetchKey("keeper.name") == "Ann")) == 2)
    }

    @Test(arguments: StoreBackend.available) func refusesDataLossWritingNothingUnlessAllowed(_ backend: StoreBackend) throws {
        let first = try Self.model(Self.firstModel)
        let storage = try Self.storage(backend, holding: first)
        let columns = try storage.columns(of: "Item")
        let seen = try #require(Self.firstModel.last)
        for (changed, key, dropsOnly) in [
            (try Self.model([seen]), "label", true),
            (try Self.model([AttributeDescription("label", .integer, isOptional: true), seen]), "label", false),
            (try Self.model([AttributeDescription("label", .string), seen]), "label", false),
            (try Self.model([AttributeDescription("label", .string, isOptional: true)]), "seen", true),
        ] {
            let error = try #require(throws: StoreError.self) { try storage.open(changed) }
            #expect(error.kind == .migrationRefused)
            #expect(error.keys == [key])
            #expect(error.migratesWithDataLoss == dropsOnly)
            #expect(try storage.columns(of: "Item") == columns)
            let item = try #require(try storage.newContext(first).object("Item", identity: ["code": "a"]))
            #expect(try item.value(forKey: "label") as? String == "first")
        }
        // Two refusals at once are one error naming both; allowing data loss drops both columns.
        let bare = try Self.model([])
        let error = try #require(throws: StoreError.self) { try storage.open(bare) }
        #expect(error.keys == ["label"] && error.message.contains("and 1 more: Item: seen: dropping the column"))
        _ = try storage.open(bare, allowsDataLoss: true)
        #expect(try storage.columns(of: "Item") == ["_entity", "_id", "_version", "code", "owner"])
        #expect(try storage.newContext(bare).count(FetchRequest("Item")) == 2)
    }

    @Test(arguments: StoreBackend.available)
    func anAttributeMadeRequiredGetsItsDefaultInEmptyRowsOnly(_ backend: StoreBackend) throws {
        let storage = try Self.storage(backend, holding: try Self.model(Self.firstModel))
        let never = Timestamp(seconds: 0, nanoseconds: 1)
        let required = try Self.model([
            AttributeDescription("label", .string, defaultValue: .string("none")),
            AttributeDescription("seen", .date, defaultValue: .date(never)),
        ])
        let context = try storage.newContext(required)
        let seenIndex = try #require(required.entity(named: "Item")?.attributeIndex(named: "seen"))
        let a = try #require(context.object("Item", identity: ["code": "a"]))
        let b = try #require(context.object("Item", identity: ["code": "b"]))
        #expect(try a.value(forKey: "label") as? String == "first" && a.attributeValue(at: seenIndex) == .date(Self.seen))
        #expect(try b.value(forKey: "label") as? String == "none" && b.attributeValue(at: seenIndex) == .date(never))
    }

    @Test(arguments: StoreBackend.available) func aDroppedEntityGoesWithItsJoinTableOnlyWhenAllowed(_ backend: StoreBackend) throws {
        let tag = EntityDescription(
            "Tag", identity: ["title"], attributes: [AttributeDescription("title", .string)],
            relationships: [RelationshipDescription("items", to: "Item", isToMany: true)])
        let tagged = try Self.model(Self.firstModel, extra: [tag])
        let storage = try Self.storage(backend, holding: tagged)
        do {
            let context = try storage.newContext(tagged)
            let tag = try context.insert("Tag", values: ["title": "t"])
            try tag.setValue([try #require(context.object("Item", identity: ["code": "a"]))], forKey: "items")
            try context.save()
        }
        let untagged = try Self.model(Self.firstModel)
        let error = try #require(throws: StoreError.self) { try storage.open(untagged) }
        #expect(error.object == "Tag" && error.migratesWithDataLoss)
        #expect(try storage.columns(of: "Tag_items") == ["position", "source", "target"])
        _ = try storage.open(untagged, allowsDataLoss: true)
        #expect(try storage.columns(of: "Tag").isEmpty && storage.columns(of: "Tag_items").isEmpty)
        #expect(try storage.newContext(untagged).count(FetchRequest("Item")) == 2)
    }
}
