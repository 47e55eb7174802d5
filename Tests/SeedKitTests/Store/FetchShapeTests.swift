import Foundation
import Testing
@testable import SeedKitStore
import SeedKit

@Suite("FetchShape: a fetch's statement by its shape")
struct FetchShapeTests {
    /// Requests of many shapes, a few of them the same shape with other values.
    private static let requests: [FetchRequest] = [
        FetchRequest("Player"),
        FetchRequest("Player", predicate: FetchKey("code") == "P1"),
        FetchRequest("Player", predicate: FetchKey("code") == "P2"),
        FetchRequest("Player", predicate: FetchKey("code") != "P1"),
        FetchRequest("Player", predicate: FetchKey("name").isNil),
        FetchRequest("Player", predicate: FetchKey("team.name") == "Reds"),
        FetchRequest("Player", predicate: FetchKey("mentor.team.name") == "Reds"),
        FetchRequest("Player", predicate: FetchKey("code").among(["P1", "P2", "P3"])),
        FetchRequest("Player", predicate: FetchKey("code").among(["P1"])),
        FetchRequest("Player", predicate: FetchKey("name").beginsWith("a", options: .caseInsensitive)),
        FetchRequest("Player", predicate: FetchKey("name").beginsWith("a")),
        FetchRequest("Player", predicate: FetchKey("score") > 3 && FetchKey("code") == "P1"),
        FetchRequest("Player", predicate: FetchKey("score") > 3 || FetchKey("code") == "P1"),
        FetchRequest("Player", predicate: !(FetchKey("score") > 3)),
        FetchRequest("Player", predicate: .all),
        FetchRequest("Player", predicate: FetchKey("code") == "P1", sortedBy: [SortKey("score")]),
        FetchRequest("Player", predicate: FetchKey("code") == "P1", sortedBy: [SortKey("score", ascending: false)]),
        FetchRequest("Player", sortedBy: [SortKey("team.name"), SortKey("code")], offset: 2, limit: 5),
        FetchRequest("Player", limit: 5),
        FetchRequest("Player", includesSubentities: false),
        FetchRequest("Team", predicate: FetchKey("name") == "P1"),
    ]

    private static func fetch(_ request: FetchRequest, in model: EntityModel) throws -> StoreFetch {
        let entity = try #require(model.entity(named: request.entityName))
        return StoreFetch(
            request: request, entity: entity, predicate: try request.predicate?.resolved(for: entity, in: model),
            sortKeys: try request.sortedBy.map { (path: try model.attributePath($0.key, from: entity), ascending: $0.ascending) },
            mayBeFinal: true)
    }

    @Test("A shape loaded over others is the shape loaded anew, with the same values, whatever came before")
    func loadingOverAnotherShapeIsLoadingAnew() throws {
        let model = try Fixtures.leagueModel()
        let fetches = try Self.requests.map { try Self.fetch($0, in: model) }
        var reused = FetchShape()
        var reusedValues: [AttributeValue?] = []
        // Every shape after every other, longer and shorter, and counts after fetches.
        for (first, second) in fetches.indices.flatMap({ a in fetches.indices.map { (a, $0) } }) {
            for (index, counting) in [(first, false), (second, true), (second, false)] {
                reused.load(fetches[index], counting: counting, values: &reusedValues)
                var fresh = FetchShape()
                var freshValues: [AttributeValue?] = []
                fresh.load(fetches[index], counting: counting, values: &freshValues)
                #expect(reused == fresh, "\(Self.requests[index]) after \(Self.requests[first])")
                #expect(reused.hashValue == fresh.hashValue)
                #expect(reusedValues == freshValues, "\(Self.requests[index])")
            }
        }
    }

    @Test("Two requests have one shape only when nothing but their values differ")
    func shapesDifferWhereTheirStatementsDo() throws {
        let model = try Fixtures.leagueModel()
        var shapes: [FetchShape] = []
        for request in Self.requests {
            var shape = FetchShape()
            var values: [AttributeValue?] = []
            shape.load(try Self.fetch(request, in: model), counting: false, values: &values)
            shapes.append(shape)
        }
        // The third request is the second with another value.
        let sameAsEarlier: [Int: Int] = [2: 1]
        for later in shapes.indices {
            for earlier in 0..<later {
                #expect(
                    (shapes[later] == shapes[earlier]) == (sameAsEarlier[later] == earlier),
                    "\(Self.requests[later]) against \(Self.requests[earlier])")
            }
        }
    }
}
