import Foundation
import Testing
import SeedKit
@testable import SeedKitJSON
@testable import SeedKitSQLite
@testable import SeedKitModel
@testable import SeedKitSeeding

/// The texts ledgers name and hash objects by: written straight from values, they must be byte for byte what the
/// canonical JSON writer makes of the same members, or the hashes in ledgers already written stop matching.
@Suite("Seed value text")
struct SeedValueTextTests {
    /// A value of every attribute type, in the forms that have written differently: fractions of seconds, years
    /// outside 0001-9999, escapes, whole and negative doubles.
    private static func randomValue(_ type: AttributeType, using generator: inout SeededGenerator) -> AttributeValue? {
        guard Int.random(in: 0..<5, using: &generator) != 0 else { return nil }
        switch type {
        case .string: return .string(["", "plain", "quote \" and \\ slash", "tab\tnew\nline", "✓ caf\u{E9}", "\u{1}"].randomElement(using: &generator)!)
        case .integer: return .integer(Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator))
        case .double: return .double([0, -0.0, 1, -2.5, 0.1, 1e300, 123456789.25, -1e-7].randomElement(using: &generator)!)
        case .bool: return .bool(Bool.random(using: &generator))
        case .decimal: return .decimal(Decimal(string: ["0", "12.05", "-3.141592653589793238", "1e-20"].randomElement(using: &generator)!)!)
        case .date:
            let seconds = [Int64(0), -1, 1_714_555_800, -62_135_596_801, 253_402_300_800, -100_000_000_000].randomElement(using: &generator)!
            let nanoseconds = [Int32(0), 1, 500_000_000, 123_456_000, 999_999_999].randomElement(using: &generator)!
            return .date(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        case .data: return .data(Data((0..<Int.random(in: 0...5, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case .uuid: return .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        case .url: return .url(URL(string: "https://example.com/a?b=c&d")!)
        case .json: return .json(["k": [1, "two", .null], "a": true])
        }
    }

    @Test func valueTextsAreTheCanonicalTextOfTheMembers() throws {
        let model = try Fixtures.flatModel()
        let group = try #require(model.entity(named: "Group"))
        var text = SeedValueText(model: model)
        var generator = SeededGenerator(seed: 0x7e47)
        for round in 0..<300 {
            let values = group.attributes.map { Self.randomValue($0.type, using: &generator) }
            let parent = Bool.random(using: &generator) ? "Group[\"p\(round)\"]" : nil
            let featured = Bool.random(using: &generator) ? "Item[\(round)]" : nil
            var texts: [UInt8] = []
            text.appendValueText(
                of: group, attribute: { values[$0] },
                toOne: { group.relationships[$0].name == "parent" ? parent : featured }, toMany: { _ in [] }, to: &texts)

            // "items" is left out: its inverse, a to-one, covers it from the other side.
            var members: [(String, JSON)] = [("$class", "Group"), ("parent", parent.map(JSON.string) ?? .null), ("featured", featured.map(JSON.string) ?? .null)]
            for (attribute, value) in zip(group.attributes, values) { members.append((attribute.name, value?.json ?? .null)) }
            let expected = JSON.object(JSONObject(uniqueKeysWithValues: members)).text(style: .canonical)
            #expect(texts == Array(expected.utf8), "\(expected)")
        }
    }

    @Test func identityKeysAreTheRootNameAndTheCanonicalArrayOfTheValues() throws {
        let model = try Fixtures.flatModel()
        let special = try #require(model.entity(named: "SpecialItem"))
        var text = SeedValueText(model: model)
        #expect(text.identityKey(special, [.integer(-12)]) == "Item[-12]")
        var generator = SeededGenerator(seed: 0x1d)
        for type in AttributeType.allCases {
            for _ in 0..<20 {
                guard let value = Self.randomValue(type, using: &generator) else { continue }
                #expect(text.identityKey(special, [value, .integer(1)]) == "Item" + JSON.array([value.json, 1]).text(style: .canonical))
            }
        }
    }
}
