import Foundation

/// Number text: the canonical form of ``JSONNumber/description`` and the writers, and the exact reading of lexemes.
package enum NumberText {
    /// Appends the canonical text of `number` (see ``JSONNumber/description``).
    package static func appendCanonical(_ number: JSONNumber, to bytes: inout [UInt8]) {
        switch number.storage {
        case .integer(let value):
            appendInteger(value, to: &bytes)
        case .double(let value):
            // Integral doubles below 2^53 print as their integer; this skips formatting digits twice for them.
            if value.rounded(.towardZero) == value, value.magnitude < 0x1p53 {
                appendInteger(Int64(value), to: &bytes)
            } else if !appendShortDecimal(value, to: &bytes) {
                var text = value.description
                text.withUTF8 { appendCanonical(text: $0, to: &bytes) }
            }
        case .decimal(let value):
            var text = value.description
            text.withUTF8 { appendCanonical(text: $0, to: &bytes) }
        }
    }

    /// Appends the canonical text of a double whose shortest digits are at most 15 and that is at least 10^-7 in
    /// magnitude, such as `1234.5` or `-0.000123`, without formatting it as a `String`; returns false, appending
    /// nothing, for any other double.
    ///
    /// Why this is exact: with k chosen so that |value| × 10^k is below 10^15, let m be that product rounded to an
    /// integer. When m / 10^k, a correctly rounded division of two exact doubles, gives `value` back, the decimal
    /// m × 10^-k reads back as `value`. Distinct decimals of at most 15 significant digits read back as distinct
    /// doubles, so no shorter decimal does: m's digits are `value`'s shortest digits, those of `description`.
    static func appendShortDecimal(_ value: Double, to bytes: inout [UInt8]) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 1e-7 && magnitude < 1e15 else { return false }
        var integerDigits = 1
        while integerDigits < 15 && magnitude >= powersOfTen[integerDigits] { integerDigits += 1 }
        if magnitude < 1 {
            integerDigits = 0
            while magnitude * powersOfTen[1 - integerDigits] < 1 { integerDigits -= 1 }
        }
        // 15 - integerDigits is at most 22, so 10^k is an exact double.
        let scale = powersOfTen[15 - integerDigits]
        let scaled = (magnitude * scale).rounded()
        guard scaled < 1e15, scaled / scale == magnitude else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { storage in
            // The digits of the scaled value, right-aligned; then without its trailing zeros.
            var start = storage.count
            var remaining = UInt64(scaled)
            while remaining > 0 {
                start -= 1
                storage[start] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
                remaining /= 10
            }
            var end = storage.count
            while storage[end - 1] == UInt8(ascii: "0") { end -= 1 }
            let decimal = DecimalDigits(
                isNegative: value < 0, digits: UnsafeMutableBufferPointer(rebasing: storage[start..<end]),
                pointPosition: storage.count - start - (15 - integerDigits))
            decimal.appendCanonical(to: &bytes)
        }
        return true
    }

    /// 10^0 through 10^22, the powers of ten that doubles hold exactly.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Appends the decimal digits of `value`.
    ///
    /// Two digits a step: one 64-bit division by 100 where one digit at a time would take two by 10 (a ledger writes
    /// six numbers per template file, an export one per integer).
    @inline(__always)
    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(UInt8(truncatingIfNeeded: magnitude) &+ 0x30)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude >= 10 {
                let pair = UInt8(truncatingIfNeeded: magnitude % 100)
                magnitude /= 100
                start -= 2
                digits[start] = pair / 10 &+ 0x30
                digits[start + 1] = pair % 10 &+ 0x30
            }
            if magnitude > 0 {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: magnitude) &+ 0x30
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends the canonical form of a number's text: a JSON number lexeme, or Swift's `description` of a
    /// finite `Double` or `Decimal` (`1e-07`, `1.0`, `-0.0`, `0.001`).
    static func appendCanonical(text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(text.count, 1)) { digits in
            let decimal = DecimalDigits(text: text, digits: digits)
            decimal.appendCanonical(to: &bytes)
        }
    }
}

/// The decimal value of a number's text: its sign, its significant digits d1…dk without leading or trailing zeros,
/// and the position n of the decimal point, so that the value is 0.d1…dk × 10^n. Zero has no digits.
struct DecimalDigits {
    var isNegative: Bool
    var digits: UnsafeMutableBufferPointer<UInt8>
    var pointPosition: Int

    init(isNegative: Bool, digits: UnsafeMutableBufferPointer<UInt8>, pointPosition: Int) {
        self.isNegative = isNegative
        self.digits = digits
        self.pointPosition = pointPosition
    }

    /// Reads `text` (`-`? digits (`.` digits)? ([eE] [+-]? digits)?), keeping its significant digits in `storage`,
    /// which must have room for `text.count` bytes.
    init(text: UnsafeBufferPointer<UInt8>, digits storage: UnsafeMutableBufferPointer<UInt8>) {
        var index = 0
        isNegative = text.first == UInt8(ascii: "-")
        if isNegative { index += 1 }
        var count = 0
        var integerDigits = 0
        var inFraction = false
        var leadingZeros = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if count == 0 && byte == UInt8(ascii: "0") {
                    // A zero before the first significant digit moves the point left when it is after the point.
                    if inFraction { leadingZeros += 1 }
                } else {
                    storage[count] = byte
                    count += 1
                    if !inFraction { integerDigits += 1 }
                }
            } else {
                break
            }
            index += 1
        }
        var exponent = 0
        if index < text.count {  // at 'e' or 'E'
            index += 1
            var exponentIsNegative = false
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentIsNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < text.count {
                // Clamped: exponents this large are out of every range, and the clamp keeps the sums from overflowing.
                exponent = min(exponent * 10 + Int(text[index] &- 0x30), 1_000_000_000)
                index += 1
            }
            if exponentIsNegative { exponent = -exponent }
        }
        while count > 0 && storage[count - 1] == UInt8(ascii: "0") { count -= 1 }
        digits = UnsafeMutableBufferPointer(rebasing: storage[..<count])
        pointPosition = count == 0 ? 0 : integerDigits - leadingZeros + exponent
        if count == 0 { isNegative = false }
    }

    /// Appends ECMAScript's `Number.prototype.toString` form of the value.
    func appendCanonical(to bytes: inout [UInt8]) {
        let k = digits.count
        let n = pointPosition
        if k == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if isNegative { bytes.append(UInt8(ascii: "-")) }
        let all = UnsafeBufferPointer(digits)
        if k <= n && n <= 21 {
            bytes.append(contentsOf: all)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n - k))
        } else if 0 < n && n <= 21 {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: all[..<n]))
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: all[n...]))
        } else if -6 < n && n <= 0 {
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -n))
            bytes.append(contentsOf: all)
        } else {
            bytes.append(all[0])
            if k > 1 {
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: all[1...]))
            }
            bytes.append(UInt8(ascii: "e"))
            bytes.append(n - 1 < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            NumberText.appendInteger(Int64((n - 1).magnitude), to: &bytes)
        }
    }
}
