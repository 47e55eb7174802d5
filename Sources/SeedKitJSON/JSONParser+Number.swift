import Foundation

extension JSONParser {
    /// Reads a number exactly; `index` is at its first byte ('-' or a digit).
    ///
    /// Integer lexemes that fit 64 bits become integers. Other numbers become doubles when the double's shortest
    /// digits are the written value, else decimals when `Decimal` holds them exactly; anything else is an error.
    mutating func parseNumber() throws(JSONParseFailure) -> JSONNumber {
        let start = index
        var position = index
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }
        let integerStart = position
        guard position < bytes.count, isDigit(bytes[position]) else {
            index = position
            throw failure(expected: "a digit after '-'")
        }
        // The digits as one integer, read as they are skipped; it wraps around past 19 digits, when it is not used.
        var digits: UInt64 = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count && isDigit(bytes[position]) {
                throw JSONParseFailure(offset: start, message: "leading zeros are not allowed")
            }
        } else {
            position = skipDigits(from: position, into: &digits)
        }
        let integerEnd = position
        var fractionEnd = position
        var exponent = 0
        var isInteger = true
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                index = position
                throw failure(expected: "a digit after '.'")
            }
            position = skipDigits(from: position, into: &digits)
            fractionEnd = position
        }
        if position < bytes.count && bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentIsNegative = false
            if position < bytes.count && (bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+")) {
                exponentIsNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                index = position
                throw failure(expected: "a digit in the exponent")
            }
            while position < bytes.count && isDigit(bytes[position]) {
                // Clamped: such exponents are out of every range, and the clamp keeps the arithmetic from overflowing.
                exponent = min(exponent &* 10 &+ Int(bytes[position] &- 0x30), 1_000_000_000)
                position += 1
            }
            if exponentIsNegative { exponent = -exponent }
        }
        index = position

        let fractionDigits = max(fractionEnd - integerEnd - 1, 0)
        let digitCount = integerEnd - integerStart + fractionDigits
        if isInteger && digitCount <= 18 {
            // Eighteen digits always fit 64 bits.
            let value = Int64(digits)
            return JSONNumber(isNegative ? -value : value)
        }
        // At most 15 digits, so that they are an exact double, and an exact power of ten: one operation rounds
        // correctly, and the nearest double prints back as the same digits (`numberFromDigits` decides the same way
        // after taking off trailing zeros, and the exact quotient is the same number either way).
        let scale = exponent - fractionDigits
        if digitCount <= 15 && (-22...22).contains(scale) {
            let magnitude =
                scale < 0 ? Double(digits) / Self.powersOfTen[-scale] : Double(digits) * Self.powersOfTen[scale]
            return JSONNumber(isNegative ? -magnitude : magnitude)
        }
        return try numberFromDigits(
            start: start, isNegative: isNegative, integer: integerStart..<integerEnd,
            fraction: (integerEnd + 1)..<max(fractionEnd, integerEnd + 1), exponent: exponent, isInteger: isInteger,
            digits: digits)
    }

    /// The exact number of a validated lexeme that is not a short integer; `digits` are its integer and fraction
    /// digits read as one integer, which is exact when they are at most 19.
    private func numberFromDigits(
        start: Int, isNegative: Bool, integer: Range<Int>, fraction: Range<Int>, exponent: Int, isInteger: Bool,
        digits: UInt64
    ) throws(JSONParseFailure) -> JSONNumber {
        // The value is significand × 10^scale, the significand without trailing zeros and kept while it has at most
        // 19 digits; the general loop holds zeros back until a nonzero digit follows them.
        var significand: UInt64 = 0
        var significantDigits = 0
        var pendingZeros = 0
        // Up to 19 digits in all, the common case, fit 64 bits as they are: read already, then trailing zeros off.
        var offset = integer.count + fraction.count <= 19 ? fraction.upperBound : integer.lowerBound
        if offset == fraction.upperBound {
            significand = digits
            if significand != 0 {
                while significand % 10 == 0 {
                    significand /= 10
                    pendingZeros += 1
                }
                significantDigits = Self.decimalDigitCount(of: significand)
            }
        }
        // Otherwise one loop over both digit runs, skipping the '.' between them, without building a collection.
        while offset < fraction.upperBound {
            if offset == integer.upperBound {
                offset = fraction.lowerBound
                continue
            }
            let digit = bytes[offset] &- 0x30
            offset += 1
            if digit == 0 {
                if significantDigits > 0 { pendingZeros += 1 }
                continue
            }
            significantDigits += pendingZeros + 1
            if significantDigits <= 19 {
                for _ in 0..<pendingZeros { significand = significand &* 10 }
                significand = significand &* 10 &+ UInt64(digit)
            }
            pendingZeros = 0
        }
        if significantDigits == 0 {
            return JSONNumber(isNegative ? -0.0 : 0.0)
        }
        let scale = exponent - fraction.count + pendingZeros
        let lexeme = UnsafeBufferPointer(rebasing: bytes[start..<index])

        if isInteger && significantDigits <= 19 && scale >= 0 {
            var magnitude = significand
            var fits = true
            for _ in 0..<scale {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                magnitude = product
                if overflow { fits = false; break }
            }
            if fits, isNegative, magnitude <= UInt64(Int64.max) + 1 {
                return JSONNumber(Int64(truncatingIfNeeded: 0 &- magnitude))
            }
            if fits, !isNegative, magnitude <= UInt64(Int64.max) {
                return JSONNumber(Int64(magnitude))
            }
        }

        // At most 15 significant digits in the normal range: the nearest double prints back as the same digits.
        let pointPosition = significantDigits + scale
        if significantDigits <= 15 && (-290...290).contains(pointPosition) {
            if (-22...22).contains(scale) {
                // Both the significand and the power of ten are exact doubles, so one operation rounds correctly.
                let magnitude =
                    scale < 0 ? Double(significand) / Self.powersOfTen[-scale] : Double(significand) * Self.powersOfTen[scale]
                return JSONNumber(isNegative ? -magnitude : magnitude)
            }
            if let value = Double(String(decoding: lexeme, as: UTF8.self)) {
                return JSONNumber(value)
            }
        }

        if (16...17).contains(significantDigits), let magnitude = Self.shortestDouble(significand, scale: scale) {
            return JSONNumber(isNegative ? -magnitude : magnitude)
        }
        // Up to 17 digits may be a double's shortest form. With an exact power of ten, the double nearest the value
        // is within a unit or two in the last place of this estimate; the one that prints back as the text's digits
        // is what reading the text gives (shortest digits read back as their double), without reading it.
        if significantDigits <= 17 && (-22...22).contains(scale) {
            let estimate =
                scale < 0 ? Double(significand) / Self.powersOfTen[-scale] : Double(significand) * Self.powersOfTen[scale]
            func isValue(_ candidate: Double) -> Bool {
                candidate.isFinite && Self.shortestDigits(of: candidate) == (significand, scale)
            }
            if isValue(estimate) { return JSONNumber(isNegative ? -estimate : estimate) }
            for candidate in sequence(first: estimate.nextDown.nextDown, next: \.nextUp).prefix(5)
            where candidate != estimate && isValue(candidate) {
                return JSONNumber(isNegative ? -candidate : candidate)
            }
        }
        // Otherwise check that the nearest double prints back as the digits.
        if significantDigits <= 17, let value = Double(String(decoding: lexeme, as: UTF8.self)), value.isFinite,
            value != 0, Self.shortestDigits(of: value) == (significand, scale)
        {
            return JSONNumber(value)
        }
        if let decimal = Decimal(exactly: String(decoding: lexeme, as: UTF8.self)) {
            return JSONNumber(decimal)
        }
        if significantDigits > 38 {
            throw JSONParseFailure(
                offset: start,
                message:
                    "number has \(significantDigits) significant digits; none holds more than 38 exactly (39 below 2^128)")
        }
        throw JSONParseFailure(offset: start, message: "number out of range")
    }

    /// The double whose shortest text is `significand` × 10^`scale`, decided exactly without formatting a double; nil
    /// when the text is no double's shortest form, or when the answer is too close to call here.
    ///
    /// For 16 or 17 significant digits (no trailing zeros) and -22 ≤ `scale` ≤ 0, 10^-scale is an exact double P.
    /// Measuring R(v) = v − d·P, in units of the text's last digit, for a candidate double d: the text is d's shortest
    /// form exactly when d is the nearest double (|R(significand)| is below half of d's spacing, times P), no text with
    /// the same number of digits is nearer to d (|R(significand)| < ½), and neither neighbour one digit shorter
    /// reads as d (both are farther than half the spacing). R is computed exactly up to a rounding error far below the
    /// margin used here; answers within the margin go to the slower general path instead.
    static func shortestDouble(_ significand: UInt64, scale: Int) -> Double? {
        guard (-22...0).contains(scale) else { return nil }
        let power = powersOfTen[-scale]
        // Below 10^17 < 2^57, the significand is its nearest double plus an integer of magnitude at most 8.
        let approximate = Double(significand)
        let correction = Double(Int64(bitPattern: significand &- UInt64(approximate)))
        let margin = 1.0 / 1024
        var candidate = approximate / power
        // The quotient of a rounded significand is within about a unit in the last place of the nearest double.
        for _ in 0..<3 {
            // A power of two has a narrower spacing below it than above it, which these tests do not cover.
            guard candidate.significandBitPattern != 0 else { return nil }
            let product = candidate * power
            // The fused multiply-add gives the product's rounding error exactly; `approximate - product` is exact
            // (Sterbenz) because both are within a few units of the significand.
            let productError = (-product).addingProduct(candidate, power)
            let residual = (approximate - product) + (correction - productError)
            let halfSpacing = candidate.ulp * power / 2
            if residual.magnitude >= halfSpacing + margin {
                candidate = residual > 0 ? candidate.nextUp : candidate.nextDown
                continue
            }
            let lastDigit = Double(significand % 10)
            guard residual.magnitude <= halfSpacing - margin, residual.magnitude <= 0.5 - margin,
                (residual - lastDigit).magnitude >= halfSpacing + margin,
                (residual + 10 - lastDigit).magnitude >= halfSpacing + margin
            else { return nil }
            return candidate
        }
        return nil
    }

    /// The digits of the shortest text that reads back as `value`, as significand × 10^scale without trailing zeros.
    private static func shortestDigits(of value: Double) -> (significand: UInt64, scale: Int) {
        var text = value.magnitude.description
        return text.withUTF8 { text in
            var significand: UInt64 = 0
            var scale = 0
            var inFraction = false
            var position = 0
            while position < text.count {
                let byte = text[position]
                position += 1
                if byte == UInt8(ascii: ".") {
                    inFraction = true
                } else if byte == UInt8(ascii: "e") {
                    let exponentText = String(decoding: UnsafeBufferPointer(rebasing: text[position...]), as: UTF8.self)
                    scale += Int(exponentText.hasPrefix("+") ? String(exponentText.dropFirst()) : exponentText)!
                    break
                } else {
                    significand = significand * 10 + UInt64(byte &- 0x30)
                    if inFraction { scale -= 1 }
                }
            }
            while significand != 0 && significand % 10 == 0 {
                significand /= 10
                scale += 1
            }
            return (significand, scale)
        }
    }

    private static var powersOfTen: [Double] { NumberText.powersOfTen }

    /// 10^0 through 10^19, every power of ten a `UInt64` holds.
    private static let integerPowersOfTen: [UInt64] = (0...19).map { exponent in
        (0..<exponent).reduce(1) { power, _ in power * 10 }
    }

    /// The number of decimal digits of a nonzero `value`.
    ///
    /// From its bit length, which gives the digit count or one less (log10(2) ≈ 1233/4096), instead of dividing by
    /// ten once per digit: those divisions depend on each other and cost more than the rest of reading a number.
    @inline(__always)
    private static func decimalDigitCount(of value: UInt64) -> Int {
        let estimate = ((64 - value.leadingZeroBitCount) * 1233) >> 12
        return value >= integerPowersOfTen[estimate] ? estimate + 1 : estimate
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// The position after the digits from `position`, which are appended to `digits` (wrapping around).
    @inline(__always)
    private func skipDigits(from position: Int, into digits: inout UInt64) -> Int {
        var position = position
        while position < bytes.count && isDigit(bytes[position]) {
            digits = digits &* 10 &+ UInt64(bytes[position] &- 0x30)
            position += 1
        }
        return position
    }
}
