import Foundation

/// What an export builds: `JSON` values, or the Foundation objects of the `[String: Any]` form.
///
/// The encoder is generic over it so that ``ManagedObject/toDictionary(options:)`` builds its dictionaries directly,
/// without a `JSON` tree to convert afterwards.
protocol GraphOutput {
    associatedtype Value
    associatedtype Members
    static func members(capacity: Int) -> Members
    static func set(_ value: Value, forKey key: String, in members: inout Members)
    static func object(_ members: Members) -> Value
    static func array(_ elements: [Value]) -> Value
    static func string(_ text: String) -> Value
    static func attribute(_ value: AttributeValue) -> Value
}

/// Builds ``JSON`` values.
enum JSONOutput: GraphOutput {
    static func members(capacity: Int) -> [String: JSON] { Dictionary(minimumCapacity: capacity) }
    static func set(_ value: JSON, forKey key: String, in members: inout [String: JSON]) { members[key] = value }
    static func object(_ members: [String: JSON]) -> JSON { .object(members) }
    static func array(_ elements: [JSON]) -> JSON { .array(elements) }
    static func string(_ text: String) -> JSON { .string(text) }
    static func attribute(_ value: AttributeValue) -> JSON { value.json }
}

/// Builds the objects `JSONSerialization` accepts: `String`, `Int`, `Double`, `Bool`, `Decimal`, `NSNull`, arrays
/// and `[String: Any]`, the same values as ``JSON/anyValue`` of the JSON form.
enum FoundationOutput: GraphOutput {
    static func members(capacity: Int) -> [String: Any] { Dictionary(minimumCapacity: capacity) }
    static func set(_ value: Any, forKey key: String, in members: inout [String: Any]) { members[key] = value }
    static func object(_ members: [String: Any]) -> Any { members }
    static func array(_ elements: [Any]) -> Any { elements }
    static func string(_ text: String) -> Any { text }
    static func attribute(_ value: AttributeValue) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let integer): Int(integer)
        case .double(let double): double
        case .bool(let flag): flag
        case .decimal(let decimal): decimal
        case .json(let json): json.anyValue
        case .date, .data, .uuid, .url: value.json.anyValue
        }
    }
}
