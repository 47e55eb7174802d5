/// A point in time as PostgreSQL keeps it in `timestamp with time zone`: whole microseconds, UTC.
///
///     let moment = PostgreSQLTimestamp(seconds: 1_709_285_400, microseconds: 123_456)
///     moment.description  // 2024-03-01T09:30:00.123456Z
///
/// The binary form is microseconds since 2000-01-01T00:00:00Z, PostgreSQL's epoch; a `timestamp without time zone`
/// reads and writes as the same count, taken as UTC.
package struct PostgreSQLTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z; negative before it.
    package var microsecondsSince1970: Int64

    package init(microsecondsSince1970: Int64) {
        self.microsecondsSince1970 = microsecondsSince1970
    }

    /// The timestamp `seconds` and `microseconds` after 1970-01-01T00:00:00Z.
    ///
    /// - Precondition: `microseconds` is in 0..<1_000_000.
    package init(seconds: Int64, microseconds: Int32 = 0) {
        precondition((0..<1_000_000).contains(microseconds), "microseconds out of range")
        self.microsecondsSince1970 = seconds * 1_000_000 + Int64(microseconds)
    }

    /// Whole seconds since 1970-01-01T00:00:00Z, rounded down.
    package var seconds: Int64 {
        microsecondsSince1970 >= 0 || microsecondsSince1970 % 1_000_000 == 0
            ? microsecondsSince1970 / 1_000_000 : microsecondsSince1970 / 1_000_000 - 1
    }

    /// Microseconds within the second, in 0..<1_000_000.
    package var microseconds: Int32 {
        Int32(microsecondsSince1970 - seconds * 1_000_000)
    }

    /// Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch.
    static let postgresEpochOffset: Int64 = 946_684_800_000_000

    package static func < (lhs: PostgreSQLTimestamp, rhs: PostgreSQLTimestamp) -> Bool {
        lhs.microsecondsSince1970 < rhs.microsecondsSince1970
    }

    /// ISO 8601 in UTC with the microseconds, if any: `2024-03-01T09:30:00Z`, `1969-12-31T23:59:59.5Z`.
    package var description: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
            + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2)
        if microseconds != 0 {
            var fraction = padded(Int64(microseconds), 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
