import Foundation
import Testing
@testable import SeedKit

/// Key-value coding's collection operators on to-many relationships and key paths through them.
@Suite struct CollectionOperatorTests {
    /// Reds: Ann (score 3, rating 1.5, fee 1.50, joined 1970-01-02), Bob (score 5, no rating, fee 2), Cy (nothing
    /// but a name, mentored by Ann). Blues: no players. The context comes along: its objects need it alive.
    private func league() throws -> (reds: ManagedObject, blues: ManagedObject, ann: ManagedObject, context: ObjectContext) {
        let context = ObjectContext(model: try Fixtures.leagueModel())
        let reds = try context.insert("Team", values: ["name": "Reds"])
        let blues = try context.insert("Team", values: ["name": "Blues"])
        let ann = try context.insert(
            "Player",
            values: ["code": "P1", "name": "Ann", "score": 3, "rating": 1.5, "fee": Decimal(string: "1.50")!,
                "joined": Date(timeIntervalSince1970: 86_400), "team": reds])
        try context.insert("Player", values: ["code": "P2", "name": "Bob", "score": 5, "fee": Decimal(2), "team": reds])
        try context.insert("Player", values: ["code": "P3", "name": "Ann", "team": reds, "mentor": ann])
        return (reds, blues, ann, context)
    }

    @Test func countSumAverageMinimumAndMaximumOfMembers() throws {
        let (reds, blues, _, context) = try league()
        defer { withExtendedLifetime(context) {} }
        #expect(try reds.value(forKeyPath: "players.@count") as? Int == 3)
        #expect(try blues.value(forKeyPath: "players.@count") as? Int == 0)
        #expect(try reds.value(forKeyPath: "players.@sum.score") as? Int64 == 8)
        #expect(try reds.value(forKeyPath: "players.@sum.rating") as? Double == 1.5)
        #expect(try reds.value(forKeyPath: "players.@sum.fee") as? Decimal == Decimal(string: "3.5"))
        #expect(try reds.value(forKeyPath: "players.@avg.score") as? Double == 4)
        #expect(try reds.value(forKeyPath: "players.@avg.fee") as? Decimal == Decimal(string: "1.75"))
        #expect(try blues.value(forKeyPath: "players.@avg.score") == nil)
        #expect(try blues.value(forKeyPath: "players.@sum.score") as? Int64 == 0)
        #expect(try reds.value(forKeyPath: "players.@min.score") as? Int64 == 3)
        #expect(try reds.value(forKeyPath: "players.@max.name") as? String == "Bob")
        #expect(try reds.value(forKeyPath: "players.@max.joined") as? Date == Date(timeIntervalSince1970: 86_400))
        #expect(try blues.value(forKeyPath: "players.@min.score") == nil)
    }

    @Test func distinctUnionKeepsFirstSeenValuesAndObjects() throws {
        let (reds, _, _, context) = try league()
        defer { withExtendedLifetime(context) {} }
        #expect(try reds.value(forKeyPath: "players.@distinctUnionOfObjects.name") as? [String] == ["Ann", "Bob"])
        let teams = try #require(try reds.value(forKeyPath: "players.@distinctUnionOfObjects.team") as? [ManagedObject])
        #expect(teams == [reds])
    }

    @Test func keyPathsReachMembersThroughToOnesAndToManies() throws {
        let (reds, _, ann, context) = try league()
        defer { withExtendedLifetime(context) {} }
        #expect(try ann.value(forKeyPath: "team.players.@count") as? Int == 3)
        #expect(try ann.value(forKeyPath: "team.players.@sum.mentor.score") as? Int64 == 3)
        #expect(try reds.value(forKeyPath: "players.mentees.@count") as? Int == 1)
    }

    @Test func misplacedUnknownOrUnfitOperatorsAreRefused() throws {
        let (reds, _, ann, context) = try league()
        defer { withExtendedLifetime(context) {} }
        let toOne = #expect(throws: ObjectError.self) { try ann.value(forKeyPath: "team.@count") }
        #expect(toOne?.kind == .brokenKeyPath)
        let typo = #expect(throws: ObjectError.self) { try reds.value(forKeyPath: "players.@sume.score") }
        #expect(typo?.message.contains("did you mean '@sum'") == true, "\(typo!)")
        let bare = #expect(throws: ObjectError.self) { try reds.value(forKeyPath: "players.@max") }
        #expect(bare?.kind == .brokenKeyPath)
        let words = #expect(throws: ObjectError.self) { try reds.value(forKeyPath: "players.@sum.name") }
        #expect(words?.kind == .typeMismatch)
    }
}
