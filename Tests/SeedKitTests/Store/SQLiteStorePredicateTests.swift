import Foundation
import Testing
@testable import SeedKit

/// Predicates in SQL agree with predicates in memory: the same objects, in the same order.
@Suite struct SQLiteStorePredicateTests {
    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func sqlAndMemoryAgreeOnRandomLeaguesAndPredicates(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let model = try Fixtures.leagueModel()
        let store = try SQLiteStore.inMemory(model: model)
        let memory = ObjectContext(model: model)
        let saved = store.newContext()
        var league = RandomLeague(random: &random)
        try league.build(in: memory)
        try league.build(in: saved)
        try saved.save()
        let requests = (0..<40).map { _ in league.randomRequest(&random) }

        // Rows only: SQL decides.
        try expectSameResults(requests, store.newContext(), memory, "clean store")

        // Unsaved edits: SQL picks candidates, memory finishes.
        let edited = store.newContext()
        let edits = (0..<25).map { _ in league.randomEdit(&random) }
        for edit in edits {
            try edit(memory)
            try edit(edited)
        }
        #expect(edited.hasChanges)
        try expectSameResults(requests, edited, memory, "unsaved edits")

        // The edits saved: SQL decides again.
        try edited.save()
        try expectSameResults(requests, store.newContext(), memory, "saved edits")
    }

    private func expectSameResults(
        _ requests: [FetchRequest], _ overStore: ObjectContext, _ inMemory: ObjectContext, _ phase: String
    ) throws {
        for request in requests {
            let stored = try overStore.fetch(request).map { try #require($0.value(forKey: "code") as? String) }
            let expected = try inMemory.fetch(request).map { try #require($0.value(forKey: "code") as? String) }
            if request.sortedBy.isEmpty {
                #expect(Set(stored) == Set(expected), "\(phase): \(request)")
            } else {
                #expect(stored == expected, "\(phase): \(request)")
            }
            #expect(try overStore.count(request) == expected.count, "\(phase): count of \(request)")
        }
    }

    @Test func identityComparisonRunsInSQLOnTheIdentityIndex() throws {
        let model = try Fixtures.leagueModel()
        let store = try SQLiteStore.inMemory(model: model)
        let context = store.newContext()
        for code in ["P1", "P2", "P3"] { try context.insert("Player", values: ["code": code]) }
        try context.save()
        let fresh = store.newContext()
        #expect(try fresh.fetch(FetchRequest("Player", predicate: FetchKey("code") == "P2")).count == 1)
        // Only the matching row became an object: the store filtered it.
        #expect(fresh.registeredObjects.count == 1)
        let plan = try store.connection.prepare(
            sql: "EXPLAIN QUERY PLAN SELECT * FROM \"Player\" WHERE \"Player\".\"code\" IS 'P2'")
        #expect(try plan.step())
        #expect("\(plan.value(at: 3))".contains("Player_identity"), "\(plan.value(at: 3))")
    }

    @Test func decimalsCompareAsNumbersOverAStore() throws {
        let model = try Fixtures.leagueModel()
        let store = try SQLiteStore.inMemory(model: model)
        let context = store.newContext()
        try context.insert("Player", values: ["code": "P1", "fee": ScaledDecimal(exactly: "1.50")!])
        try context.insert("Player", values: ["code": "P2", "fee": Decimal(string: "12")!])
        try context.insert("Player", values: ["code": "P3", "fee": ScaledDecimal(exactly: "1.5")!])
        try context.insert("Player", values: ["code": "P4", "fee": ScaledDecimal(exactly: "2.000")!])
        try context.save()
        let fresh = store.newContext()
        func codes(_ predicate: FetchPredicate, sortedBy: [SortKey] = [SortKey("fee"), SortKey("code")]) throws -> [String] {
            try fresh.fetch(FetchRequest("Player", predicate: predicate, sortedBy: sortedBy))
                .map { try #require($0.value(forKey: "code") as? String) }
        }
        #expect(try codes(FetchKey("fee") < Decimal(2)) == ["P1", "P3"])
        #expect(try codes(FetchKey("fee") <= ScaledDecimal(exactly: "2.0")!) == ["P1", "P3", "P4"])
        // Equal numbers match whatever their scales, as SQL's numeric compares them.
        #expect(try codes(FetchKey("fee") == Decimal(string: "1.5")!) == ["P1", "P3"])
        #expect(try codes(FetchKey("fee") == ScaledDecimal(exactly: "1.500")!) == ["P1", "P3"])
        #expect(try codes(FetchKey("fee").among([ScaledDecimal(exactly: "2")!])) == ["P4"])
        #expect(try codes(FetchKey("fee") != 2) == ["P1", "P3", "P2"])
        #expect(try codes(FetchKey("fee") > 1, sortedBy: [SortKey("fee", ascending: false), SortKey("code")]) == ["P2", "P4", "P1", "P3"])
        #expect(try fresh.count(FetchRequest("Player", predicate: FetchKey("fee") == Decimal(string: "1.5")!)) == 2)
        // Each keeps the scale it was saved with.
        let fees = try fresh.fetch(Player.self, FetchRequest("Player", sortedBy: [SortKey("code")])).map { $0.fee?.description }
        #expect(fees == ["1.50", "12", "1.5", "2.000"])
    }

    @Test func integersCompareWithDecimalsAndDoublesAsNumbers() throws {
        let model = try Fixtures.leagueModel()
        let store = try SQLiteStore.inMemory(model: model)
        let memory = ObjectContext(model: model)
        let saved = store.newContext()
        for context in [saved, memory] {
            try context.insert("Team", values: ["name": "Lions", "budget": Decimal(string: "1250000.00")!])
            try context.insert("Team", values: ["name": "Owls", "budget": Decimal(string: "400")!])
            try context.insert("Player", values: ["code": "P1", "rating": 9_007_199_254_740_992.0])
            try context.insert("Player", values: ["code": "P2", "rating": 2.5])
            try context.insert("Player", values: ["code": "P3", "fee": Decimal(string: "2.0")!])
        }
        try saved.save()
        for context in [store.newContext(), memory] {
            func names(_ predicate: FetchPredicate) throws -> [String] {
                try context.fetch(FetchRequest("Team", predicate: predicate, sortedBy: [SortKey("name")]))
                    .map { try #require($0.value(forKey: "name") as? String) }
            }
            func codes(_ predicate: FetchPredicate) throws -> [String] {
                try context.fetch(FetchRequest("Player", predicate: predicate, sortedBy: [SortKey("code")]))
                    .map { try #require($0.value(forKey: "code") as? String) }
            }
            #expect(try names(FetchKey("budget") > 400) == ["Lions"])
            #expect(try names(FetchKey("budget") >= 400) == ["Lions", "Owls"])
            #expect(try names(FetchKey("budget") == 1_250_000) == ["Lions"])
            #expect(try names(FetchKey("budget").among([400, 7])) == ["Owls"])
            #expect(try codes(FetchKey("fee") == 2) == ["P3"])
            #expect(try codes(FetchKey("rating") > 2) == ["P1", "P2"])
            #expect(try codes(FetchKey("rating") == 9_007_199_254_740_992) == ["P1"])
            // 2⁵³ + 1 is no double: the nearest doubles decide the order, and nothing equals it.
            #expect(try codes(FetchKey("rating") == 9_007_199_254_740_993).isEmpty)
            #expect(try codes(FetchKey("rating") < 9_007_199_254_740_993) == ["P1", "P2"])
            #expect(try codes(FetchKey("rating") > 9_007_199_254_740_993).isEmpty)
            #expect(try codes(FetchKey("rating") != 9_007_199_254_740_993) == ["P1", "P2", "P3"])
            #expect(try codes(FetchKey("rating").among([9_007_199_254_740_993, 3])).isEmpty)
        }
        // Other types still say what is wrong.
        #expect(throws: ObjectError.self) { try memory.fetch(FetchRequest("Team", predicate: FetchKey("budget") == "400")) }
    }
}

/// An object whose initializer fetches from a store while the store is reading the rows of another fetch.
private final class Fetching: ManagedObject {
    @Attribute var code: String
    override class var identity: [String] { ["code"] }

    nonisolated(unsafe) static var store: SQLiteStore?
    nonisolated(unsafe) static var nestedCounts: [Int] = []

    required init(entity: Entity, context: ObjectContext?) {
        super.init(entity: entity, context: context)
        // Once per object of the outer fetch: the objects of the nested fetch itself fetch nothing.
        if let store = Self.store {
            Self.store = nil
            defer { Self.store = store }
            let request = FetchRequest("Fetching", predicate: FetchKey("code").beginsWith("z"))
            Self.nestedCounts.append((try? store.newContext().fetch(request).count) ?? -1)
        }
    }
}

extension SQLiteStorePredicateTests {
    @Test func aFetchNestedInAnotherLeavesItsValuesAlone() throws {
        let store = try SQLiteStore.inMemory(model: EntityModel(classes: [Fetching.self]))
        let writer = store.newContext()
        for code in ["a", "b", "c", "d", "zz"] { try writer.insert("Fetching", values: ["code": code]) }
        try writer.save()
        // The outer statement compares every row it scans with its bound "b" while the nested fetches bind theirs.
        Fetching.store = store
        defer { Fetching.store = nil }
        // In row order: SQLite compares each row as it steps to it, with no sort gathering the rows first.
        let request = FetchRequest("Fetching", predicate: FetchKey("code") != "b")
        let codes = try store.newContext().fetch(Fetching.self, request).map(\.code)
        #expect(codes == ["a", "c", "d", "zz"])
        #expect(Fetching.nestedCounts == [1, 1, 1, 1])
    }
}

/// A random league: its teams and players as values, built alike into any context, and random requests and edits.
private struct RandomLeague {
    var teamNames: [String] = []
    var playerCount = 0
    private var renames = 0

    init(random: inout SeededGenerator) {
        teamNames = Fixtures.leagueTeamNames
        playerCount = 60 + Int.random(in: 0..<40, using: &random)
        spec = (0..<playerCount).map { _ in PlayerSpec.random(teams: teamNames.count, &random) }
        teamSpecs = teamNames.map { _ in
            (rank: Bool.random(using: &random) ? nil : Int.random(in: 1...4, using: &random),
                budget: Bool.random(using: &random) ? nil : Fixtures.leagueDecimals.randomElement(using: &random)!)
        }
        mentors = (0..<playerCount).map { _ in
            Int.random(in: 0..<3, using: &random) == 0 ? nil : Int.random(in: 0..<playerCount, using: &random)
        }
    }

    private var spec: [PlayerSpec] = []
    private var teamSpecs: [(rank: Int?, budget: ScaledDecimal?)] = []
    private var mentors: [Int?] = []

    func build(in context: ObjectContext) throws {
        var teams: [ManagedObject] = []
        for (name, team) in zip(teamNames, teamSpecs) {
            teams.append(try context.insert("Team", values: ["name": name]))
            try teams.last!.setValue(team.rank, forKey: "rank")
            try teams.last!.setValue(team.budget, forKey: "budget")
        }
        var players: [ManagedObject] = []
        for (index, player) in spec.enumerated() {
            let object = try context.insert("Player", values: ["code": "P\(index)"])
            try player.apply(to: object, teams: teams)
            players.append(object)
        }
        for (player, mentor) in zip(players, mentors) { try player.setValue(mentor.map { players[$0] }, forKey: "mentor") }
    }

    static let stringKeys = ["name", "code", "team.name", "mentor.name", "mentor.team.name"]
    static let patterns = Fixtures.leagueNames + Fixtures.leagueTeamNames
        + ["*", "a*", "*e", "?o*", "Z", "z", "bl", "e", "*ß*", "\\*", "*b?c", "P1", "P", "1", "ë", "e\u{308}"]

    func randomRequest(_ random: inout SeededGenerator) -> FetchRequest {
        var request = FetchRequest("Player", predicate: randomPredicate(depth: 3, &random))
        if Bool.random(using: &random) {
            let keys = ["name", "score", "rating", "active", "joined", "fee", "team.name", "team.rank", "mentor.name"]
            request.sortedBy = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                SortKey(keys.randomElement(using: &random)!, ascending: Bool.random(using: &random))
            } + [SortKey("code")]
            if Bool.random(using: &random) { request.offset = Int.random(in: 0..<20, using: &random) }
            if Bool.random(using: &random) { request.limit = Int.random(in: 0..<30, using: &random) }
        }
        return request
    }

    private func randomPredicate(depth: Int, _ random: inout SeededGenerator) -> FetchPredicate {
        switch Int.random(in: 0..<(depth == 0 ? 3 : 6), using: &random) {
        case 0: return comparison(&random)
        case 1: return among(&random)
        case 2:
            let options = StringOptions(rawValue: Int.random(in: 0..<4, using: &random))
            return .string(
                Self.stringKeys.randomElement(using: &random)!,
                FetchPredicate.StringMatch.allCases.randomElement(using: &random)!,
                Self.patterns.randomElement(using: &random)!, options)
        case 3: return .not(randomPredicate(depth: depth - 1, &random))
        case 4:
            return .and((0..<Int.random(in: 0...3, using: &random)).map { _ in randomPredicate(depth: depth - 1, &random) })
        default:
            return .or((0..<Int.random(in: 0...3, using: &random)).map { _ in randomPredicate(depth: depth - 1, &random) })
        }
    }

    private func comparison(_ random: inout SeededGenerator) -> FetchPredicate {
        let (key, value) = Self.keyAndValue(&random)
        return .comparison(
            key, FetchPredicate.Comparison.allCases.randomElement(using: &random)!,
            Int.random(in: 0..<5, using: &random) == 0 ? nil : value)
    }

    private func among(_ random: inout SeededGenerator) -> FetchPredicate {
        var (key, value) = Self.keyAndValue(&random)
        var values = [value]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let (otherKey, other) = Self.keyAndValue(&random)
            if value.type == other.type { values.append(other) } else { (key, value) = (otherKey, other); values = [other] }
        }
        return .among(key, values)
    }

    /// A key and a value of its type, from the pools the league's values come from.
    static func keyAndValue(_ random: inout SeededGenerator) -> (String, AttributeValue) {
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            let pool = Fixtures.leagueNames + Fixtures.leagueTeamNames + ["P1", "P10", "P2"]
            return (stringKeys.randomElement(using: &random)!, .string(pool.randomElement(using: &random)!))
        case 1: return (["score", "team.rank", "mentor.score"].randomElement(using: &random)!, .integer(.random(in: -2...5, using: &random)))
        case 2: return ("rating", .double(Fixtures.leagueDoubles.randomElement(using: &random)!))
        case 3: return (["active", "mentor.active"].randomElement(using: &random)!, .bool(.random(using: &random)))
        case 4: return ("joined", AttributeValue(Fixtures.leagueDates.randomElement(using: &random)!, as: .date)!)
        case 5: return (["fee", "team.budget"].randomElement(using: &random)!, .decimal(Fixtures.leagueDecimals.randomElement(using: &random)!))
        case 6:
            // An integer against decimals and doubles compares as the same number.
            let key = ["fee", "team.budget", "rating"].randomElement(using: &random)!
            return (key, .integer(Fixtures.leagueIntegers.randomElement(using: &random)!))
        default: return ("mentor.team.name", .string(Fixtures.leagueTeamNames.randomElement(using: &random)!))
        }
    }

    /// An edit to apply alike to two contexts holding the league.
    mutating func randomEdit(_ random: inout SeededGenerator) -> (ObjectContext) throws -> Void {
        let code = "P\(Int.random(in: 0..<playerCount, using: &random))"
        let other = "P\(Int.random(in: 0..<playerCount, using: &random))"
        let team = teamNames.randomElement(using: &random)!
        func player(_ code: String, _ context: ObjectContext) throws -> ManagedObject? {
            try context.fetch(FetchRequest("Player", predicate: FetchKey("code") == code)).first
        }
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            let values = PlayerSpec.random(teams: teamNames.count, &random)
            return { context in
                guard let object = try player(code, context) else { return }
                try values.apply(to: object, teams: try context.fetch(FetchRequest("Team", sortedBy: [SortKey("name")])))
            }
        case 1:
            return { context in try player(code, context)?.setValue(try player(other, context), forKey: "mentor") }
        case 2:
            renames += 1
            let name = "\(Fixtures.leagueTeamNames.randomElement(using: &random)!) \(renames)"
            if let index = teamNames.firstIndex(of: team) { teamNames[index] = name }
            let rank = Int.random(in: 1...4, using: &random)
            return { context in
                let object = try context.fetch(FetchRequest("Team", predicate: FetchKey("name") == team)).first
                try object?.setValue(name, forKey: "name")
                try object?.setValue(rank, forKey: "rank")
            }
        case 3:
            playerCount += 1
            let values = PlayerSpec.random(teams: teamNames.count, &random)
            let newCode = "P\(playerCount - 1)"
            return { context in
                let object = try context.insert("Player", values: ["code": newCode])
                try values.apply(to: object, teams: try context.fetch(FetchRequest("Team", sortedBy: [SortKey("name")])))
                try object.setValue(try player(other, context), forKey: "mentor")
            }
        case 4:
            return { context in
                if let object = try player(code, context) { try context.delete(object) }
            }
        default:
            return { context in
                try player(code, context)?.setValue(
                    try context.fetch(FetchRequest("Team", predicate: FetchKey("name") == team)).first, forKey: "team")
            }
        }
    }
}

/// A player's values, random from the league's pools, nil about a fifth of the time.
private struct PlayerSpec {
    var name: String?
    var score: Int?
    var rating: Double?
    var active: Bool?
    var joined: Date?
    var fee: ScaledDecimal?
    var team: Int?

    static func random(teams: Int, _ random: inout SeededGenerator) -> PlayerSpec {
        func maybe<T>(_ value: T) -> T? { Int.random(in: 0..<5, using: &random) == 0 ? nil : value }
        return PlayerSpec(
            name: maybe(Fixtures.leagueNames.randomElement(using: &random)!),
            score: maybe(Int.random(in: -2...5, using: &random)),
            rating: maybe(Fixtures.leagueDoubles.randomElement(using: &random)!),
            active: maybe(Bool.random(using: &random)),
            joined: maybe(Fixtures.leagueDates.randomElement(using: &random)!),
            fee: maybe(Fixtures.leagueDecimals.randomElement(using: &random)!),
            team: maybe(Int.random(in: 0..<teams, using: &random)))
    }

    func apply(to object: ManagedObject, teams: [ManagedObject]) throws {
        try object.setValue(name, forKey: "name")
        try object.setValue(score, forKey: "score")
        try object.setValue(rating, forKey: "rating")
        try object.setValue(active, forKey: "active")
        try object.setValue(joined, forKey: "joined")
        try object.setValue(fee, forKey: "fee")
        try object.setValue(team.map { teams[$0 % teams.count] }, forKey: "team")
    }
}
