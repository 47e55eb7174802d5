import Foundation
import SeedKitJSON
import SeedKitModel

/// A Swift type a typed ``Attribute`` property can have: it names its ``AttributeType`` and converts to and from
/// ``AttributeValue``.
///
/// `String`, `Int`, `Int64`, `Double`, `Bool`, `Decimal`, `ScaledDecimal`, `Date`, `Timestamp`, `Data`, `UUID`, `URL`
/// and `JSON` conform, and so does `Optional` of each (an optional attribute). A `Decimal` property sees a decimal's
/// number and sets one with the number's own scale; a `ScaledDecimal` property sees and sets the scale too.
public protocol AttributeRepresentable {
    static var attributeType: AttributeType { get }
    /// Whether the property may lack a value; true only for `Optional`.
    static var isOptionalAttribute: Bool { get }
    /// The Swift value of a stored value; nil when a required value is missing.
    init?(attributeValue: AttributeValue?)
    var attributeValue: AttributeValue? { get }
}

extension AttributeRepresentable {
    public static var isOptionalAttribute: Bool { false }
}

extension Optional: AttributeRepresentable where Wrapped: AttributeRepresentable {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptionalAttribute: Bool { true }
    public init?(attributeValue: AttributeValue?) {
        self = attributeValue.flatMap { Wrapped(attributeValue: $0) }
    }
    public var attributeValue: AttributeValue? { self?.attributeValue }
}

extension String: AttributeRepresentable {
    public static var attributeType: AttributeType { .string }
    public init?(attributeValue: AttributeValue?) {
        guard case .string(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .string(self) }
}

extension Int64: AttributeRepresentable {
    public static var attributeType: AttributeType { .integer }
    public init?(attributeValue: AttributeValue?) {
        guard case .integer(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .integer(self) }
}

extension Int: AttributeRepresentable {
    public static var attributeType: AttributeType { .integer }
    public init?(attributeValue: AttributeValue?) {
        // Int is 64 bits on every platform SeedKit supports.
        guard case .integer(let value)? = attributeValue else { return nil }
        self = Int(value)
    }
    public var attributeValue: AttributeValue? { .integer(Int64(self)) }
}

extension Double: AttributeRepresentable {
    public static var attributeType: AttributeType { .double }
    public init?(attributeValue: AttributeValue?) {
        guard case .double(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .double(self) }
}

extension Bool: AttributeRepresentable {
    public static var attributeType: AttributeType { .bool }
    public init?(attributeValue: AttributeValue?) {
        guard case .bool(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .bool(self) }
}

extension Decimal: AttributeRepresentable {
    public static var attributeType: AttributeType { .decimal }
    public init?(attributeValue: AttributeValue?) {
        guard case .decimal(let value)? = attributeValue else { return nil }
        self = value.value
    }
    public var attributeValue: AttributeValue? { .decimal(ScaledDecimal(self)) }
}

extension ScaledDecimal: AttributeRepresentable {
    public static var attributeType: AttributeType { .decimal }
    public init?(attributeValue: AttributeValue?) {
        guard case .decimal(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .decimal(self) }
}

extension Timestamp: AttributeRepresentable {
    public static var attributeType: AttributeType { .date }
    public init?(attributeValue: AttributeValue?) {
        guard case .date(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .date(self) }
}

extension Date: AttributeRepresentable {
    public static var attributeType: AttributeType { .date }
    public init?(attributeValue: AttributeValue?) {
        guard case .date(let value)? = attributeValue else { return nil }
        self = value.date
    }
    public var attributeValue: AttributeValue? { .date(Timestamp(self)) }
}

extension Data: AttributeRepresentable {
    public static var attributeType: AttributeType { .data }
    public init?(attributeValue: AttributeValue?) {
        guard case .data(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .data(self) }
}

extension UUID: AttributeRepresentable {
    public static var attributeType: AttributeType { .uuid }
    public init?(attributeValue: AttributeValue?) {
        guard case .uuid(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .uuid(self) }
}

extension URL: AttributeRepresentable {
    public static var attributeType: AttributeType { .url }
    public init?(attributeValue: AttributeValue?) {
        guard case .url(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .url(self) }
}

extension JSON: AttributeRepresentable {
    public static var attributeType: AttributeType { .json }
    public init?(attributeValue: AttributeValue?) {
        guard case .json(let value)? = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .json(self) }
}
