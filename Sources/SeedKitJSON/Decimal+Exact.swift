import Foundation

// Exact text for decimals. `Decimal(string:)` alone is not enough to read one: it accepts a valid prefix ("1.5abc" is
// 1.5), reads the decimal separator of its locale, and silently drops digits past its precision.

extension Decimal {
    /// The decimal a JSON number text names, or nil when the text is not a JSON number or a `Decimal` cannot hold its
    /// value exactly.
    ///
    /// The grammar is JSON's: an optional '-', an integer part without leading zeros, an optional fraction and an
    /// optional exponent (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), with no space around it.
    /// A `Decimal` holds 38 significant digits (39 below 2^128) times a power of ten from -128 to 127, so a value that
    /// needs more digits, or a smaller power of ten, is rejected rather than rounded. Above 10^127 the digits are
    /// padded with zeros (`2.5e130` is 2500 × 10^127), which `Decimal(string:)` alone refuses. Zero is exact at any
    /// exponent, and "-0" is 0. The JSON reader and every store read decimals through this one rule.
    ///
    ///     Decimal(exactly: "12345678901234567890.123")  // 12345678901234567890.123
    ///     Decimal(exactly: "1e-7")                      // 0.0000001
    ///     Decimal(exactly: "0.1000000000000000000000000000000000000001")  // nil: 40 significant digits
    ///     Decimal(exactly: ".5")                        // nil: not JSON
    ///
    /// - Complexity: O(*n*), where *n* is the length of `text`.
    package init?(exactly text: some StringProtocol) {
        guard let number = ExactDecimalText(text.utf8) else { return nil }
        self.init(number)
    }

    /// The value of a JSON number text taken apart, or nil when a `Decimal` cannot hold it exactly.
    package init?(_ number: ExactDecimalText) {
        guard !number.significantDigits.isEmpty else {
            self = .zero
            return
        }
        var digits = number.significantDigits
        var exponent = number.exponent
        // The digits carry no trailing zeros, so no smaller mantissa can make up for a power of ten below the least.
        guard exponent >= Self.leastExponent else { return nil }
        // Above the largest power of ten, the digits can still fit with trailing zeros: 1e128 is 10 × 10^127.
        let paddingZeroCount = Swift.max(exponent - Self.largestExponent, 0)
        guard digits.count + paddingZeroCount <= Self.significantDigitCapacity else { return nil }
        digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: paddingZeroCount))
        exponent -= paddingZeroCount

        // Within these limits Foundation's parser is exact, except that 39 digits fit only below 2^128 and it rounds
        // the rest; the text it gets is plain ASCII with no locale in play.
        let canonical = (number.isNegative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e\(exponent)"
        guard let value = Decimal(string: canonical, locale: nil) else { return nil }
        if digits.count == Self.significantDigitCapacity {
            let kept = value.significand.magnitude.description.utf8.reversed().drop { $0 == UInt8(ascii: "0") }
            guard kept.elementsEqual(digits.reversed().drop { $0 == UInt8(ascii: "0") }) else { return nil }
        }
        self = value
    }

    /// Significant digits a `Decimal` can hold: its 128-bit mantissa holds any 38-digit number, and 39 below 2^128.
    fileprivate static let significantDigitCapacity = 39
    /// The range of a `Decimal`'s power of ten, an `Int8`.
    fileprivate static let largestExponent = 127
    fileprivate static let leastExponent = -128
}

/// A JSON number text taken apart: its sign, its significant digits (no leading or trailing zeros), the power of ten
/// they are multiplied by, and its scale.
package struct ExactDecimalText {
    package var isNegative = false
    /// ASCII digits, without leading or trailing zeros; empty for zero.
    package var significantDigits: [UInt8] = []
    package var exponent = 0
    /// The digits the value has after the point when written out plainly, trailing zeros included, as PostgreSQL
    /// counts a numeric's: "1.50" has 2, "1.50e1" 1, "1.5e3" 0. At least 0, at most about ``exponentLimit``.
    package var scale = 0

    /// An exponent far beyond any `Decimal`, at which reading more exponent digits stops; keeps the sum from overflowing.
    private static let exponentLimit = 1_000_000_000

    package init?(_ bytes: some Collection<UInt8>) {
        var index = bytes.startIndex
        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }

        if peek() == UInt8(ascii: "-") {
            isNegative = true
            bytes.formIndex(after: &index)
        }

        // Integer part: "0" alone, or digits from 1-9.
        guard let first = peek(), isDigit(first) else { return nil }
        var digits: [UInt8] = []
        if first == UInt8(ascii: "0") {
            bytes.formIndex(after: &index)
            if isDigit(peek()) { return nil }
        } else {
            while let byte = peek(), isDigit(byte) {
                digits.append(byte)
                bytes.formIndex(after: &index)
            }
        }

        var fractionDigitCount = 0
        if peek() == UInt8(ascii: ".") {
            bytes.formIndex(after: &index)
            guard isDigit(peek()) else { return nil }
            while let byte = peek(), isDigit(byte) {
                digits.append(byte)
                fractionDigitCount += 1
                bytes.formIndex(after: &index)
            }
        }

        var writtenExponent = 0
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            bytes.formIndex(after: &index)
            var exponentSign = 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") {
                if peek() == UInt8(ascii: "-") { exponentSign = -1 }
                bytes.formIndex(after: &index)
            }
            guard isDigit(peek()) else { return nil }
            while let byte = peek(), isDigit(byte) {
                if writtenExponent < Self.exponentLimit {
                    writtenExponent = writtenExponent * 10 + Int(byte - UInt8(ascii: "0"))
                }
                bytes.formIndex(after: &index)
            }
            writtenExponent *= exponentSign
        }
        guard index == bytes.endIndex else { return nil }
        scale = Swift.max(fractionDigitCount - writtenExponent, 0)

        let leadingZeroCount = digits.prefix { $0 == UInt8(ascii: "0") }.count
        let trailingZeroCount = digits.reversed().prefix { $0 == UInt8(ascii: "0") }.count
        if leadingZeroCount < digits.count {
            significantDigits = Array(digits[leadingZeroCount..<(digits.count - trailingZeroCount)])
            exponent = writtenExponent - fractionDigitCount + trailingZeroCount
        }
    }
}
