import Foundation
import SeedKitJSON

/// A value of an attribute: one case per ``AttributeType``.
///
/// A missing value is `nil` of `AttributeValue?`; `.json(.null)` is a present JSON null.
///
///     let budget: AttributeValue = .decimal(ScaledDecimal(exactly: "1250000.50")!)
///     budget.type  // .decimal
public enum AttributeValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case decimal(ScaledDecimal)
    case date(Timestamp)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    case json(JSON)

    /// The attribute type this value belongs to.
    public var type: AttributeType {
        switch self {
        case .string: .string
        case .integer: .integer
        case .double: .double
        case .bool: .bool
        case .decimal: .decimal
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .url: .url
        case .json: .json
        }
    }

    /// The value as the Swift value key-value coding hands out: `String`, `Int64`, `Double`, `Bool`, `Decimal`,
    /// `Date`, `Data`, `UUID`, `URL` or `JSON`. A decimal is its number, without its scale.
    package var anyValue: Any {
        switch self {
        case .string(let value): value
        case .integer(let value): value
        case .double(let value): value
        case .bool(let value): value
        case .decimal(let value): value.value
        case .date(let value): value.date
        case .data(let value): value
        case .uuid(let value): value
        case .url(let value): value
        case .json(let value): value
        }
    }

    /// Converts a Swift value to a value of `type`, or returns nil when it is not one.
    ///
    /// Integers of every width convert to `.integer` when they fit; `Int` and `Float` convert to `.double`;
    /// a `Date` converts to `.date`; a `Decimal` or an integer to a decimal with its own scale (see ``ScaledDecimal``).
    /// Strings are never parsed here: that is the coding layer's job.
    package init?(_ value: Any, as type: AttributeType) {
        switch type {
        case .string:
            guard let value = value as? String else { return nil }
            self = .string(value)
        case .integer:
            guard let integer = Self.int64(from: value) else { return nil }
            self = .integer(integer)
        case .double:
            let double: Double
            if let value = value as? Double { double = value }
            else if let value = value as? Float { double = Double(value) }
            else if let integer = Self.int64(from: value), let exact = Double(exactly: integer) { double = exact }
            else { return nil }
            guard double.isFinite else { return nil }
            self = .double(double)
        case .bool:
            guard let value = value as? Bool else { return nil }
            self = .bool(value)
        case .decimal:
            if let value = value as? ScaledDecimal { self = .decimal(value) }
            else if let value = value as? Decimal { self = .decimal(ScaledDecimal(value)) }
            else if let integer = Self.int64(from: value) { self = .decimal(ScaledDecimal(Decimal(integer))) }
            else { return nil }
        case .date:
            if let value = value as? Date { self = .date(Timestamp(value)) }
            else if let value = value as? Timestamp { self = .date(value) }
            else { return nil }
        case .data:
            guard let value = value as? Data else { return nil }
            self = .data(value)
        case .uuid:
            guard let value = value as? UUID else { return nil }
            self = .uuid(value)
        case .url:
            guard let value = value as? URL else { return nil }
            self = .url(value)
        case .json:
            guard let value = value as? JSON else { return nil }
            self = .json(value)
        }
    }

    private static func int64(from value: Any) -> Int64? {
        switch value {
        case let value as Bool: _ = value; return nil
        case let value as Int: return Int64(value)
        case let value as Int64: return value
        case let value as Int32: return Int64(value)
        case let value as Int16: return Int64(value)
        case let value as Int8: return Int64(value)
        case let value as UInt: return Int64(exactly: value)
        case let value as UInt64: return Int64(exactly: value)
        case let value as UInt32: return Int64(value)
        case let value as UInt16: return Int64(value)
        case let value as UInt8: return Int64(value)
        default: return nil
        }
    }
}
