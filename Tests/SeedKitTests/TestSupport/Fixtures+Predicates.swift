import Foundation
import SeedKit

// A league for predicate tests: players in teams, each perhaps mentored by another player, with a value of every
// kind a predicate compares (text in several Unicode spellings, numbers, flags, dates, decimals) and nils.

final class Team: ManagedObject {
    @Attribute var name: String
    @Attribute var rank: Int?
    @Attribute var budget: ScaledDecimal?
    @Relationship(inverse: "team") var players: [Player]
    override class var identity: [String] { ["name"] }
}

final class Player: ManagedObject {
    @Attribute var code: String
    @Attribute var name: String?
    @Attribute var score: Int?
    @Attribute var rating: Double?
    @Attribute var active: Bool?
    @Attribute var joined: Date?
    @Attribute var fee: ScaledDecimal?
    @Relationship(inverse: "players") var team: Team?
    @Relationship(inverse: "mentees") var mentor: Player?
    @Relationship(inverse: "mentor") var mentees: [Player]
    override class var identity: [String] { ["code"] }
}

extension Fixtures {
    static func leagueModel() throws -> EntityModel {
        try EntityModel(classes: [Team.self, Player.self])
    }

    /// Names in the spellings that tell exact bytes from folded text: cases, NFC and NFD, marks, wildcards, emoji.
    static let leagueNames = [
        "Ann", "ann", "ANN", "Zoë", "Zoe\u{308}", "zoe", "ZOË", "Émile", "emile", "Ėmile", "straße", "STRASSE", "日本",
        "🙂 smile", "a*b?c", "", "Åsa", "asa", "Ǆemal", "ǆemal", "Bob", "bobby",
    ]
    static let leagueTeamNames = ["Reds", "reds", "Blues", "Bleus", "Blëus", "Greens", "🟢"]
    /// Decimals with equal numbers at several scales (1.5 and 1.50; 100 and 100.0), which compare as numbers.
    static let leagueDecimals = ["1.5", "1.50", "-3", "100", "100.0", "0.001"].map { ScaledDecimal(exactly: $0)! }
    static let leagueDoubles: [Double] = [-1.5, 0, -0.0, 2.25, 1e10, 0.1]
    /// Integers to compare with the decimals and doubles: some equal to one, and one (2⁵³ + 1) no double holds.
    static let leagueIntegers: [Int64] = [-3, 0, 1, 2, 100, 10_000_000_000, 9_007_199_254_740_993]
    static let leagueDates = [0, 86_400, 1_700_000_000, -31_536_000].map { Date(timeIntervalSince1970: TimeInterval($0)) }
}
