import Foundation
import SeedKitJSON
import SeedKitModel

/// What an export builds: `JSON` values, or the Foundation objects of the `[String: Any]` form.
///
/// The encoder is generic over it so that ``ManagedObject/toDictionary(options:)`` builds its dictionaries directly,
/// without a `JSON` tree to convert afterwards. Both forms build an object from a `[String: Value]` dictionary.
package protocol GraphOutput {
    associatedtype Value
    /// A value that fills a key of an object template until the object's own value replaces it.
    static var placeholder: Value { get }
    static func object(_ members: [String: Value]) -> Value
    static func array(_ elements: [Value]) -> Value
    static func string(_ text: String) -> Value
    static func attribute(_ value: AttributeValue) -> Value
    /// A JSON value as the output holds it.
    static func json(_ value: JSON) -> Value
}

/// Builds ``JSON`` values.
package enum JSONOutput: GraphOutput {
    package static var placeholder: JSON { .null }
    package static func object(_ members: [String: JSON]) -> JSON { .object(JSONObject(members)) }
    package static func array(_ elements: [JSON]) -> JSON { .array(elements) }
    package static func string(_ text: String) -> JSON { .string(text) }
    package static func attribute(_ value: AttributeValue) -> JSON { value.json }
    package static func json(_ value: JSON) -> JSON { value }
}

/// Builds the objects `JSONSerialization` accepts: `String`, `Int`, `Double`, `Bool`, `Decimal`, `NSNull`, arrays
/// and `[String: Any]`, the same values as ``JSON/anyValue`` of the JSON form: a decimal whose scale needs trailing
/// zeros is the `String` of its digits (`"1250000.00"`), which a `Decimal` would lose.
enum FoundationOutput: GraphOutput {
    static var placeholder: Any { () }
    static func object(_ members: [String: Any]) -> Any { members }
    static func array(_ elements: [Any]) -> Any { elements }
    static func string(_ text: String) -> Any { text }
    static func attribute(_ value: AttributeValue) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let integer): Int(integer)
        case .double(let double): double
        case .bool(let flag): flag
        case .json(let json): json.anyValue
        case .decimal, .date, .data, .uuid, .url: value.json.anyValue
        }
    }
    static func json(_ value: JSON) -> Any { value.anyValue }
}

/// The members of one object being written: a copy of a template that already holds every key, so each value lands
/// in its place without hashing its key, or, for objects too wide for templates, a dictionary filled key by key.
struct MembersBuilder<Value> {
    private(set) var members: [String: Value]
    /// Where each property slot's key sits in `members` (see ``ExportLayout``); empty when keys are hashed one by one.
    private let positions: [Dictionary<String, Value>.Index]

    init(template: ObjectTemplate<Value>) {
        members = template.members
        positions = template.positions
    }

    init(capacity: Int, classValue: Value) {
        members = Dictionary(minimumCapacity: capacity)
        members["class"] = classValue
        positions = []
    }

    @inline(__always)
    mutating func set(_ value: Value, slot: Int, key: String) {
        if positions.isEmpty {
            members[key] = value
        } else {
            // Assigning through an index replaces the value in place: no hashing, no probing.
            members.values[positions[slot]] = value
        }
    }
}

/// An object of one entity with one set of keys present, every value but `"class"` a placeholder; copies of it share
/// its bucket layout, so the index of each key stays valid in every copy.
struct ObjectTemplate<Value> {
    let presence: UInt64
    let members: [String: Value]
    /// The index of each property slot's key in `members`; `members.startIndex` for slots that are absent.
    let positions: [Dictionary<String, Value>.Index]
}
