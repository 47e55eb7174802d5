import Foundation
import Testing
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding

/// The hashes the ledger records and the plan compares: of the canonical JSON of a value, written straight from the
/// value, byte for byte what the canonical JSON writer makes of it, or the hashes in ledgers already written stop
/// matching; and keys spelled one way whatever the template wrote.
@Suite("Slot hashes")
struct SlotHashTests {
    /// A value of every attribute type, in the forms that have written differently: fractions of seconds, years
    /// outside 0001-9999, escapes, whole and negative doubles.
    private static func randomValue(_ type: AttributeType, using generator: inout SeededGenerator) -> AttributeValue? {
        guard Int.random(in: 0..<5, using: &generator) != 0 else { return nil }
        switch type {
        case .string: return .string(["", "plain", "quote \" and \\ slash", "tab\tnew\nline", "✓ caf\u{E9}", "\u{1}"].randomElement(using: &generator)!)
        case .integer: return .integer(Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator))
        case .double: return .double([0, -0.0, 1, -2.5, 0.1, 1e300, 123456789.25, -1e-7].randomElement(using: &generator)!)
        case .bool: return .bool(Bool.random(using: &generator))
        case .decimal:
            let texts = ["0", "0.00", "12.05", "12.50", "-3.141592653589793238", "1e-20"]
            return .decimal(ScaledDecimal(exactly: texts.randomElement(using: &generator)!)!)
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

    @Test func attributeHashesAreOfTheCanonicalJSONOfTheValue() {
        var generator = SeededGenerator(seed: 0x7e47)
        var hasher = SlotHasher()
        for _ in 0..<50 {
            for type in AttributeType.allCases {
                let value = Self.randomValue(type, using: &generator)
                let text = (value?.json ?? .null).serialized(style: .canonical)
                #expect(hasher.attribute(value) == StableHash.value(of: text), "\(String(describing: value))")
            }
        }
    }

    @Test func identityKeysAreTheValueOrItsCanonicalJSON() throws {
        let model = try Fixtures.flatModel()
        let special = try #require(model.entity(named: "SpecialItem"))
        #expect(SeedKey(identityOf: special, values: [.integer(-12)]).text == "-12")
        #expect(SeedKey(identityOf: special, values: [.integer(-12)]).root == "Item")
        #expect(SeedKey(ownedBy: "Item", row: -3, relationship: "parts", position: 12).text == "-3/parts/12")
        #expect(SeedKey.identityText([.string("a\"b")]) == "a\"b")
        // A decimal's scale is part of its identity, as of every value it is written with.
        #expect(SeedKey.identityText([.decimal(ScaledDecimal(exactly: "1.50")!)]) == #""1.50""#)
        #expect(SeedKey.identityText([.decimal(ScaledDecimal(exactly: "1.5")!)]) == "1.5")
        var generator = SeededGenerator(seed: 0x1d)
        for type in AttributeType.allCases {
            for _ in 0..<20 {
                guard let value = Self.randomValue(type, using: &generator) else { continue }
                #expect(SeedKey.identityText([value, .integer(1)]) == JSON.array([value.json, 1]).text(style: .canonical))
            }
        }
    }

    /// Keys compare as exact bytes: canonically equivalent spellings (NFC and NFD) are two keys.
    @Test func keysCompareAsBytes() {
        let composed = SeedKey(kind: .identity, root: "Employee", text: "caf\u{E9}")
        let decomposed = SeedKey(kind: .identity, root: "Employee", text: "cafe\u{301}")
        #expect("caf\u{E9}" == "cafe\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
    }

    @Test func toOneAndJoinHashesTellTheirValuesApart() {
        #expect(SlotHash.toOne(rowID: nil, position: nil) != SlotHash.toOne(rowID: 0, position: nil))
        #expect(SlotHash.toOne(rowID: 3, position: 0) != SlotHash.toOne(rowID: 3, position: 1))
        #expect(SlotHash.join([1, 2], isOrdered: false) == SlotHash.join([2, 1], isOrdered: false))
        #expect(SlotHash.join([1, 2], isOrdered: true) != SlotHash.join([2, 1], isOrdered: true))
    }

    /// The bytes hashed are those ledgers already hold hashes of: presence flags then little-endian words for a
    /// to-one, the ordered flag then little-endian row ids (sorted when unordered) for a join list.
    @Test func toOneAndJoinHashesAreOfTheirBytes() {
        func words(_ values: [Int64]) -> [UInt8] {
            values.flatMap { value in (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        }
        #expect(SlotHash.toOne(rowID: 7, position: nil) == StableHash.value(of: [1, 0] + words([7, 0])))
        #expect(SlotHash.toOne(rowID: -2, position: 300) == StableHash.value(of: [1, 1] + words([-2, 300])))
        #expect(SlotHash.join([9, -1, 5], isOrdered: true) == StableHash.value(of: [1] + words([9, -1, 5])))
        #expect(SlotHash.join([9, -1, 5], isOrdered: false) == StableHash.value(of: [0] + words([-1, 5, 9])))
        var hasher = SlotHasher()
        let rowIDs: [Int64] = [4, -1, 0, 12]
        #expect(hasher.join([3, 1, 0, 2], rowIDs: rowIDs, isOrdered: false) == SlotHash.join([12, 4], isOrdered: false))
        #expect(hasher.join([3, 0], rowIDs: rowIDs, isOrdered: true) == SlotHash.join([12, 4], isOrdered: true))
        #expect(hasher.join(nil, rowIDs: rowIDs, isOrdered: true) == SlotHash.join([], isOrdered: true))
    }

    @Test func hashIsFNV1a() {
        #expect(StableHash.hex(of: []) == "cbf29ce484222325")
        #expect(StableHash.hex(of: Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(StableHash.hex(of: Array("13900".utf8)) == "00f5898e9456454c", "16 digits, leading zeros kept")
    }
}
