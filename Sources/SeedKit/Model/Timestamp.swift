import Foundation

/// An exact point in time, UTC: whole seconds since 1970-01-01T00:00:00Z and nanoseconds within the second.
///
/// `Date` holds a double, which cannot keep every fraction of a second a template writes; a timestamp keeps nanoseconds
/// exactly, and converts to and from `Date` at microsecond precision.
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
    public init(_ date: Date) {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let whole = Int64((micros / 1_000_000).rounded(.down))
        let rest = Int64(micros) - whole * 1_000_000
        self.init(seconds: whole, nanoseconds: Int32(rest * 1_000))
    }

    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}
