import Testing
import SeedKit
@testable import SeedKitJSON

@Suite("JSON objects")
struct JSONObjectTests {
    @Test func keepsMembersInTheOrderTheyWereReadOrAdded() throws {
        var members = try #require(try JSONDocument(parsing: #"{"b": 1, "a": 2, "c": 3}"#).value.objectValue)
        #expect(members.keys == ["b", "a", "c"])
        members["d"] = 4
        #expect(members.removeValue(forKey: "a") == 2)
        #expect(members.updateValue(5, forKey: "b") == 1)
        #expect(members.map(\.key) == ["b", "c", "d"])
        #expect(Array(members.values) == [5, 3, 4])
        #expect(members["a"] == nil && members["c"] == 3 && members.count == 3)
        members["c"] = nil
        #expect(members.keys == ["b", "d"])
    }

    @Test func comparesAndHashesWhateverTheKeyOrder() {
        let first: JSONObject = ["a": 1, "b": [true, nil], "c": ["x": "y"]]
        let second: JSONObject = ["c": ["x": "y"], "a": 1.0, "b": [true, nil]]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != ["a": 1, "b": [true, nil], "c": ["x": "z"]])
        #expect(first != ["a": 1, "b": [true, nil]])
        #expect(first != ["a": 1, "b": [true, nil], "d": ["x": "y"]])
    }

    @Test func recordsThatShareKeysChangeIndependently() throws {
        let records = try #require(
            try JSONDocument(parsing: #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]"#)
                .value.arrayValue?.compactMap(\.objectValue))
        #expect(records[0].hasSameLayout(as: records[1]) && records[1].hasSameLayout(as: records[2]))
        var changed = records[1]
        changed["extra"] = true
        changed["id"] = nil
        #expect(changed.keys == ["name", "extra"] && changed["name"] == "b")
        #expect(records[0].keys == ["id", "name"] && records[1].keys == ["id", "name"] && records[2].keys == ["id", "name"])
        #expect(records.map { $0["id"] } == [1, 2, 3])
        // Equal records with one layout compare by position; with another, by key.
        #expect(records[1] != changed && JSON.object(records[0]) == ["name": "a", "id": 1])
    }

    @Test func findsKeysOfLargeObjectsAsTheyChange() {
        var members: JSONObject = [:]
        for number in 0..<40 { members["k\(number)"] = .number(JSONNumber(number)) }
        for number in stride(from: 0, to: 40, by: 3) { members["k\(number)"] = nil }
        members["k0"] = "again"
        for number in 1..<40 {
            #expect(members["k\(number)"] == (number % 3 == 0 ? nil : .number(JSONNumber(number))), "k\(number)")
        }
        #expect(members["k0"] == "again" && members.keys.last == "k0" && members.count == 27)
        // A copy keeps its members when the original changes, and the other way round.
        let copy = members
        members["k1"] = nil
        members["new"] = 1
        #expect(copy["k1"] == 1 && copy["new"] == nil && members["k1"] == nil && members["new"] == 1)
    }

    @Test func convertsFromADictionaryAndBack() {
        let dictionary: [String: JSON] = ["a": 1, "b": "two", "c": [3]]
        let members = JSONObject(dictionary)
        #expect(members.dictionary == dictionary)
        #expect(members == ["c": [3], "b": "two", "a": 1])
        #expect(members.mapValues { _ in .null } == ["a": nil, "b": nil, "c": nil])
    }
}
