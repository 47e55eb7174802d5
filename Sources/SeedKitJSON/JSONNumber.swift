import Foundation

/// An exact JSON number: a 64-bit integer, a double, or a decimal that a double cannot hold exactly.
///
/// A number stands for one decimal value. A double stands for its shortest round-trip digits, so the double `0.1`
/// is the decimal 0.1, and equality is numeric across storages: `1`, `1.0` and `1e0` are equal, and so are
/// `JSONNumber(0.1)` and `JSONNumber(Decimal(string: "0.1")!)`.
///
/// Numbers are always finite: `init(_: Double)` traps on NaN and infinities (a precondition, like `Int(_: Double)`),
/// and ``init(exactly:)`` is the checked alternative. That way a ``JSON`` value can always be written.
///
///     JSONNumber(42).description              // "42"
///     JSONNumber(1.0).description             // "1"
///     JSONNumber(exactly: .nan)               // nil
public struct JSONNumber: Sendable, Hashable {
    enum Storage: Sendable {
        case integer(Int64)
        case double(Double)
        case decimal(Decimal)
    }

    var storage: Storage

    public init(_ value: Int64) { storage = .integer(value) }
    public init(_ value: Int) { storage = .integer(Int64(value)) }

    /// A number holding `value`, which must be finite.
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON numbers are finite; use JSONNumber(exactly:) for unchecked doubles")
        storage = .double(value)
    }

    /// A number holding `value`, which must not be NaN.
    public init(_ value: Decimal) {
        precondition(!value.isNaN, "JSON numbers are finite; NaN has no JSON form")
        storage = .decimal(value)
    }

    /// A number holding `value`, or nil when it is NaN or infinite.
    public init?(exactly value: Double) {
        guard value.isFinite else { return nil }
        storage = .double(value)
    }

    /// The value as a 64-bit integer, when it is one exactly.
    ///
    /// A double stands for its shortest digits, so the double nearest `77777770007170700` is that integer, although
    /// its binary value is `77777770007170704`: integers come from the digits the number was written with.
    public var int64Value: Int64? {
        switch storage {
        case .integer(let value): return value
        case .double(let value):
            // Below 2^53 a double's shortest digits are its integer value; above, every double is integral, and
            // canonical text below 10^21 is plain digits (none from 2^63 up is an Int64).
            if value.magnitude < 0x1p53 { return Int64(exactly: value) }
            return value.magnitude < 0x1p64 ? Int64(description) : nil
        // Canonical integers below 10^21 are plain digits; any other canonical text is not an Int64.
        case .decimal(let value): return Int64(Self.canonicalText(of: value))
        }
    }

    /// Whether the value is an integer, of any size: `1e30` is, `77777770007170700.5` is not (although the double
    /// nearest it is).
    package var isIntegral: Bool {
        switch storage {
        case .integer: return true
        // A double's shortest digits have a fraction exactly when the double does.
        case .double(let value): return value.rounded(.towardZero) == value
        case .decimal(let value):
            let text = Self.canonicalText(of: value)
            return !text.contains(".") && !text.contains("e-")
        }
    }

    /// The nearest double.
    public var doubleValue: Double {
        switch storage {
        case .integer(let value): Double(value)
        case .double(let value): value
        // Through the exact text, because Swift's text-to-double conversion rounds correctly and
        // NSDecimalNumber's doubleValue does not always.
        case .decimal(let value): Double(value.description) ?? Double(truncating: value as NSDecimalNumber)
        }
    }

    /// The value as an exact decimal, or nil when Foundation's `Decimal` cannot hold it exactly (such as `1e300`).
    ///
    /// A double converts through its shortest round-trip digits, so `0.1` stays `0.1`.
    public var decimalValue: Decimal? {
        switch storage {
        case .integer(let value):
            return Decimal(value)
        case .double:
            return Decimal(exactly: description)
        case .decimal(let value):
            return value
        }
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)):
            return JSONNumber(b).int64Value == a
        default: return lhs.description == rhs.description
        }
    }

    public func hash(into hasher: inout Hasher) {
        // Equal numbers hash alike: integral values by their integer, the rest by their correctly rounded double,
        // which is the same double for every storage of one decimal value.
        if let integer = int64Value {
            hasher.combine(integer)
        } else {
            hasher.combine(doubleValue)
        }
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The canonical JSON text of the number, which depends only on its value.
    ///
    /// The form is ECMAScript's `Number.prototype.toString`, the one RFC 8785 (JSON Canonicalization Scheme) uses,
    /// applied to the exact decimal value: plain digits for integers below 10^21 (`1.0` is written `1`),
    /// a decimal point for magnitudes from 10^-6 up (`0.000001`), and exponent form otherwise (`1e-7`, `1.5e+300`).
    /// Doubles use their shortest round-trip digits; decimals keep all their digits.
    ///
    ///     JSONNumber(-0.0).description           // "0"
    ///     JSONNumber(1e21).description           // "1e+21"
    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        NumberText.appendCanonical(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONNumber {
    /// The number a JSON number lexeme stands for, read exactly as ``JSONDocument`` reads it;
    /// nil when the text is not one JSON number or no storage holds it exactly.
    ///
    ///     JSONNumber("0.1")          // a double
    ///     JSONNumber("1e400")        // nil
    package init?(_ text: String) {
        var text = text
        let number: JSONNumber? = text.withUTF8 { bytes in
            guard let first = bytes.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else {
                return nil
            }
            var parser = JSONParser(bytes: bytes, maxDepth: 1)
            guard let number = try? parser.parseNumber(), parser.index == bytes.count else { return nil }
            return number
        }
        guard let number else { return nil }
        self = number
    }

    static func canonicalText(of decimal: Decimal) -> String {
        var text = decimal.description
        var bytes: [UInt8] = []
        text.withUTF8 { NumberText.appendCanonical(text: $0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
