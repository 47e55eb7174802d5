import Testing
import SeedKit

@Suite("Entity model")
struct EntityModelTests {
    /// The messages a set of declarations fails with.
    private func errors(_ declarations: [EntityDescription]) -> [ModelError] {
        do {
            _ = try EntityModel(declarations)
            return []
        } catch let error as ModelErrors {
            return error.errors
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    private func entity(_ name: String, parent: String? = nil, identity: [String] = [], _ attributes: [AttributeDescription] = [], _ relationships: [RelationshipDescription] = []) -> EntityDescription {
        EntityDescription(name, parent: parent, identity: identity, attributes: attributes, relationships: relationships)
    }

    @Test func subentityInheritsPropertiesAndIdentity() throws {
        let model = try EntityModel(Fixtures.fileModelDeclarations)
        let manager = try #require(model.entity(named: "Manager"))
        #expect(manager.attributes.map(\.name) == ["address", "email", "hired", "name", "level"], "inherited first, each level in name order")
        #expect(manager.relationships.map(\.name) == ["department"])
        #expect(manager.identity == ["email"])
        #expect(manager.rootName == "Employee")
        #expect(manager.isKind(of: "Employee"))
        #expect(try #require(model.entity(named: "Employee")).kinds == ["Employee", "Manager"])
        // An inherited attribute has the same slot in the subentity as in its parent.
        #expect(manager.attributeIndex(named: "email") == model.entity(named: "Employee")?.attributeIndex(named: "email"))
    }

    @Test func aliasesFindEntitiesAndProperties() throws {
        let model = try EntityModel([
            EntityDescription(
                "Team", attributes: [AttributeDescription("title", .string, aliases: ["name"])], aliases: ["Department"])
        ])
        let team = try #require(model.entity(named: "Department"))
        #expect(team.name == "Team")
        #expect(team.attribute(named: "name")?.name == "title")
    }

    @Test func inverseDeclaredOnOneSideIsCompleted() throws {
        let model = try EntityModel([
            entity("A", [], [RelationshipDescription("bs", to: "B", isToMany: true, inverse: "a")]),
            entity("B", [], [RelationshipDescription("a", to: "A")]),
        ])
        #expect(model.entity(named: "B")?.relationship(named: "a")?.inverse == "bs")
    }

    @Test func unknownDestinationAndParent() {
        let found = errors([
            entity("A", [], [RelationshipDescription("b", to: "Bee")]),
            entity("C", parent: "Nope"),
        ])
        #expect(found.map(\.kind) == [.unknownDestination, .unknownParent])
        #expect(found[0].description == "A.b: destination 'Bee' is not an entity; entities are: A, C")
        #expect(found[1].description == "C: parent 'Nope' is not an entity; entities are: A, C")
    }

    @Test func inverseThatDoesNotPointBack() {
        let found = errors([
            entity("A", [], [RelationshipDescription("b", to: "B", inverse: "c")]),
            entity("B", [], [RelationshipDescription("c", to: "C")]),
            entity("C"),
        ])
        #expect(found.count == 1)
        #expect(found.first?.kind == .invalidInverse)
        #expect(found.first?.description == "A.b: inverse B.c points to C, not back to A")
    }

    @Test func inverseThatIsMissingOrNamesAnother() {
        let missing = errors([
            entity("A", [], [RelationshipDescription("b", to: "B", inverse: "staff")]),
            entity("B", [], [RelationshipDescription("a", to: "A", inverse: "b")]),
        ])
        #expect(missing.map(\.description) == [
            "A.b: inverse 'staff' is not a relationship of B; it has: a",
            "B.a: inverse A.b names 'staff' as its inverse, not 'a'",
        ])
        let crossed = errors([
            entity("A", [], [RelationshipDescription("b", to: "B", inverse: "a"), RelationshipDescription("b2", to: "B", inverse: "a")]),
            entity("B", [], [RelationshipDescription("a", to: "A", inverse: "b")]),
        ])
        #expect(crossed.map(\.description) == ["A.b2: inverse B.a names 'b' as its inverse, not 'b2'"])
    }

    @Test func ownedObjectsHaveOneOwner() {
        let found = errors([
            entity("A", [], [RelationshipDescription("bs", to: "B", isToMany: true, inverse: "as", owns: true)]),
            entity("B", [], [RelationshipDescription("as", to: "A", isToMany: true, inverse: "bs")]),
        ])
        #expect(found.map(\.kind) == [.invalidInverse])
        #expect(found.first?.message.contains("must be to-one") == true)
    }

    @Test func ownedRelationshipMustCascade() {
        let found = errors([
            entity("A", [], [RelationshipDescription("bs", to: "B", isToMany: true, owns: true, deleteRule: .deny)]),
            entity("B"),
        ])
        #expect(found.map(\.kind) == [.invalidDeleteRule])
    }

    @Test func identityErrors() {
        let found = errors([
            entity("A", identity: ["code"], [AttributeDescription("name", .string)]),
            entity("B", identity: ["note"], [AttributeDescription("note", .string, isOptional: true)]),
            entity("C", identity: ["payload"], [AttributeDescription("payload", .json)]),
            entity("D", parent: "A", identity: ["name"]),
        ])
        #expect(found.map(\.description) == [
            "A.code: identity names a missing attribute; attributes are: name",
            "B.note: identity attribute must be required, not optional",
            "C.payload: a json attribute cannot be part of an identity; use string, integer, decimal, date, uuid, url, bool or data",
            "D: identity is declared on the root entity only; D inherits it from A",
        ])
    }

    @Test func reservedAndInvalidNames() {
        let found = errors([
            entity("A", [AttributeDescription("class", .string), AttributeDescription("$id", .string), AttributeDescription("2nd", .string)]),
            entity("Bad-Name"),
        ])
        #expect(found.map(\.kind) == [.reservedName, .reservedName, .invalidName, .invalidName])
        #expect(found[0].description.hasPrefix("A.class: property name 'class' is reserved"))
        #expect(found[3].description.hasPrefix("Bad-Name: entity name 'Bad-Name' is not a valid name"))
    }

    @Test func duplicates() {
        let found = errors([
            entity("A", [AttributeDescription("name", .string)], [RelationshipDescription("name", to: "A")]),
            entity("B", parent: "A", [AttributeDescription("name", .integer)]),
            EntityDescription("C", aliases: ["A"]),
        ])
        #expect(found.map(\.description) == [
            "A.name: name 'name' is already another property of A",
            "B.name: name 'name' is already a property inherited from A",
            "C: name 'A' is already used by entity A",
        ])
    }

    @Test func inheritanceCycle() {
        let found = errors([entity("A", parent: "B"), entity("B", parent: "A")])
        #expect(found.map(\.description) == ["A: inheritance cycle: A -> B -> A", "B: inheritance cycle: B -> A -> B"])
    }

    @Test func defaultOfTheWrongType() {
        let found = errors([entity("A", [AttributeDescription("n", .integer, defaultValue: .string("0"))])])
        #expect(found.map(\.description) == ["A.n: default value is string but the attribute is integer"])
    }

    @Test func everyProblemIsReportedAtOnce() {
        let found = errors([
            entity("A", identity: ["x"], [AttributeDescription("class", .string)], [RelationshipDescription("b", to: "Nowhere")]),
            entity("B", parent: "Missing"),
        ])
        #expect(found.count == 4)
    }

    @Test func modelFromClassesMatchesItsDeclarations() throws {
        let model = try Fixtures.companyModel()
        #expect(model.entityNames == ["Address", "Department", "Employee", "Manager", "Project", "Report"])
        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.attributes == [
            AttributeDescription("address", .string, defaultValue: .string("")),
            AttributeDescription("email", .string), AttributeDescription("hired", .date, isOptional: true),
            AttributeDescription("name", .string),
        ])
        #expect(employee.relationships == [
            RelationshipDescription("addresses", to: "Address", isToMany: true, isOrdered: true, inverse: "resident", owns: true),
            RelationshipDescription("department", to: "Department", inverse: "employees"),
            RelationshipDescription("projects", to: "Project", isToMany: true, inverse: "members"),
        ])
        #expect(employee.identity == ["email"])
        let manager = try #require(model.entity(named: "Manager"))
        #expect(manager.parentName == "Employee")
        #expect(manager.relationship(named: "reports")?.deleteRule == .deny)
        #expect(model.entity(forClass: Manager.self) === manager)
        // Equal declarations give equal models, whatever their source.
        #expect(try EntityModel(model.declarations) == model)
    }

    @Test func classesReachedThroughRelationshipsAreIncluded() throws {
        let model = try EntityModel(classes: [Manager.self])
        #expect(model.entityNames == ["Address", "Department", "Employee", "Manager", "Project", "Report"])
    }
}
