import Foundation
import SeedKitJSON

// Epoch numbers for timestamps, exact: a template's `1714555800.25` is that many seconds, never a double's nearest.

extension Timestamp {
    /// The first and last second of the years 0001-9999, the years an ISO 8601 date can name.
    private static let epochRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// The timestamp `number` seconds or milliseconds (as `format` says) after 1970-01-01T00:00:00Z.
    ///
    ///     try Timestamp(epoch: JSONNumber(1714555800), format: .secondsSince1970).iso8601String
    ///     // "2024-05-01T09:30:00Z"
    ///     try Timestamp(epoch: JSONNumber("1714555800000.5")!, format: .millisecondsSince1970).nanoseconds  // 500_000
    ///
    /// - Throws: ``AttributeValueError`` for a fraction finer than a nanosecond, or a time outside the years 0001-9999.
    /// - Complexity: O(*d*) in the number's digits.
    package init(epoch number: JSONNumber, format: AttributeDescription.DateFormat) throws(AttributeValueError) {
        let unitDigits = format == .millisecondsSince1970 ? 3 : 0
        let unit = format == .millisecondsSince1970 ? "milliseconds" : "seconds"
        // Worked out for an error only: a number's text costs more than reading it.
        var outOfRange: AttributeValueError {
            AttributeValueError("\(number) \(unit) since 1970 is outside the years 0001-9999", isOutOfRange: true)
        }
        // Whole numbers, as most epochs are, without taking their text apart.
        if let whole = number.int64Value {
            let (seconds, milliseconds) = unitDigits == 0 ? (whole, 0) : whole.flooredQuotientAndRemainder(dividingBy: 1_000)
            guard Self.epochRange.contains(seconds) else { throw outOfRange }
            self.init(seconds: seconds, nanoseconds: Int32(milliseconds) * 1_000_000)
            return
        }
        // The canonical text's bytes, taken apart: no string made.
        var canonical: [UInt8] = []
        canonical.reserveCapacity(32)
        NumberText.appendCanonical(number, to: &canonical)
        guard let text = ExactDecimalText(canonical) else {
            throw AttributeValueError("\(number) is not a number of \(unit) since 1970")
        }
        // The value in nanoseconds is the significant digits followed by `shift` zeros.
        let shift = text.exponent + 9 - unitDigits
        guard text.significantDigits.isEmpty || shift >= 0 else {
            throw AttributeValueError("\(number) \(unit) since 1970 is finer than a nanosecond", isOutOfRange: true)
        }
        // 12 digits of seconds reach past the year 9999; more cannot be in range.
        guard text.significantDigits.count + shift <= 21 else { throw outOfRange }
        var wholeSeconds: Int64 = 0
        var fraction: Int64 = 0
        let digitCount = text.significantDigits.count + shift
        for position in 0..<digitCount {
            let digit = position < text.significantDigits.count
                ? Int64(text.significantDigits[position] - UInt8(ascii: "0")) : 0
            if position < digitCount - 9 {
                wholeSeconds = wholeSeconds * 10 + digit
            } else {
                fraction = fraction * 10 + digit
            }
        }
        if text.isNegative {
            wholeSeconds = -wholeSeconds
            if fraction > 0 {
                wholeSeconds -= 1
                fraction = 1_000_000_000 - fraction
            }
        }
        guard Self.epochRange.contains(wholeSeconds) else { throw outOfRange }
        self.init(seconds: wholeSeconds, nanoseconds: Int32(fraction))
    }

    /// The number of seconds or milliseconds (as `format` says) since 1970-01-01T00:00:00Z: an integer when it is
    /// one, else an exact decimal.
    ///
    ///     Timestamp(seconds: -1, nanoseconds: 500_000_000).epochNumber(format: .secondsSince1970)   // -0.5
    ///
    /// ``init(epoch:format:)`` reads it back to an equal timestamp.
    package func epochNumber(format: AttributeDescription.DateFormat) -> JSONNumber {
        let perSecond: Int64 = format == .millisecondsSince1970 ? 1_000 : 1
        let nanosecondsPerUnit = 1_000_000_000 / perSecond
        if Int64(nanoseconds) % nanosecondsPerUnit == 0 {
            let (scaled, overflows) = seconds.multipliedReportingOverflow(by: perSecond)
            let (units, sumOverflows) = scaled.addingReportingOverflow(Int64(nanoseconds) / nanosecondsPerUnit)
            if !overflows && !sumOverflows { return JSONNumber(units) }
        }
        // Exact: a decimal holds 38 digits, and these are at most 19 before the point and 9 after.
        let fraction = Decimal(sign: .plus, exponent: perSecond == 1 ? -9 : -6, significand: Decimal(Int64(nanoseconds)))
        return JSONNumber(Decimal(seconds) * Decimal(perSecond) + fraction)
    }
}
