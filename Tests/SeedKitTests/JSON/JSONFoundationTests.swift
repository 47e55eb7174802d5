import Foundation
import Testing
import SeedKit

@Suite("JSON and Foundation")
struct JSONFoundationTests {
    @Test func convertsWhatJSONSerializationProduces() throws {
        let text = #"{"b": [true, false, 0, 1, -3, 1.5, 18446744073709551616, 12345678901234567890.123, null], "s": "é"}"#
        let any = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let json = try JSON(any: any)
        #expect(json == (try JSONDocument(parsing: text).value))
        // Booleans stay booleans, and 0 and 1 stay numbers.
        #expect(json[JSONPointer(tokens: ["b", "0"])] == .bool(true))
        #expect(json[JSONPointer(tokens: ["b", "3"])] == 1)
    }

    @Test func convertsSwiftValues() throws {
        let any: [String: Any] = [
            "bool": true, "int": 42, "int8": Int8(-8), "uint64": UInt64.max, "double": 2.5, "float": Float(0.1),
            "decimal": Decimal(string: "0.3")!, "nsdecimal": NSDecimalNumber(string: "1.25"),
            "nsnumber": NSNumber(value: 7), "nsbool": NSNumber(value: false), "null": NSNull(),
            "array": [1, "two", [3]] as [Any], "dictionary": ["k": "v"], "json": JSON.array([1]),
        ]
        let json = try JSON(any: any)
        let expected: JSON = [
            "bool": true, "int": 42, "int8": -8, "uint64": .number(JSONNumber(Decimal(string: "18446744073709551615")!)),
            "double": 2.5, "float": 0.1, "decimal": 0.3, "nsdecimal": 1.25, "nsnumber": 7, "nsbool": false, "null": nil,
            "array": [1, "two", [3]], "dictionary": ["k": "v"], "json": [1],
        ]
        #expect(json == expected)
    }

    @Test func pointsAtUnsupportedValues() {
        #expect {
            try JSON(any: ["a": [1, Date()] as [Any]])
        } throws: { error in
            let error = error as? JSONConversionError
            return error?.pointer == JSONPointer(tokens: ["a", "1"]) && error?.message == "unsupported value of type Date"
        }
        #expect {
            try JSON(any: [Double.nan])
        } throws: { error in
            (error as? JSONConversionError)?.description == "/0: non-finite number nan"
        }
    }

    @Test func producesValuesJSONSerializationAccepts() throws {
        let text = #"""
            {"a": [1, -9223372036854775808, 0.1, 1e300, 12345678901234567890.123, 18446744073709551616],
             "b": {"c": null, "d": true, "e": "x\u0000y"}}
            """#
        let json = try JSONDocument(parsing: text).value
        let any = json.anyValue
        #expect(JSONSerialization.isValidJSONObject(any))
        let data = try JSONSerialization.data(withJSONObject: any, options: [.sortedKeys])
        #expect(try JSONDocument(parsing: data).value == json)
        #expect(try JSON(any: any) == json)
    }
}
