import Foundation
import Testing
@testable import SeedKit

/// Predicates in memory: what each condition means, key paths, and the errors of a wrong key or value.
@Suite struct FetchPredicateTests {
    private func league() throws -> ObjectContext {
        let context = ObjectContext(model: try Fixtures.leagueModel())
        let reds = try context.insert("Team", values: ["name": "Reds", "rank": 1])
        let blues = try context.insert("Team", values: ["name": "Blëus"])
        for (code, name, team) in [("P1", "Zoë", reds), ("P2", "Zoe\u{308}", blues), ("P3", "ZOE", nil), ("P4", nil, reds)] {
            let player = try context.insert("Player", values: ["code": code, "score": Int(code.dropFirst())!])
            try player.setValue(name, forKey: "name")
            try player.setValue(team, forKey: "team")
        }
        return context
    }

    private func codes(_ context: ObjectContext, _ predicate: FetchPredicate) throws -> [String] {
        try context.fetch(FetchRequest("Player", predicate: predicate, sortedBy: [SortKey("code")]))
            .map { try #require($0.value(forKey: "code") as? String) }
    }

    @Test func stringsAreEqualByTheirBytesUnlessFolded() throws {
        let context = try league()
        #expect(try codes(context, FetchKey("name") == "Zoë") == ["P1"])
        #expect(try codes(context, FetchKey("name").equals("zoe", options: .caseInsensitive)) == ["P3"])
        #expect(try codes(context, FetchKey("name").equals("zoe", options: [.caseInsensitive, .diacriticInsensitive])) == ["P1", "P2", "P3"])
        #expect(try codes(context, FetchKey("name").beginsWith("Zo")) == ["P1", "P2"])
        #expect(try codes(context, FetchKey("name").endsWith("\u{308}")) == ["P2"])
        #expect(try codes(context, FetchKey("name").contains("O")) == ["P3"])
        #expect(try codes(context, FetchKey("name").like("z?e*", options: .caseInsensitive)) == ["P2", "P3"])
        #expect(StringOptions([.caseInsensitive, .diacriticInsensitive]).fold("ÉCOLE Zoë") == "ecole zoe")
    }

    @Test func likeTreatsStarsQuestionMarksAndEscapes() {
        let like = FetchPredicate.StringMatch.like
        #expect(like.matches("report-2024.txt", pattern: "report-*.txt"))
        #expect(like.matches("a*b", pattern: "a\\*b") && !like.matches("axb", pattern: "a\\*b"))
        #expect(like.matches("", pattern: "*") && !like.matches("", pattern: "?"))
        #expect(like.matches("日本", pattern: "??") && !like.matches("日本", pattern: "?"))
        #expect(like.matches("aaab", pattern: "*a*b") && !like.matches("aaac", pattern: "*a*b"))
    }

    @Test func missingValuesEqualOnlyNilAndOrderWithNothing() throws {
        let context = try league()
        #expect(try codes(context, FetchKey("name").isNil) == ["P4"])
        #expect(try codes(context, FetchKey("name") != "Zoë") == ["P2", "P3", "P4"])
        #expect(try codes(context, FetchKey("name") < "Zz") == ["P1", "P2", "P3"])
        #expect(try codes(context, !(FetchKey("name") < "Zz")) == ["P4"])
        #expect(try codes(context, FetchKey("name").beginsWith("")) == ["P1", "P2", "P3"])
        #expect(try codes(context, FetchKey("score").among([2, 4, 9])) == ["P2", "P4"])
    }

    @Test func keyPathsFollowToOneRelationships() throws {
        let context = try league()
        #expect(try codes(context, FetchKey("team.name") == "Reds") == ["P1", "P4"])
        #expect(try codes(context, FetchKey("team.rank").isNil) == ["P2", "P3"])
        #expect(try codes(context, FetchKey("team.name").contains("eu", options: .diacriticInsensitive) || FetchKey("score") > 3)
            == ["P2", "P4"])
        let sorted = try context.fetch(
            FetchRequest("Player", sortedBy: [SortKey("team.name", ascending: false), SortKey("code")], offset: 1, limit: 2))
        #expect(try sorted.map { try $0.value(forKey: "code") as? String } == ["P4", "P2"])
        #expect(try context.count(FetchRequest("Player", predicate: FetchKey("team.name") == "Reds", offset: 1)) == 1)
    }

    @Test func wrongKeysAndValuesAreRefusedWithWhatWouldBeValid() throws {
        let context = try league()
        let typo = #expect(throws: ObjectError.self) { try context.fetch(FetchRequest("Player", predicate: FetchKey("team.nmae") == "x")) }
        #expect(typo?.kind == .unknownKey)
        #expect(typo?.message.contains("did you mean 'name'") == true, "\(typo!)")
        let toMany = #expect(throws: ObjectError.self) { try context.fetch(FetchRequest("Team", predicate: FetchKey("players.code") == "P1")) }
        #expect(toMany?.kind == .brokenKeyPath)
        let type = #expect(throws: ObjectError.self) { try context.fetch(FetchRequest("Player", predicate: FetchKey("score") == "high")) }
        #expect(type?.kind == .typeMismatch)
        let string = #expect(throws: ObjectError.self) { try context.fetch(FetchRequest("Player", predicate: FetchKey("score").contains("1"))) }
        #expect(string?.kind == .typeMismatch)
        #expect(throws: ObjectError.self) { try context.fetch(FetchRequest("Player", sortedBy: [SortKey("team")])) }
    }
}
