import Foundation
import Testing
import SeedKit
import SeedKitModel

/// Models whose names a store could not take are refused by validation, naming the clash and located in the model
/// file, instead of validating and then failing in SQLite with a half-made store.
@Suite("Entity model: names the store makes")
struct EntityModelStoreNamesTests {
    /// The problems of a model file's text, as `line:column: kind Entity.property: message`.
    private func problems(_ entities: String) throws -> [String] {
        let document = try JSONDocument(parsing: #"{"entities": {\#(entities)}}"#, file: "model.json")
        do {
            let model = try EntityModel(document: document)
            // Whatever validates makes a store.
            _ = try SQLiteStore.inMemory(model: model)
            return []
        } catch let errors as ModelErrors {
            return errors.errors.map { error in
                let subject = [error.entity, error.property].compactMap { $0 }.joined(separator: ".")
                let place = error.location.map { "\($0.line):\($0.column)" } ?? "-"
                return "\(place): \(error.kind) \(subject): \(error.message)"
            }
        }
    }

    @Test func entitiesNamedLikeTheStoresOwnTablesAreReserved() throws {
        #expect(try problems(#""_seedkit_seed_sets": {"attributes": {"a": "string"}}"#) == [
            "1:37: reservedName _seedkit_seed_sets: entity name '_seedkit_seed_sets' is reserved: names starting "
                + "with '_seedkit' (in any case) belong to the store's own tables",
        ])
        #expect(try problems(#""_SeedKitNotes": {}, "Sqlite_x": {}"#) == [
            "1:32: reservedName _SeedKitNotes: entity name '_SeedKitNotes' is reserved: names starting with "
                + "'_seedkit' (in any case) belong to the store's own tables",
            "1:48: reservedName Sqlite_x: entity name 'Sqlite_x' is reserved: names starting with 'sqlite_' "
                + "(in any case) belong to SQLite's own tables",
        ])
        #expect(try problems(#""A": {"aliases": ["_seedkit_metadata"]}"#).count == 1)
    }

    /// Found by the model fuzz target: SQLite keeps every name starting with `sqlite_` for itself, columns included.
    @Test func propertiesNamedLikeSQLitesOwnAreReserved() throws {
        let problems = try problems(#""Address": {"attributes": {"city": "string", "sqlite_postcode": "string?"}}"#)
        #expect(problems == [
            "1:79: reservedName Address.sqlite_postcode: name 'sqlite_postcode' is reserved: column names starting "
                + "with 'sqlite_' (in any case) belong to SQLite",
        ], "\(problems)")
        #expect(try self.problems(#""A": {"relationships": {"SQLite_b": {"to": "B"}}}, "B": {}"#).count == 1)
    }

    @Test func entitiesDifferingOnlyInCaseClash() throws {
        #expect(try problems(#""A": {}, "a": {}"#) == [
            "1:29: duplicateName a: name 'a' differs from entity name 'A' only in case, and the store's names "
                + "ignore case",
        ])
        // Subentities too: they would be one folder of an exported template set on a case-insensitive file system.
        #expect(try problems(#""Item": {}, "Book": {"parent": "Item"}, "BOOK": {"parent": "Item"}"#).count == 1)
    }

    @Test func anEntityNamedLikeAJoinTableOrAnIndexClashes() throws {
        #expect(try problems(#""A": {"relationships": {"bs": {"to": "B", "many": true}}}, "B": {}, "A_bs": {}"#) == [
            "1:45: duplicateName A.bs: the join table of A.bs would be named 'A_bs', like the table of A_bs "
                + "(the store's names ignore case); rename one",
        ])
        #expect(try problems(#""A": {"relationships": {"b": {"to": "B"}}}, "B": {}, "a_B": {}"#) == [
            "1:44: duplicateName A.b: the index of A.b would be named 'A_b', like the table of a_B (the store's "
                + "names ignore case); rename one",
        ])
        #expect(try problems(#""A": {"identity": ["k"], "attributes": {"k": "string"}}, "A_Identity": {}"#).count == 1)
        #expect(try problems(#""A": {"relationships": {"bs": {"to": "B", "many": true}}}, "B": {}, "A_bs_target": {}"#).count == 1)
        // A to-one named 'identity' would give its index the name of the identity index.
        #expect(try problems(#""A": {"identity": ["k"], "attributes": {"k": "string"}, "relationships": {"identity": {"to": "A"}}}"#).count == 1)
    }

    @Test func propertiesDifferingOnlyInCaseOrNamedLikeBookkeepingColumnsClash() throws {
        #expect(try problems(#""Employee": {"attributes": {"id": "integer", "ID": "string"}}"#) == [
            "1:49: duplicateName Employee.id: column 'id' differs from 'ID' only in case, and the store's names "
                + "ignore case; both would be stored in the table Employee",
        ])
        #expect(try problems(#""E": {"attributes": {"_ID": "integer"}, "relationships": {"_Version": {"to": "E"}}}"#) == [
            "1:43: reservedName E._ID: name '_ID' is reserved for the store's own column '_id' (the store's names "
                + "ignore case)",
            "1:85: reservedName E._Version: name '_Version' is reserved for the store's own column '_version' "
                + "(the store's names ignore case)",
        ])
        // Subentities of one tree share their root's table: a sibling's property in another case clashes, one of
        // another kind under the same name too; one of the same name and kind shares the column.
        #expect(try problems(#""I": {}, "B": {"parent": "I", "attributes": {"title": "string"}}, "C": {"parent": "I", "attributes": {"Title": "string"}}"#).count == 1)
        #expect(try problems(#""I": {}, "B": {"parent": "I", "attributes": {"n": "string"}}, "C": {"parent": "I", "attributes": {"n": "integer"}}"#) == [
            "1:118: duplicateName C.n: C.n would be stored in the column 'n' of the table I, which holds another "
                + "kind of value for 'n' of B",
        ])
        #expect(try problems(#""I": {}, "B": {"parent": "I", "attributes": {"n": "string"}}, "C": {"parent": "I", "attributes": {"n": "string"}}"#) == [])
    }

    @Test func anAttributeNamedLikeAPositionColumnClashes() throws {
        let entities = #"""
            "D": {"relationships": {"staff": {"to": "E", "many": true, "ordered": true, "inverse": "d"}}},
            "E": {"attributes": {"d_position": "integer"}, "relationships": {"d": {"to": "D", "inverse": "staff"}}}
            """#
        #expect(try problems(entities) == [
            "1:48: duplicateName D.staff: the order of D.staff would be stored in the column 'd_position' of "
                + "the table E, which holds another kind of value for 'd_position' of E",
        ])
    }

    /// A PostgreSQL store keeps a date's nanoseconds in a column beside it, `<date>_ns`: a property of that name is
    /// refused on every store, so that a model that validates makes a store on each.
    @Test func aPropertyNamedLikeADatesNanosecondsColumnClashes() throws {
        #expect(try problems(#""Event": {"attributes": {"created": "date", "created_ns": "integer"}}"#) == [
            "1:73: duplicateName Event.created_ns: name 'created_ns' is taken by the column 'created_ns' in which a "
                + "PostgreSQL store keeps the nanoseconds of the date 'created' (the store's names ignore case); "
                + "rename one",
        ])
        // Declared first, in another case, in a subentity, or as a to-one: the same clash.
        #expect(try problems(#""Event": {"attributes": {"Created_NS": "string", "created": "date"}}"#).count == 1)
        #expect(try problems(#""I": {"attributes": {"at": "date?"}}, "J": {"parent": "I", "attributes": {"at_ns": "integer"}}"#).count == 1)
        #expect(try problems(#""Event": {"attributes": {"at": "date"}, "relationships": {"at_ns": {"to": "Event"}}}"#).count == 1)
        // Dates of one name in two entities of a tree share both columns.
        #expect(try problems(#""I": {}, "J": {"parent": "I", "attributes": {"at": "date"}}, "K": {"parent": "I", "attributes": {"at": "date"}}"#) == [])
        #expect(try problems(#""Event": {"attributes": {"created": "date", "created_n": "integer", "ns": "date"}}"#) == [])
    }

    /// Names that only look alike are valid: the rules are those of the store's real names, no wider.
    @Test func namesTheStoreKeepsApartAreValid() throws {
        #expect(try problems(#""A": {"relationships": {"bs": {"to": "B", "many": true}}}, "B": {}, "A_b": {}, "Ab_s": {}"#) == [])
        #expect(try problems(#""seedkit": {}, "X_seedkit": {}, "E": {"attributes": {"id": "integer", "version": "integer", "entity": "string", "_idx": "string"}}"#) == [])
        // Both sides of a many-to-many pair name one join table.
        #expect(try problems(#""A": {"relationships": {"bs": {"to": "B", "many": true, "inverse": "as"}}}, "B": {"relationships": {"as": {"to": "A", "many": true, "inverse": "bs"}}}"#) == [])
    }

    /// Every model of a small family of names validates exactly when it makes a store.
    @Test func aModelValidatesExactlyWhenItMakesAStore() throws {
        let names = ["A", "a", "A_b", "A_B_target", "A_identity", "a_Id"]
        let properties = [#""b": {"to": "A"}"#, #""B": {"to": "A", "many": true}"#, #""_id": {"to": "A"}"#]
        for first in names {
            for second in names where second != first {
                for property in properties {
                    let text = #"{"entities": {"\#(first)": {"identity": ["k"], "attributes": {"k": "string"}, "relationships": {\#(property.replacingOccurrences(of: "\"A\"", with: "\"\(first)\""))}}, "\#(second)": {}}}"#
                    let model = try? EntityModel(json: JSONDocument(parsing: text).value)
                    let store = model.flatMap { try? SQLiteStore.inMemory(model: $0) }
                    #expect((model != nil) == (store != nil), "\(text)")
                }
            }
        }
    }
}
