import Foundation
import Testing
import SeedKit

@Suite("IdentityIndex: registered objects by identity")
struct IdentityIndexTests {
    @Test("Identity values given at registration index their own object, among objects indexed by their values")
    func givenIdentitiesKeepTheirObjects() throws {
        let context = try Fixtures.companyContext()
        let entity = try #require(context.model.entity(named: "Employee"))
        let ann = Employee(context: context)
        ann.email = "ann@example.com"
        // Registered with other values than it holds: the index goes by the values given, as a decoder's objects do.
        let bob = try #require(context.instantiate(entity) as? Employee)
        bob.email = "bob@example.com"
        context.register(inserted: bob, identity: [.string("given@example.com")])
        let cy = Employee(context: context)
        cy.email = "cy@example.com"
        let dee = try #require(context.instantiate(entity) as? Employee)
        context.register(inserted: dee, identity: [.string("dee@example.com")])

        #expect(context.object("Employee", identity: ["email": "ann@example.com"]) === ann)
        #expect(context.object("Employee", identity: ["email": "given@example.com"]) === bob)
        #expect(context.object("Employee", identity: ["email": "bob@example.com"]) == nil)
        #expect(context.object("Employee", identity: ["email": "cy@example.com"]) === cy)
        #expect(context.object("Employee", identity: ["email": "dee@example.com"]) === dee)
    }

    @Test("Objects registered after a lookup are indexed at the next one, the first holder of an identity keeping it")
    func laterRegistrationsAreIndexedInOrder() throws {
        let context = try Fixtures.companyContext()
        let ann = Employee(context: context)
        ann.email = "ann@example.com"
        #expect(context.object("Employee", identity: ["email": "ann@example.com"]) === ann)
        let entity = try #require(context.model.entity(named: "Employee"))
        let first = context.instantiate(entity)
        context.register(inserted: first, identity: [.string("twin@example.com")])
        let second = context.instantiate(entity)
        context.register(inserted: second, identity: [.string("twin@example.com")])
        #expect(context.object("Employee", identity: ["email": "twin@example.com"]) === first)
        #expect(context.object("Employee", identity: ["email": "ann@example.com"]) === ann)
    }
}
