import Foundation
import Testing
import SeedKit

@Suite("populate(fromDictionary:policy:)")
struct PopulateTests {
    private func staff() throws -> (ObjectContext, Employee) {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        ann.name = "Ann"
        ann.email = "ann@example.com"
        ann.hired = Date(timeIntervalSince1970: 0)
        for code in ["A", "B"] {
            let project = Project(context: context)
            project.code = code
            ann.projects.insert(project)
        }
        for street in ["1 Main", "2 Side"] {
            let address = Address(context: context)
            address.street = street
            ann.addresses.append(address)
        }
        try context.save()
        return (context, ann)
    }

    @Test func absentKeysStayNullClearsAndReplaceDeletesOwnedChildren() throws {
        let (context, ann) = try staff()
        let changes = try ann.populate(fromDictionary: [
            "hired": NSNull(), "projects": [["code": "A"]], "addresses": [["street": "3 New"]],
        ])
        #expect(ann.name == "Ann")
        #expect(ann.hired == nil)
        #expect(ann.projects.map(\.code) == ["A"])
        #expect(ann.addresses.map(\.street) == ["3 New"])
        #expect(changes.inserted.count == 1)
        #expect(changes.deleted.count == 2)
        #expect(changes.unlinked.map { ($0 as? Project)?.code } == ["B"])
        #expect(try context.fetch("Project").count == 2)
        let annUpdate = try #require(changes.updated.first { $0.object === ann })
        #expect(annUpdate.keys == ["hired", "projects", "addresses"])
    }

    @Test func addPolicyKeepsCurrentMembers() throws {
        let (context, ann) = try staff()
        let changes = try ann.populate(fromDictionary: ["projects": [["code": "C"]]], policy: .add)
        #expect(Set(ann.projects.map(\.code)) == ["A", "B", "C"])
        #expect(changes.unlinked.isEmpty && changes.deleted.isEmpty)
        withExtendedLifetime(context) {}
    }

    @Test func errorsChangeNothing() throws {
        let (context, ann) = try staff()
        #expect(throws: GraphDecodingErrors.self) {
            try ann.populate(fromDictionary: ["name": NSNull(), "projects": [["code": "Z"]], "addresses": [["stret": "x"]]])
        }
        do {
            try ann.populate(fromDictionary: ["name": NSNull(), "addresses": [["stret": "x"]]])
        } catch {
            #expect(error.errors.map(\.pointer.description) == ["/addresses/0", "/addresses/0/stret", "/name"])
        }
        #expect(ann.name == "Ann")
        #expect(ann.projects.count == 2)
        #expect(!context.hasChanges)
    }
}

@Suite("populate on objects outside a context")
struct PopulateDetachedTests {
    @Test func aDetachedObjectIsAnErrorNotACrash() throws {
        let context = try Fixtures.companyContext()
        let draft = Department(context: context)
        context.rollback()
        let error = try #require(throws: GraphDecodingErrors.self) { try draft.populate(fromDictionary: ["name": "Sales"]) }
        #expect(error.errors.map(\.kind) == [.detachedObject])
        #expect(error.errors.first?.message == "\(draft) is in no context (deleted, rolled back, or its context is gone); only objects of a context can be populated")
    }
}
