import Foundation
import Testing
import SeedKit
import SeedKitJSON
@testable import SeedKitModel

/// Reading an attribute's value from a template's tape (``AttributeValue/init(tape:entry:as:dateFormat:)``) is reading
/// it from its JSON value: the same value where it reads one, and the JSON reader decides the rest.
@Suite("AttributeValue from JSON")
struct AttributeValueJSONTests {
    /// Values of every kind, those of the usual types written as templates write them, and the edges of each type.
    private static let text = #"""
        ["Ann", "", "zoë 😀", "a\"b\\c", "2024-05-01T09:30:00Z", "2024-05-01T09:30:00.25+02:00", "2024-05-01",
         "2024-13-01T00:00:00Z", "2024-05-01T09:30:00\u005a", "12.50", "0.10", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
         "https://example.com/a", "aGVsbG8=", 0, -0, 42, -9223372036854775808, 9223372036854775807,
         9223372036854775808, 77777770007170700.0, 1.5, -0.25, 1e300, 1e-300, 1714555800, 1714555800123.5,
         123456789012345678901234567890, 0.100000000000000000000000000000000001, true, false, null, [], [1, "a"],
         {}, {"a": 1}]
        """#

    @Test func readsEveryValueAsItsJSONValueReads() throws {
        let tape = JSONTape()
        try tape.read(Array(Self.text.utf8), file: nil)
        let document = try JSONDocument(parsing: Self.text).value
        var fastReads = 0
        var entry = 1
        for json in document.arrayValue! {
            for type in AttributeType.allCases {
                for dateFormat in AttributeDescription.DateFormat.allCases {
                    let fromJSON = try? AttributeValue(json: json, as: type, dateFormat: dateFormat)
                    guard let fromTape = AttributeValue(tape: tape, entry: entry, as: type, dateFormat: dateFormat) else {
                        continue
                    }
                    fastReads += 1
                    #expect(fromTape == fromJSON, "\(json) as \(type) (\(dateFormat))")
                }
            }
            entry = tape.next(after: entry)
        }
        #expect(entry == tape.next(after: 0), "every element walked")
        #expect(fastReads > 60)
    }

    @Test func readsTheUsualValuesFromTheText() throws {
        let tape = JSONTape()
        try tape.read(Array(#"["Ann", 42, 1.5, true, "2024-05-01T09:30:00Z", 12.5]"#.utf8), file: nil)
        let types: [AttributeType] = [.string, .integer, .double, .bool, .date, .decimal]
        for (offset, type) in types.enumerated() {
            #expect(AttributeValue(tape: tape, entry: offset + 1, as: type, dateFormat: .iso8601) != nil, "\(type)")
        }
    }
}
