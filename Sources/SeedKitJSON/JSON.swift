import Foundation

/// A JSON value: the typed twin of the `[String: Any]` dictionary form.
///
/// Numbers keep their exact value (see ``JSONNumber``); objects compare equal whatever their key order.
///
///     let json: JSON = .object(["class": "Department", "name": "Sales"])
///     json["name"]  // .string("Sales")
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

extension JSON {
    /// The member of an object, or nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var isNull: Bool { self == .null }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// What kind of value this is.
    package var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// A short name of the value's kind, for error messages: "null", "a boolean", "a number", …
    package var kindDescription: String { kind.description }
}

/// The kinds of JSON value: what a ``JSON`` is, or a value of a ``JSONTape``.
package enum JSONKind: UInt8, Sendable {
    case null, bool, number, string, array, object

    /// A short name of the kind, for error messages: "null", "a boolean", "a number", …
    package var description: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        var members = JSONObject()
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}

extension JSON {
    /// How deeply SeedKit's documents may nest arrays and objects: every reader of template files, model files and
    /// export documents (each top-level object on its own) accepts this many levels, and every writer keeps within
    /// them (an export writes a long chain of owned objects as several top-level objects linked by references), so
    /// SeedKit never writes what it then refuses.
    public static let maxNestingDepth = 512

    /// How many levels of arrays and objects the value nests: 0 for a scalar, 1 for `[1]` or `{}`, 2 for `[[1]]`.
    ///
    /// - Complexity: O(*n*) in the size of the value, on a heap-allocated stack rather than the call stack.
    package var nestingDepth: Int {
        var deepest = 0
        var pending: [(JSON, Int)] = [(self, 1)]
        while let (value, depth) = pending.popLast() {
            switch value {
            case .array(let elements):
                deepest = max(deepest, depth)
                for element in elements { pending.append((element, depth + 1)) }
            case .object(let members):
                deepest = max(deepest, depth)
                for member in members.values { pending.append((member, depth + 1)) }
            default:
                continue
            }
        }
        return deepest
    }
}
