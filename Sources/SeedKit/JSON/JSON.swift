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
    case object([String: JSON])
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

    public var objectValue: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// A short name of the value's kind, for error messages: "null", "a boolean", "a number", …
    public var kindDescription: String {
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
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// An exact JSON number: a 64-bit integer, a double, or a decimal that a double cannot hold exactly.
///
/// Equality is numeric: `1`, `1.0` and `1e0` are equal.
public struct JSONNumber: Sendable, Hashable {
    enum Storage: Sendable {
        case integer(Int64)
        case double(Double)
        case decimal(Decimal)
    }

    var storage: Storage

    public init(_ value: Int64) { storage = .integer(value) }
    public init(_ value: Int) { storage = .integer(Int64(value)) }
    public init(_ value: Double) { storage = .double(value) }
    public init(_ value: Decimal) { storage = .decimal(value) }

    /// The value as a 64-bit integer, when it is one exactly.
    public var int64Value: Int64? {
        switch storage {
        case .integer(let value): return value
        case .double(let value):
            guard value.rounded(.towardZero) == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        case .decimal(let value):
            guard value.isFinite, !value.isNaN else { return nil }
            var rounded = Decimal()
            var copy = value
            NSDecimalRound(&rounded, &copy, 0, .plain)
            guard rounded == value else { return nil }
            return Int64(exactly: NSDecimalNumber(decimal: value).int64Value).flatMap {
                Decimal($0) == value ? $0 : nil
            }
        }
    }

    /// The nearest double.
    public var doubleValue: Double {
        switch storage {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        }
    }

    /// The value as an exact decimal. A double converts through its shortest round-trip digits, so `0.1` stays `0.1`.
    public var decimalValue: Decimal? {
        switch storage {
        case .integer(let value): Decimal(value)
        case .double(let value): value.isFinite ? Decimal(string: "\(value)", locale: nil) : nil
        case .decimal(let value): value
        }
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)):
            return Double(a) == b && Int64(exactly: b) == a
        default: return lhs.decimalValue == rhs.decimalValue
        }
    }

    public func hash(into hasher: inout Hasher) {
        // Equal numbers hash alike: integral values by their integer, the rest by their nearest double.
        if let integer = int64Value {
            hasher.combine(integer)
        } else {
            hasher.combine(doubleValue)
        }
    }
}
