import Foundation

/// An exact point in time, UTC: whole seconds since 1970-01-01T00:00:00Z and nanoseconds within the second.
///
/// `Date` holds a double, which cannot keep every fraction of a second a template writes; a timestamp keeps nanoseconds
/// exactly, and converts to and from `Date` at microsecond precision.
///
///     let moment = Timestamp(seconds: -1, nanoseconds: 500_000_000)
///     moment.iso8601String  // "1969-12-31T23:59:59.5Z"
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z; negative before it.
    public var seconds: Int64
    /// Nanoseconds within the second, in 0..<1_000_000_000.
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        precondition((0..<1_000_000_000).contains(nanoseconds), "nanoseconds out of range")
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The timestamp nearest to `date`, rounded to the microsecond (the precision a `Date` holds for today's dates).
    ///
    /// A `Date` is a double of seconds since 2001-01-01, so the conversion splits that double, not the one from 1970:
    /// going through `timeIntervalSince1970` would round once more and lose microseconds far from 2001.
    ///
    ///     Timestamp(Date(timeIntervalSince1970: -0.5))  // 1969-12-31T23:59:59.5Z
    ///
    /// - Precondition: `date` is finite and within about 31 billion years of 2001.
    public init(_ date: Date) {
        let interval = date.timeIntervalSinceReferenceDate
        precondition(interval.isFinite && interval.magnitude < 1e18, "date out of Timestamp range")
        var whole = interval.rounded(.down)
        // `interval - whole` is off by at most 2^-53 s (exact for positive dates): far below half a microsecond.
        var micros = ((interval - whole) * 1_000_000).rounded()
        if micros == 1_000_000 {
            whole += 1
            micros = 0
        }
        self.init(
            seconds: Int64(whole) + Int64(Date.timeIntervalBetween1970AndReferenceDate),
            nanoseconds: Int32(micros) * 1_000)
    }

    /// The nearest `Date`.
    ///
    /// Microsecond timestamps survive a trip through `Date` and back exactly while a double still spaces its values
    /// less than a microsecond apart: for dates within about 270 years of 2001 (1730-2270).
    public var date: Date {
        // Double(seconds) is exact below 2^53, so the one rounding is the final addition.
        let wholeSeconds = Double(seconds) - Date.timeIntervalBetween1970AndReferenceDate
        return Date(timeIntervalSinceReferenceDate: wholeSeconds + Double(nanoseconds) / 1_000_000_000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}
