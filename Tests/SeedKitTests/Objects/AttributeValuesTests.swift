import Foundation
import Testing
import SeedKit

@Suite("AttributeValues: an object's values, the first four in the object itself")
struct AttributeValuesTests {
    @Test("Values on both sides of the fourth read back where they were written", arguments: [0, 1, 3, 4, 5, 9])
    func valuesReadBackWhereWritten(count: Int) {
        let values: [AttributeValue?] = (0..<count).map { $0 % 3 == 0 ? nil : .integer(Int64($0)) }
        var storage = AttributeValues(values)
        #expect(Array(storage) == values)
        #expect(storage.count == count)
        var expected = values
        for index in 0..<count {
            storage[index] = .string("\(index)")
            expected[index] = .string("\(index)")
            #expect(Array(storage) == expected, "after writing \(index)")
        }
    }

    @Test("A copy changes apart from what it was copied from, the array of defaults included")
    func copiesChangeApart() {
        let defaults: [AttributeValue?] = [.string(""), nil, nil, .bool(true), .integer(1), .integer(2)]
        var changed = AttributeValues(defaults)
        let kept = changed
        changed[0] = .string("Ann")
        changed[4] = nil
        changed[5] = .integer(3)
        #expect(Array(changed) == [.string("Ann"), nil, nil, .bool(true), nil, .integer(3)])
        #expect(Array(kept) == defaults)
        #expect(defaults[4] == .integer(1) && defaults[5] == .integer(2))
    }

    @Test("Objects of an entity of more than four attributes keep their values apart, through a store and back")
    func objectsOfManyAttributesKeepTheirValues() throws {
        let model = try Fixtures.leagueModel()
        let store = try SQLiteStore.inMemory(model: model)
        let context = store.newContext()
        for index in 0..<3 {
            let player = Player(context: context)
            player.code = "P\(index)"
            player.score = index
            player.joined = Date(timeIntervalSince1970: TimeInterval(index * 86_400))
            player.fee = index == 1 ? nil : ScaledDecimal(exactly: "\(index).50")
        }
        try context.save()
        let fresh = store.newContext()
        let players = try fresh.fetch(Player.self, FetchRequest("Player", sortedBy: [SortKey("code")]))
        #expect(players.map(\.score) == [0, 1, 2])
        #expect(players.map(\.fee) == [ScaledDecimal(exactly: "0.50"), nil, ScaledDecimal(exactly: "2.50")])
        players[0].fee = nil
        players[2].joined = nil
        #expect(players.map(\.fee) == [nil, nil, ScaledDecimal(exactly: "2.50")])
        #expect(players.map { $0.joined?.timeIntervalSince1970 } == [0, 86_400, nil])
    }
}
