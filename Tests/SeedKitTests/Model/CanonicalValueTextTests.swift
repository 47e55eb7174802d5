import Foundation
import Testing
import SeedKit
import SeedKitJSON
@testable import SeedKitModel

/// The canonical text of attribute values, which ledgers hold hashes of: written straight from each value, it is byte
/// for byte the canonical JSON of the value's JSON form.
@Suite("CanonicalValueText")
struct CanonicalValueTextTests {
    /// Values of every type, read from texts at each type's edges: integral, negative, tiny and huge doubles, decimals
    /// with and without trailing zeros, strings that need escapes, dates with and without fractions.
    private static let text = #"""
        ["Ann", "", "zoë 😀", "a\"b\\c\n\u0001", "2024-05-01T09:30:00Z", "2024-05-01T09:30:00.25+02:00",
         "12.50", "0.10", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "https://example.com/a", "aGVsbG8=", 0, -0, 42,
         -9223372036854775808, 9223372036854775807, 77777770007170700.0, 1.5, -0.25, 0.1, 1234.25, 1e-7, 1e15, 1e300,
         1e-300, 9007199254740993, 1714555800123.5, 123456789012345678901234567890, true, false, [1, "a"], {"b": 1, "a": 2}]
        """#

    @Test func everyValueIsWrittenAsItsJSONFormIs() throws {
        let document = try JSONDocument(parsing: Self.text).value
        var checked = 0
        for json in document.arrayValue! {
            for type in AttributeType.allCases {
                guard let value = try? AttributeValue(json: json, as: type) else { continue }
                var text = CanonicalValueText()
                text.append(value)
                #expect(text.bytes == value.json.serialized(style: .canonical), "\(value) as \(type)")
                checked += 1
            }
        }
        #expect(checked > 40)
    }
}
