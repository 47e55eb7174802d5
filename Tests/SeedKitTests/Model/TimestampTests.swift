import Foundation
import Testing
import SeedKit
@testable import SeedKitModel

/// A small, fast, seedable generator (SplitMix64), so property tests see the same values on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Well-known instants, counted independently of SeedKit.
private enum Anchor {
    static let year1: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
    static let year1900: Int64 = -2_208_988_800  // 1900-01-01T00:00:00Z
    static let year2000: Int64 = 946_684_800  // 2000-01-01T00:00:00Z
    static let year2024: Int64 = 1_704_067_200  // 2024-01-01T00:00:00Z
    static let year2200: Int64 = 7_258_118_400  // 2200-01-01T00:00:00Z
    static let lastSecondOf9999: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z
}

@Suite("Timestamp: reading RFC 3339")
struct TimestampParsingTests {
    @Test(
        "Valid texts name the right instant",
        arguments: [
            ("1970-01-01T00:00:00Z", 0, 0),
            ("1970-01-01t00:00:00z", 0, 0),
            ("1970-01-01 00:00:00Z", 0, 0),
            ("1970-01-01T00:00:00-00:00", 0, 0),
            ("1969-12-31T23:59:59.5Z", -1, 500_000_000),
            ("2000-01-01T00:00:00Z", Anchor.year2000, 0),
            ("2000-02-29T00:00:00Z", Anchor.year2000 + 59 * 86_400, 0),
            ("2024-02-29T12:00:00Z", Anchor.year2024 + 59 * 86_400 + 12 * 3_600, 0),
            ("1900-03-01T00:00:00Z", Anchor.year1900 + 59 * 86_400, 0),
            ("0001-01-01T00:00:00Z", Anchor.year1, 0),
            ("9999-12-31T23:59:59.999999999Z", Anchor.lastSecondOf9999, 999_999_999),
            ("2024-01-01T00:00:05.1Z", Anchor.year2024 + 5, 100_000_000),
            ("2024-01-01T00:00:05.000000001Z", Anchor.year2024 + 5, 1),
            ("2024-01-01T00:00:05.123456789Z", Anchor.year2024 + 5, 123_456_789),
            ("2024-01-01T00:00:05.120Z", Anchor.year2024 + 5, 120_000_000),
        ] as [(String, Int64, Int32)])
    func validText(text: String, seconds: Int64, nanoseconds: Int32) throws {
        let timestamp = try Timestamp(parsingISO8601: text)
        #expect(timestamp == Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        #expect(Timestamp(iso8601: text) == timestamp)
    }

    @Test("A date alone is midnight UTC")
    func dateOnly() {
        #expect(Timestamp(iso8601: "2024-01-01") == Timestamp(seconds: Anchor.year2024))
        #expect(Timestamp(iso8601: "1969-12-31") == Timestamp(seconds: -86_400))
        #expect(Timestamp(iso8601: "0001-01-01") == Timestamp(seconds: Anchor.year1))
    }

    @Test("Substrings parse like strings")
    func substring() {
        let wrapped = "[2024-01-01T00:00:05.25Z]"
        let inner = wrapped.dropFirst().dropLast()
        #expect(Timestamp(iso8601: inner) == Timestamp(seconds: Anchor.year2024 + 5, nanoseconds: 250_000_000))
    }

    @Test(
        "Leap years: February 29 exists only in them",
        arguments: [
            ("2000-02-29", true),  // divisible by 400
            ("1900-02-29", false),  // a century not divisible by 400
            ("2024-02-29", true),  // divisible by 4
            ("2023-02-29", false),
            ("2100-02-29", false),
            ("1600-02-29", true),
            ("0004-02-29", true),
        ])
    func leapYears(text: String, isValid: Bool) {
        #expect((Timestamp(iso8601: text) != nil) == isValid)
        #expect((Timestamp(iso8601: text + "T12:00:00Z") != nil) == isValid)
    }

    @Test("Leap days land the day before March 1")
    func leapDayPosition() throws {
        let leapDay = try Timestamp(parsingISO8601: "2024-02-29")
        let marchFirst = try Timestamp(parsingISO8601: "2024-03-01")
        #expect(marchFirst.seconds - leapDay.seconds == 86_400)
        let february28 = try Timestamp(parsingISO8601: "1900-02-28")
        let march1900 = try Timestamp(parsingISO8601: "1900-03-01")
        #expect(march1900.seconds - february28.seconds == 86_400)
    }

    @Test(
        "Offsets convert to UTC exactly, across midnight, months and years",
        arguments: [
            ("2000-01-01T00:30:00+01:00", "1999-12-31T23:30:00Z"),
            ("1999-12-31T23:30:00-01:00", "2000-01-01T00:30:00Z"),
            ("2024-03-01T00:15:00+00:30", "2024-02-29T23:45:00Z"),
            ("2023-03-01T00:15:00+00:30", "2023-02-28T23:45:00Z"),
            ("2024-06-30T20:00:00-05:45", "2024-07-01T01:45:00Z"),
            ("2024-01-01T00:00:00.000000001+23:59", "2023-12-31T00:01:00.000000001Z"),
            ("2024-12-31T23:59:59.999-23:59", "2025-01-01T23:58:59.999Z"),
            ("1970-01-01T05:30:00+05:30", "1970-01-01T00:00:00Z"),
            ("1970-01-01T00:00:00+00:01", "1969-12-31T23:59:00Z"),
            // Offsets may carry a valid instant past the parser's years; the text says so in ISO 8601's expanded form.
            ("0001-01-01T00:00:00+01:00", "0000-12-31T23:00:00Z"),
            ("9999-12-31T23:59:59-23:59", "+10000-01-01T23:58:59Z"),
        ])
    func offsets(text: String, utc: String) throws {
        #expect(try Timestamp(parsingISO8601: text).iso8601String == utc)
    }

    @Test(
        "Rejections say what is wrong and where",
        arguments: [
            ("2024-01-01X10:00:00Z", "expected 'T' or ' ' after the date at character 11, found 'X'", 11),
            ("2024-01-01é", "expected 'T' or ' ' after the date at character 11, found 'é'", 11),
            ("2024-01-01\n", "expected 'T' or ' ' after the date at character 11, found '\\n'", 11),
            ("2024-13-01T00:00:00Z", "month 13 out of range 1-12", 6),
            ("2024-00-01", "month 0 out of range 1-12", 6),
            ("2024-01-00", "day 0 out of range 1-31 for January 2024", 9),
            ("2024-01-32", "day 32 out of range 1-31 for January 2024", 9),
            ("2024-04-31T00:00:00Z", "day 31 out of range 1-30 for April 2024", 9),
            ("1900-02-29", "day 29 out of range 1-28 for February 1900", 9),
            ("2023-02-29T00:00:00Z", "day 29 out of range 1-28 for February 2023", 9),
            ("2024-02-30", "day 30 out of range 1-29 for February 2024", 9),
            ("0000-01-01T00:00:00Z", "year 0 out of range 1-9999", 1),
            ("10000-01-01T00:00:00Z", "expected '-' after the year at character 5, found '0'", 5),
            ("-0001-01-01T00:00:00Z", "expected a digit in the year at character 1, found '-'", 1),
            ("24-01-01", "expected a digit in the year at character 3, found '-'", 3),
            (" 2024-01-01", "expected a digit in the year at character 1, found ' '", 1),
            ("", "expected a digit in the year at character 1, found the end of the text", 1),
            ("2024/01/01", "expected '-' after the year at character 5, found '/'", 5),
            ("2024-1-01", "expected a digit in the month at character 7, found '-'", 7),
            ("2024-01-1", "expected a digit in the day at character 10, found the end of the text", 10),
            ("2024-01-01T", "expected a digit in the hour at character 12, found the end of the text", 12),
            ("2024-01-01T24:00:00Z", "hour 24 out of range 0-23", 12),
            ("2024-01-01T10:60:00Z", "minute 60 out of range 0-59", 15),
            ("2024-01-01T10:00Z", "expected ':' after the minute at character 17, found 'Z'", 17),
            ("2024-01-01T10.00:00Z", "expected ':' after the hour at character 14, found '.'", 14),
            ("2024-12-31T23:59:60Z", "leap second 60 is not supported: second must be 0-59", 18),
            ("2024-01-01T23:59:61Z", "second 61 out of range 0-59", 18),
            ("2024-01-01T10:00:00", "missing time zone: end with 'Z' or an offset like +02:00", 20),
            ("2024-01-01T10:00:00.5", "missing time zone: end with 'Z' or an offset like +02:00", 22),
            ("2024-01-01T10:00:00UTC", "expected 'Z' or an offset like +02:00 at character 20, found 'U'", 20),
            ("2024-01-01T10:00:00,5Z", "expected 'Z' or an offset like +02:00 at character 20, found ','", 20),
            ("2024-01-01T10:00:00.Z", "expected a digit in the fraction of a second at character 21, found 'Z'", 21),
            ("2024-01-01T10:00:00.1234567890Z", "fraction of a second longer than 9 digits at character 30", 30),
            ("2024-01-01T10:00:00+2:00", "expected a digit in the offset hour at character 22, found ':'", 22),
            ("2024-01-01T10:00:00+0200", "expected ':' in the offset at character 23, found '0'", 23),
            ("2024-01-01T10:00:00+02", "expected ':' in the offset at character 23, found the end of the text", 23),
            ("2024-01-01T10:00:00+24:00", "offset hour 24 out of range 0-23", 21),
            ("2024-01-01T10:00:00-01:60", "offset minute 60 out of range 0-59", 24),
            ("2024-01-01T10:00:00Z ", "expected the end of the text after the time zone at character 21, found ' '", 21),
            ("2024-01-01T10:00:00+01:00Z", "expected the end of the text after the time zone at character 26, found 'Z'", 26),
        ] as [(String, String, Int)])
    func rejection(text: String, message: String, position: Int) {
        #expect(throws: Timestamp.ISO8601ParseError(message: message, position: position)) {
            try Timestamp(parsingISO8601: text)
        }
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test("The error's description is its message")
    func errorDescription() throws {
        let error = try #require(throws: Timestamp.ISO8601ParseError.self) {
            try Timestamp(parsingISO8601: "2024-13-01")
        }
        #expect(String(describing: error) == "month 13 out of range 1-12")
    }
}

@Suite("Timestamp: writing RFC 3339")
struct TimestampFormattingTests {
    @Test(
        "Canonical text: UTC, 'Z', and a trimmed fraction only when there is one",
        arguments: [
            (0, 0, "1970-01-01T00:00:00Z"),
            (5, 123_000_000, "1970-01-01T00:00:05.123Z"),
            (5, 1_000, "1970-01-01T00:00:05.000001Z"),
            (5, 123_456_789, "1970-01-01T00:00:05.123456789Z"),
            (5, 100_000_000, "1970-01-01T00:00:05.1Z"),
            (5, 1, "1970-01-01T00:00:05.000000001Z"),
            (-1, 500_000_000, "1969-12-31T23:59:59.5Z"),
            (-86_400, 0, "1969-12-31T00:00:00Z"),
            (-86_401, 0, "1969-12-30T23:59:59Z"),
            (Anchor.year2000 + 59 * 86_400, 0, "2000-02-29T00:00:00Z"),
            (Anchor.year1900 + 59 * 86_400 - 1, 0, "1900-02-28T23:59:59Z"),
            (Anchor.year1, 0, "0001-01-01T00:00:00Z"),
            (Anchor.lastSecondOf9999, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
        ] as [(Int64, Int32, String)])
    func canonicalText(seconds: Int64, nanoseconds: Int32, text: String) {
        #expect(Timestamp(seconds: seconds, nanoseconds: nanoseconds).iso8601String == text)
    }

    @Test(
        "Years outside 0001-9999 take the expanded form",
        arguments: [
            (Anchor.year1 - 1, "0000-12-31T23:59:59Z"),
            (Anchor.year1 - 366 * 86_400, "0000-01-01T00:00:00Z"),  // year 0 is a leap year
            (Anchor.year1 - 367 * 86_400, "-0001-12-31T00:00:00Z"),
            (Anchor.lastSecondOf9999 + 1, "+10000-01-01T00:00:00Z"),
            (.max, "+292277026596-12-04T15:30:07Z"),
            (.min, "-292277022657-01-27T08:29:52Z"),
        ] as [(Int64, String)])
    func expandedYears(seconds: Int64, text: String) {
        let timestamp = Timestamp(seconds: seconds)
        #expect(timestamp.iso8601String == text)
        #expect(Timestamp(iso8601: timestamp.iso8601String) == nil)
    }

    @Test("Non-canonical texts format to the canonical one")
    func canonicalization() throws {
        #expect(try Timestamp(parsingISO8601: "2024-01-01t10:00:00.500z").iso8601String == "2024-01-01T10:00:00.5Z")
        #expect(try Timestamp(parsingISO8601: "2024-01-01 10:00:00.000Z").iso8601String == "2024-01-01T10:00:00Z")
        #expect(try Timestamp(parsingISO8601: "2024-01-01").iso8601String == "2024-01-01T00:00:00Z")
    }

    @Test("Formatting then parsing gives the same timestamp, and the same text back, over many random timestamps")
    func roundTrip() throws {
        var generator = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<20_000 {
            let timestamp = Timestamp.random(in: Anchor.year1...Anchor.lastSecondOf9999, using: &generator)
            let text = timestamp.iso8601String
            let parsed = try Timestamp(parsingISO8601: text)
            #expect(parsed == timestamp, "\(text)")
            #expect(parsed.iso8601String == text)
        }
    }

    @Test("Any offset names the same instant as UTC, over many random timestamps")
    func randomOffsets() throws {
        var generator = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<20_000 {
            let timestamp = Timestamp.random(in: Anchor.year1 + 86_400...Anchor.lastSecondOf9999 - 86_400, using: &generator)
            let offsetMinutes = Int64.random(in: -(23 * 60 + 59)...(23 * 60 + 59), using: &generator)
            // The local wall-clock time at that offset, written with the offset instead of 'Z'.
            var local = timestamp
            local.seconds += offsetMinutes * 60
            let (hours, minutes) = offsetMinutes.magnitude.quotientAndRemainder(dividingBy: 60)
            let offset = (offsetMinutes < 0 ? "-" : "+") + twoDigits(hours) + ":" + twoDigits(minutes)
            let text = local.iso8601String.dropLast() + offset
            #expect(try Timestamp(parsingISO8601: text) == timestamp, "\(text)")
        }
    }
}

@Suite("Timestamp: the proleptic Gregorian calendar")
struct TimestampCalendarTests {
    @Test("Every day from 0001-01-01 to 9999-12-31 converts both ways, against a day-by-day count")
    func everyDay() {
        // The oracle steps one day at a time with the textbook leap-year rule, independent of the cycle arithmetic.
        var expected = CivilDate(year: 1, month: 1, day: 1)
        let daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var mismatches = 0
        for days in (Anchor.year1 / 86_400)...(Anchor.lastSecondOf9999 / 86_400) {
            if CivilDate(daysSince1970: days) != expected || expected.daysSince1970 != days {
                mismatches += 1
            }
            let year = expected.year
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let monthLength = expected.month == 2 && isLeap ? 29 : daysInMonth[expected.month - 1]
            if expected.day < monthLength {
                expected.day += 1
            } else if expected.month < 12 {
                expected = CivilDate(year: year, month: expected.month + 1, day: 1)
            } else {
                expected = CivilDate(year: year + 1, month: 1, day: 1)
            }
        }
        #expect(mismatches == 0)
        #expect(expected == CivilDate(year: 10_000, month: 1, day: 1))
    }

    @Test("Days far from the epoch, before year 1 included, convert both ways")
    func farDays() {
        var generator = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<10_000 {
            let days = Int64.random(in: -100_000_000_000...100_000_000_000, using: &generator)
            #expect(CivilDate(daysSince1970: days).daysSince1970 == days)
        }
        #expect(CivilDate(daysSince1970: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(daysSince1970: -1) == CivilDate(year: 1969, month: 12, day: 31))
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSince1970 == 11_017)
    }
}

@Suite("Timestamp: Date conversion")
struct TimestampDateTests {
    @Test("A date rounds to the nearest microsecond, before and after 1970")
    func rounding() {
        let reference = Int64(Date.timeIntervalBetween1970AndReferenceDate)
        #expect(Timestamp(Date(timeIntervalSince1970: -0.5)) == Timestamp(seconds: -1, nanoseconds: 500_000_000))
        #expect(Timestamp(Date(timeIntervalSince1970: -1.25)) == Timestamp(seconds: -2, nanoseconds: 750_000_000))
        #expect(Timestamp(Date(timeIntervalSinceReferenceDate: 0.000_000_4)) == Timestamp(seconds: reference))
        #expect(
            Timestamp(Date(timeIntervalSinceReferenceDate: 0.000_000_6))
                == Timestamp(seconds: reference, nanoseconds: 1_000))
        #expect(Timestamp(Date(timeIntervalSinceReferenceDate: -0.000_000_4)) == Timestamp(seconds: reference))
        #expect(
            Timestamp(Date(timeIntervalSinceReferenceDate: -0.000_000_6))
                == Timestamp(seconds: reference - 1, nanoseconds: 999_999_000))
        // Rounding up to a whole second carries into the seconds.
        #expect(Timestamp(Date(timeIntervalSinceReferenceDate: 0.999_999_6)) == Timestamp(seconds: reference + 1))
        #expect(Timestamp(Date(timeIntervalSinceReferenceDate: -0.000_000_1)) == Timestamp(seconds: reference))
    }

    @Test("date gives the Date of the same instant")
    func toDate() {
        #expect(Timestamp(seconds: 0).date == Date(timeIntervalSince1970: 0))
        #expect(Timestamp(seconds: -1, nanoseconds: 500_000_000).date == Date(timeIntervalSince1970: -0.5))
        #expect(Timestamp(seconds: Anchor.year2000).date == Date(timeIntervalSince1970: 946_684_800))
    }

    @Test(
        "Microsecond timestamps at the edges survive Timestamp → Date → Timestamp",
        arguments: [
            "1969-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.5Z", "1970-01-01T00:00:00.000001Z",
            "1900-01-01T00:00:00.000001Z", "1900-01-01T00:00:00Z", "2199-12-31T23:59:59.999999Z",
            "2001-01-01T00:00:00.000001Z", "2000-12-31T23:59:59.999999Z",
        ])
    func edgeRoundTrip(text: String) throws {
        let timestamp = try Timestamp(parsingISO8601: text)
        #expect(Timestamp(timestamp.date) == timestamp)
    }

    @Test("Microsecond timestamps in 1900-2200 survive Timestamp → Date → Timestamp, over many random ones")
    func randomRoundTrip() {
        var generator = SplitMix64(seed: 0x5EED_0004)
        for _ in 0..<100_000 {
            let timestamp = Timestamp(
                seconds: Int64.random(in: Anchor.year1900..<Anchor.year2200, using: &generator),
                nanoseconds: Int32.random(in: 0..<1_000_000, using: &generator) * 1_000)
            let back = Timestamp(timestamp.date)
            #expect(back == timestamp, "\(timestamp.iso8601String) came back as \(back.iso8601String)")
        }
    }
}

@Suite("Timestamp: epoch numbers")
struct TimestampEpochTests {
    @Test(
        "Seconds and milliseconds since 1970 name the instant exactly",
        arguments: [
            ("1714555800", AttributeDescription.DateFormat.secondsSince1970, Int64(1_714_555_800), Int32(0)),
            ("1714555800.25", .secondsSince1970, 1_714_555_800, 250_000_000),
            ("1714555800.123456789", .secondsSince1970, 1_714_555_800, 123_456_789),
            ("-0.5", .secondsSince1970, -1, 500_000_000),
            ("1e9", .secondsSince1970, 1_000_000_000, 0),
            ("1e-9", .secondsSince1970, 0, 1),
            ("1714555800123", .millisecondsSince1970, 1_714_555_800, 123_000_000),
            ("1714555800123.456789", .millisecondsSince1970, 1_714_555_800, 123_456_789),
            ("-1", .millisecondsSince1970, -1, 999_000_000),
            ("253402300799", .secondsSince1970, Anchor.lastSecondOf9999, 0),
            ("-62135596800000", .millisecondsSince1970, Anchor.year1, 0),
        ])
    func readsExactly(text: String, format: AttributeDescription.DateFormat, seconds: Int64, nanoseconds: Int32) throws {
        let timestamp = try Timestamp(epoch: #require(JSONNumber(text)), format: format)
        #expect(timestamp == Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        #expect(try Timestamp(epoch: timestamp.epochNumber(format: format), format: format) == timestamp)
    }

    @Test(
        "Finer than a nanosecond, or outside the years 0001-9999, is an error",
        arguments: [
            ("1.0000000001", AttributeDescription.DateFormat.secondsSince1970, "finer than a nanosecond"),
            ("0.0000001", .millisecondsSince1970, "finer than a nanosecond"),
            ("253402300800", .secondsSince1970, "outside the years 0001-9999"),
            ("-62135596801", .secondsSince1970, "outside the years 0001-9999"),
            ("1e300", .millisecondsSince1970, "outside the years 0001-9999"),
        ])
    func refuses(text: String, format: AttributeDescription.DateFormat, reason: String) throws {
        let error = try #require(throws: AttributeValueError.self) {
            try Timestamp(epoch: #require(JSONNumber(text)), format: format)
        }
        #expect(error.message.hasSuffix(reason) && error.isOutOfRange)
    }

    @Test("Written as integers when whole, else exact decimals; read back equal, over many random ones")
    func randomRoundTrip() {
        #expect(Timestamp(seconds: 5).epochNumber(format: .secondsSince1970).description == "5")
        #expect(Timestamp(seconds: 5, nanoseconds: 7_000_000).epochNumber(format: .millisecondsSince1970).description == "5007")
        #expect(Timestamp(seconds: -1, nanoseconds: 1).epochNumber(format: .secondsSince1970).description == "-0.999999999")
        var generator = SplitMix64(seed: 0x5EED_0005)
        for _ in 0..<20_000 {
            let timestamp = Timestamp.random(in: Anchor.year1...Anchor.lastSecondOf9999, using: &generator)
            for format in [AttributeDescription.DateFormat.secondsSince1970, .millisecondsSince1970] {
                // Through text, as a template file holds it.
                let text = timestamp.epochNumber(format: format).description
                #expect(
                    (try? Timestamp(epoch: JSONNumber(text)!, format: format)) == timestamp,
                    "\(timestamp.iso8601String) as \(text) (\(format))")
            }
        }
    }
}

private func twoDigits(_ value: UInt64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

extension Timestamp {
    /// A random timestamp whose fraction has a random precision from whole seconds to nanoseconds, so that every
    /// length of fraction text comes up.
    fileprivate static func random(
        in seconds: ClosedRange<Int64>, using generator: inout some RandomNumberGenerator
    ) -> Timestamp {
        let digitCount = Int.random(in: 0...9, using: &generator)
        let scale = (0..<(9 - digitCount)).reduce(Int32(1)) { power, _ in power * 10 }
        let units = Int32.random(in: 0..<(1_000_000_000 / scale), using: &generator)
        return Timestamp(seconds: .random(in: seconds, using: &generator), nanoseconds: units * scale)
    }
}
