import Foundation

extension JSON {
    /// Converts a Foundation-style value: what `JSONSerialization` produces, and what Swift code writes.
    ///
    /// Accepted: `NSNull`; `Bool` and boolean `NSNumber`s; every Swift integer type; `Double`, `Float`
    /// (through its shortest digits, so `Float(0.1)` is `0.1`); `Decimal` and `NSDecimalNumber`; other `NSNumber`s;
    /// `String`; `[Any]`; `[String: Any]`; and `JSON` itself. Non-finite numbers and other types are errors that
    /// point at the offending value.
    ///
    ///     let json = try JSON(any: ["name": "Ada", "tags": ["x", 1, true]])
    ///
    /// Recursive: the recursion is as deep as the value's nesting.
    package init(any value: Any) throws(JSONConversionError) {
        var path: [String] = []
        self = try Self.converting(value, path: &path)
    }

    /// The value as Foundation-style objects, which `JSONSerialization` accepts: `NSNull`, `Bool`, `Int` for
    /// integers, `Double` for doubles, `Decimal` for decimals, `String`, `[Any]` and `[String: Any]`.
    package var anyValue: Any {
        switch self {
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(let number):
            switch number.storage {
            case .integer(let integer): Int(integer)
            case .double(let double): double
            case .decimal(let decimal): decimal
            }
        case .string(let string): string
        case .array(let elements): elements.map(\.anyValue)
        case .object(let members):
            Dictionary(uniqueKeysWithValues: members.lazy.map { ($0.key, $0.value.anyValue) }) as [String: Any]
        }
    }

    private static func converting(_ value: Any, path: inout [String]) throws(JSONConversionError) -> JSON {
        func failure(_ message: String) -> JSONConversionError {
            JSONConversionError(pointer: JSONPointer(tokens: path), message: message)
        }
        // Foundation objects first: on Linux, casts like `as? Bool` also succeed for any NSNumber, and `as? Int`
        // for NSNumbers holding doubles, so Swift values are recognized by their exact type below.
        if value is NSNull { return .null }
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            guard let converted = JSON(number) else { throw failure("non-finite number \(number)") }
            return converted
        }
        if let json = value as? JSON { return json }
        if let string = value as? String { return .string(string) }
        if let flag = value as? Bool, type(of: value) == Bool.self { return .bool(flag) }
        if let number = integerNumber(value) { return .number(number) }
        if let double = value as? Double, type(of: value) == Double.self {
            guard let number = JSONNumber(exactly: double) else { throw failure("non-finite number \(double)") }
            return .number(number)
        }
        if let float = value as? Float, type(of: value) == Float.self {
            guard float.isFinite, let number = JSONNumber(float.description) else {
                throw failure("non-finite number \(float)")
            }
            return .number(number)
        }
        if let decimal = value as? Decimal, type(of: value) == Decimal.self {
            guard !decimal.isNaN else { throw failure("NaN decimal") }
            return .number(JSONNumber(decimal))
        }
        if let members = value as? [String: Any] {
            var object = JSONObject()
            for (key, member) in members {
                path.append(key)
                object[key] = try converting(member, path: &path)
                path.removeLast()
            }
            return .object(object)
        }
        if let elements = value as? [Any] {
            var array: [JSON] = []
            array.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(String(index))
                array.append(try converting(element, path: &path))
                path.removeLast()
            }
            return .array(array)
        }
        throw failure("unsupported value of type \(type(of: value))")
    }

    /// The number of a value of one of Swift's integer types, by exact type.
    private static func integerNumber(_ value: Any) -> JSONNumber? {
        func exactly<T: BinaryInteger>(_ type: T.Type) -> JSONNumber? {
            guard Swift.type(of: value) == type, let integer = value as? T else { return nil }
            if let small = Int64(exactly: integer) { return JSONNumber(small) }
            return JSONNumber(Decimal(string: String(integer))!)
        }
        return exactly(Int.self) ?? exactly(Int64.self) ?? exactly(Int32.self) ?? exactly(Int16.self)
            ?? exactly(Int8.self) ?? exactly(UInt.self) ?? exactly(UInt64.self) ?? exactly(UInt32.self)
            ?? exactly(UInt16.self) ?? exactly(UInt8.self)
    }

    /// The value of an `NSNumber`, by its class and stored type; nil when it is not finite.
    private init?(_ number: NSNumber) {
        if let decimal = number as? NSDecimalNumber {
            guard !decimal.decimalValue.isNaN else { return nil }
            self = .number(JSONNumber(decimal.decimalValue))
            return
        }
        // Booleans are instances of a private NSNumber subclass, the class of NSNumber(value: true).
        if type(of: number) == type(of: NSNumber(value: true)) {
            self = .bool(number.boolValue)
            return
        }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"):
            guard let double = JSONNumber(exactly: number.doubleValue) else { return nil }
            self = .number(double)
        case UInt8(ascii: "f"):
            let float = number.floatValue
            guard float.isFinite, let value = JSONNumber(float.description) else { return nil }
            self = .number(value)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            let unsigned = number.uint64Value
            if let small = Int64(exactly: unsigned) {
                self = .number(JSONNumber(small))
            } else {
                self = .number(JSONNumber(Decimal(string: String(unsigned))!))
            }
        default:
            self = .number(JSONNumber(number.int64Value))
        }
    }
}

/// A Foundation value that has no JSON form, with where it is.
package struct JSONConversionError: Error, Sendable, CustomStringConvertible {
    /// Where the value is in the converted value.
    package var pointer: JSONPointer
    /// What is wrong: "unsupported value of type Date".
    package var message: String

    package var description: String {
        "\(pointer.tokens.isEmpty ? "(root)" : pointer.description): \(message)"
    }
}
