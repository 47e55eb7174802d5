// RFC 3339 text for timestamps, read and written byte by byte: no formatter, no calendar, no locale.

extension Timestamp {
    /// The timestamp an RFC 3339 text names, or nil when the text is not one.
    ///
    /// The accepted form is `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, strictly: a day that exists in its month,
    /// no leap second, 1 to 9 digits of fraction, and an offset applied exactly; a date alone means midnight UTC.
    ///
    ///     Timestamp(iso8601: "2024-02-29T23:30:00-01:00")?.iso8601String  // "2024-03-01T00:30:00Z"
    ///     Timestamp(iso8601: "2023-02-29")                                 // nil
    ///
    /// - Complexity: O(*n*), where *n* is the length of `text`.
    public init?(iso8601 text: some StringProtocol) {
        guard let timestamp = try? Timestamp(parsingISO8601: text) else { return nil }
        self = timestamp
    }

    /// Reads a strict RFC 3339 timestamp, or throws what is wrong with the text and where.
    ///
    /// The accepted form is `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`:
    /// - the year is 0001-9999, and the day exists in its month (February 29 only in leap years);
    /// - 'T', 't' or a space separates date and time;
    /// - the hour is 00-23, minute and second 00-59: a leap second (60) is rejected, since a timestamp cannot hold it;
    /// - the fraction of a second has 1 to 9 digits;
    /// - the time zone is 'Z', 'z', or an offset from UTC, which is applied exactly ("-00:00" means UTC).
    ///
    /// A date alone, `YYYY-MM-DD`, is also accepted and means midnight UTC at the start of that day.
    ///
    ///     try Timestamp(parsingISO8601: "2000-01-01T00:30:00+01:00").iso8601String  // "1999-12-31T23:30:00Z"
    ///     try Timestamp(parsingISO8601: "2024-13-01")
    ///     // throws "month 13 out of range 1-12"
    ///
    /// - Complexity: O(*n*), where *n* is the length of `text`.
    package init(parsingISO8601 text: some StringProtocol) throws(ISO8601ParseError) {
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(ISO8601ParseError) in try Timestamp(parsingISO8601UTF8: bytes) }
        }
        if let parsed {
            self = try parsed.get()
        } else {
            self = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(ISO8601ParseError) in
                try Timestamp(parsingISO8601UTF8: bytes)
            }
        }
    }

    /// Parses the UTF-8 of an ISO 8601 date-time, as ``init(parsingISO8601:)`` parses its text.
    ///
    /// - Complexity: O(*n*), where *n* is the number of bytes.
    package init(parsingISO8601UTF8 bytes: UnsafeBufferPointer<UInt8>) throws(ISO8601ParseError) {
        self = try RFC3339Parser.parse(bytes)
    }

    /// The canonical RFC 3339 text of the timestamp: UTC, 'Z', and the fraction of a second only when there is one,
    /// without trailing zeros.
    ///
    ///     Timestamp(seconds: 0).iso8601String                           // "1970-01-01T00:00:00Z"
    ///     Timestamp(seconds: 5, nanoseconds: 1_000).iso8601String       // "1970-01-01T00:00:05.000001Z"
    ///     Timestamp(seconds: -1, nanoseconds: 500_000_000).iso8601String  // "1969-12-31T23:59:59.5Z"
    ///
    /// ``init(iso8601:)`` reads the text back to an equal timestamp. Years outside 0001-9999, which RFC 3339 cannot
    /// write and the parser rejects, take ISO 8601's expanded form: a sign and at least four digits ("+10000", "-0001").
    ///
    /// - Complexity: O(1).
    public var iso8601String: String {
        iso8601Text(keepingEveryFractionDigit: false)
    }

    /// The ISO 8601 text, with its fraction trimmed of trailing zeros (and left out when zero), or with all nine digits
    /// so that text order is time order (see `storeText`).
    package func iso8601Text(keepingEveryFractionDigit: Bool) -> String {
        String(unsafeUninitializedCapacity: Self.longestISO8601Text) { buffer in
            writeISO8601Text(keepingEveryFractionDigit: keepingEveryFractionDigit, into: buffer)
        }
    }

    /// The same text as ``iso8601Text(keepingEveryFractionDigit:)``, appended to `bytes`, without making a string.
    package func appendISO8601Text(keepingEveryFractionDigit: Bool, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestISO8601Text) { buffer in
            let count = writeISO8601Text(keepingEveryFractionDigit: keepingEveryFractionDigit, into: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The longest ISO 8601 text: a sign and 12 year digits, "-MM-DDTHH:MM:SS", ".nnnnnnnnn", "Z".
    private static let longestISO8601Text = 40

    /// Writes the ISO 8601 text at the start of `buffer`, which has room for ``longestISO8601Text`` bytes, and
    /// returns its length.
    private func writeISO8601Text(keepingEveryFractionDigit: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let (days, secondOfDay) = seconds.flooredQuotientAndRemainder(dividingBy: 86_400)
        let date = CivilDate(daysSince1970: days)
        var writer = ASCIIWriter(buffer: buffer)
        writer.writeYear(date.year)
        writer.write(UInt8(ascii: "-"))
        writer.writeDigits(date.month, count: 2)
        writer.write(UInt8(ascii: "-"))
        writer.writeDigits(date.day, count: 2)
        writer.write(UInt8(ascii: "T"))
        writer.writeDigits(secondOfDay / 3_600, count: 2)
        writer.write(UInt8(ascii: ":"))
        writer.writeDigits(secondOfDay / 60 % 60, count: 2)
        writer.write(UInt8(ascii: ":"))
        writer.writeDigits(secondOfDay % 60, count: 2)
        if nanoseconds != 0 || keepingEveryFractionDigit {
            var fraction = Int64(nanoseconds)
            var digitCount = 9
            while fraction % 10 == 0 && !keepingEveryFractionDigit {
                fraction /= 10
                digitCount -= 1
            }
            writer.write(UInt8(ascii: "."))
            writer.writeDigits(fraction, count: digitCount)
        }
        writer.write(UInt8(ascii: "Z"))
        return writer.count
    }
}

// MARK: - Errors

extension Timestamp {
    /// Why a text is not an RFC 3339 timestamp, and where.
    ///
    ///     do { _ = try Timestamp(parsingISO8601: "2024-01-01T10:00:00") } catch {
    ///         error.message   // "missing time zone: end with 'Z' or an offset like +02:00"
    ///         error.position  // 20
    ///     }
    package struct ISO8601ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, as a sentence for the person who wrote the text.
        package var message: String
        /// The 1-based position of the character where the problem starts; one past the end for a text cut short.
        package var position: Int

        init(message: String, position: Int) {
            self.message = message
            self.position = position
        }

        package var description: String { message }
    }
}

// MARK: - Parsing

/// A one-pass reader of RFC 3339 bytes.
///
/// Every byte before the one it stops at is ASCII, so byte offsets double as character positions in messages.
private struct RFC3339Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Timestamp.ISO8601ParseError) -> Timestamp {
        var parser = RFC3339Parser(bytes: bytes)
        return try parser.parse()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func parse() throws(Timestamp.ISO8601ParseError) -> Timestamp {
        let yearStart = index
        let year = try digits(4, of: "year")
        guard year >= 1 else { throw rangeError("year \(year) out of range 1-9999", at: yearStart) }
        try expect(UInt8(ascii: "-"), "'-' after the year")
        let monthStart = index
        let month = try digits(2, of: "month")
        guard (1...12).contains(month) else { throw rangeError("month \(month) out of range 1-12", at: monthStart) }
        try expect(UInt8(ascii: "-"), "'-' after the month")
        let dayStart = index
        let day = try digits(2, of: "day")
        let daysInMonth = CivilDate.daysInMonth(month, year: Int64(year))
        guard (1...daysInMonth).contains(day) else {
            let monthName = CivilDate.monthNames[month - 1]
            throw rangeError("day \(day) out of range 1-\(daysInMonth) for \(monthName) \(year)", at: dayStart)
        }
        let days = CivilDate(year: Int64(year), month: month, day: day).daysSince1970

        if index == bytes.count {
            return Timestamp(seconds: days * 86_400)
        }
        switch bytes[index] {
        case UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " "): index += 1
        default: throw syntaxError(expected: "'T' or ' ' after the date")
        }

        let hourStart = index
        let hour = try digits(2, of: "hour")
        guard hour <= 23 else { throw rangeError("hour \(hour) out of range 0-23", at: hourStart) }
        try expect(UInt8(ascii: ":"), "':' after the hour")
        let minuteStart = index
        let minute = try digits(2, of: "minute")
        guard minute <= 59 else { throw rangeError("minute \(minute) out of range 0-59", at: minuteStart) }
        try expect(UInt8(ascii: ":"), "':' after the minute")
        let secondStart = index
        let second = try digits(2, of: "second")
        if second == 60 {
            throw rangeError("leap second 60 is not supported: second must be 0-59", at: secondStart)
        }
        guard second <= 59 else { throw rangeError("second \(second) out of range 0-59", at: secondStart) }

        var nanoseconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            nanoseconds = try fraction()
        }

        let offsetSeconds = try timeZoneOffset()
        guard index == bytes.count else { throw syntaxError(expected: "the end of the text after the time zone") }

        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetSeconds)
        return Timestamp(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    /// The 1 to 9 digits after the '.', in nanoseconds.
    private mutating func fraction() throws(Timestamp.ISO8601ParseError) -> Int {
        var value = try digits(1, of: "fraction of a second")
        var digitCount = 1
        while index < bytes.count, let digit = bytes[index].asciiDigitValue {
            guard digitCount < 9 else {
                throw Timestamp.ISO8601ParseError(
                    message: "fraction of a second longer than 9 digits at character \(index + 1)",
                    position: index + 1)
            }
            value = value * 10 + digit
            digitCount += 1
            index += 1
        }
        for _ in digitCount..<9 { value *= 10 }
        return value
    }

    /// The time zone's offset east of UTC, in seconds.
    private mutating func timeZoneOffset() throws(Timestamp.ISO8601ParseError) -> Int {
        guard index < bytes.count else {
            throw Timestamp.ISO8601ParseError(
                message: "missing time zone: end with 'Z' or an offset like +02:00", position: index + 1)
        }
        let sign: Int
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
            return 0
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: throw syntaxError(expected: "'Z' or an offset like +02:00")
        }
        index += 1
        let hourStart = index
        let hour = try digits(2, of: "offset hour")
        guard hour <= 23 else { throw rangeError("offset hour \(hour) out of range 0-23", at: hourStart) }
        try expect(UInt8(ascii: ":"), "':' in the offset")
        let minuteStart = index
        let minute = try digits(2, of: "offset minute")
        guard minute <= 59 else { throw rangeError("offset minute \(minute) out of range 0-59", at: minuteStart) }
        return sign * (hour * 3_600 + minute * 60)
    }

    /// Reads exactly `count` ASCII digits as a number.
    private mutating func digits(_ count: Int, of field: StaticString) throws(Timestamp.ISO8601ParseError) -> Int {
        var value = 0
        for _ in 0..<count {
            guard index < bytes.count, let digit = bytes[index].asciiDigitValue else {
                throw syntaxError(expected: "a digit in the \(field)")
            }
            value = value * 10 + digit
            index += 1
        }
        return value
    }

    private mutating func expect(_ byte: UInt8, _ description: StaticString) throws(Timestamp.ISO8601ParseError) {
        guard index < bytes.count, bytes[index] == byte else { throw syntaxError(expected: "\(description)") }
        index += 1
    }

    /// "expected … at character N, found …", naming the character at the current position.
    private func syntaxError(expected: String) -> Timestamp.ISO8601ParseError {
        let found: String
        if index < bytes.count {
            // The byte may start a multi-byte character: decode a few bytes to show the whole scalar.
            let rest = UnsafeBufferPointer(rebasing: bytes[index..<min(index + 4, bytes.count)])
            let scalar = String(decoding: rest, as: UTF8.self).unicodeScalars.first!
            found = "'\(scalar.escaped(asASCII: false))'"
        } else {
            found = "the end of the text"
        }
        return Timestamp.ISO8601ParseError(
            message: "expected \(expected) at character \(index + 1), found \(found)", position: index + 1)
    }

    private func rangeError(_ message: String, at start: Int) -> Timestamp.ISO8601ParseError {
        Timestamp.ISO8601ParseError(message: message, position: start + 1)
    }
}

extension UInt8 {
    /// The value of an ASCII decimal digit, or nil for any other byte.
    fileprivate var asciiDigitValue: Int? {
        let value = Int(self) &- Int(UInt8(ascii: "0"))
        return (0...9).contains(value) ? value : nil
    }
}

// MARK: - Formatting

/// Writes ASCII bytes into the buffer of a string under construction.
private struct ASCIIWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    mutating func write(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Writes `value`, zero-padded on the left to `count` digits.
    mutating func writeDigits(_ value: some BinaryInteger, count digitCount: Int) {
        var rest = value
        var position = count + digitCount - 1
        while position >= count {
            buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            position -= 1
        }
        count += digitCount
    }

    /// Writes four digits for years 0000-9999, and a sign and at least four digits for any other year.
    mutating func writeYear(_ year: Int64) {
        if (0...9_999).contains(year) {
            writeDigits(year, count: 4)
            return
        }
        write(year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        var digitCount = 1
        var rest = year.magnitude
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        writeDigits(year.magnitude, count: max(digitCount, 4))
    }
}

// MARK: - Civil calendar

/// A day of the proleptic Gregorian calendar: the Gregorian rules extended to every year, with no Julian switch.
///
///     CivilDate(year: 2000, month: 3, day: 1).daysSince1970  // 11_017
///     CivilDate(daysSince1970: -1)                         // 1969-12-31
struct CivilDate: Hashable, Sendable {
    var year: Int64
    /// 1-12.
    var month: Int
    /// 1-31.
    var day: Int

    init(year: Int64, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// Days in a 400-year cycle, after which the calendar repeats: 97 of its years are leap years.
    private static let daysPer400Years: Int64 = 400 * 365 + 97
    /// Days in a century that does not end on a multiple of 400: 24 leap years.
    private static let daysPer100Years: Int64 = 100 * 365 + 24
    /// Days in four years that contain a leap year.
    private static let daysPer4Years: Int64 = 4 * 365 + 1
    /// Days from 0001-01-01, the calendar's first day, to 1970-01-01.
    private static let daysFromYear1To1970: Int64 = 719_162

    /// Days before the first of each month in a common year, with the days of the whole year at the end.
    private static let daysBeforeMonth = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ month: Int, year: Int64) -> Int {
        month == 2 && isLeapYear(year) ? 29 : daysBeforeMonth[month] - daysBeforeMonth[month - 1]
    }

    /// Days before the first of `month` (1-13, 13 standing for the year's end) since January 1.
    private static func daysBefore(month: Int, leapYear: Bool) -> Int {
        daysBeforeMonth[month - 1] + (leapYear && month > 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date; negative before it.
    ///
    /// - Complexity: O(1).
    var daysSince1970: Int64 {
        // Whole 400-year cycles since year 1, then the years before this one in its cycle with their leap days.
        let (cycles, yearsInCycle) = (year - 1).flooredQuotientAndRemainder(dividingBy: 400)
        let leapDaysInCycle = yearsInCycle / 4 - yearsInCycle / 100
        let daysBeforeYear = cycles * Self.daysPer400Years + yearsInCycle * 365 + leapDaysInCycle
        let dayOfYear = Self.daysBefore(month: month, leapYear: Self.isLeapYear(year)) + day - 1
        return daysBeforeYear + Int64(dayOfYear) - Self.daysFromYear1To1970
    }

    /// The date `days` days after 1970-01-01 (before it, when negative).
    ///
    /// - Complexity: O(1).
    init(daysSince1970 days: Int64) {
        // Peel off 400-year cycles, centuries, four-year spans and years, largest first, from year 1.
        // The last century of a cycle and the last year of a span are a day longer, hence the min(_, 3).
        let (cycles, dayOfCycle) = (days + Self.daysFromYear1To1970)
            .flooredQuotientAndRemainder(dividingBy: Self.daysPer400Years)
        let centuries = min(dayOfCycle / Self.daysPer100Years, 3)
        let dayOfCentury = dayOfCycle - centuries * Self.daysPer100Years
        let spans = dayOfCentury / Self.daysPer4Years
        let dayOfSpan = dayOfCentury - spans * Self.daysPer4Years
        let yearsInSpan = min(dayOfSpan / 365, 3)
        let dayOfYear = Int(dayOfSpan - yearsInSpan * 365)

        year = cycles * 400 + centuries * 100 + spans * 4 + yearsInSpan + 1
        let leapYear = Self.isLeapYear(year)
        // Month m starts on or after day 32 × (m - 2) of the year and ends before day 32 × m, so dividing by 32
        // finds the month or the one before it.
        month = dayOfYear / 32 + 1
        if dayOfYear >= Self.daysBefore(month: month + 1, leapYear: leapYear) {
            month += 1
        }
        day = dayOfYear - Self.daysBefore(month: month, leapYear: leapYear) + 1
    }
}

extension CivilDate: CustomStringConvertible {
    var description: String {
        "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}

extension Int64 {
    /// The quotient rounded toward negative infinity and the remainder with the divisor's sign, so that a day, a cycle or a
    /// second before the epoch still has its offset counted forward from its start.
    func flooredQuotientAndRemainder(dividingBy divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
