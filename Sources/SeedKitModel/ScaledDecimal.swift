import Foundation
import SeedKitJSON

/// An exact decimal number and its scale: how many digits it is written with after the point, trailing zeros
/// included. The value of a decimal attribute.
///
/// Foundation's `Decimal` keeps the number but not its trailing zeros: `Decimal(string: "1250000.00")` prints
/// `1250000`. A budget written `"1250000.00"` in a template should come back as `1250000.00` from the store, an export
/// and a diff, as it does from a PostgreSQL `numeric`; a scaled decimal keeps the scale for that.
///
///     let budget = ScaledDecimal(exactly: "1250000.00")!
///     budget.value        // 1250000, a Decimal
///     budget.scale        // 2
///     budget.description  // "1250000.00"
///     ScaledDecimal(Decimal(string: "1.5")!).description  // "1.5": a Decimal's own scale
///
/// Two scaled decimals are equal when they are the same number written alike, with the same scale: `1.5` and `1.50`
/// are different values to identity, change tracking, seeding and diffs, because every output writes them differently.
/// Fetch predicates, sorts and collection operators compare the numbers, as SQL does (`budget == 1.5` matches `1.50`).
public struct ScaledDecimal: Sendable, Hashable, CustomStringConvertible {
    /// The number.
    public let value: Decimal
    private let storedScale: UInt8

    /// The largest scale: a decimal's value has at most 128 digits after the point (its least power of ten is 10^-128).
    public static let maximumScale = 128

    /// The number of digits after the point, at least the value's own (those up to its last nonzero digit).
    public var scale: Int { Int(storedScale) }

    /// The decimal with its own scale, without trailing zeros: 1.5 has scale 1, 1500 scale 0.
    ///
    /// - Complexity: O(1).
    public init(_ value: Decimal) {
        self.value = value
        storedScale = UInt8(Self.ownScale(of: value))
    }

    /// The decimal written with `scale` digits after the point, or nil when that would round it (a scale below the
    /// value's own), the scale is above ``maximumScale``, or the value is NaN.
    ///
    ///     ScaledDecimal(Decimal(12), scale: 2)?.description    // "12.00"
    ///     ScaledDecimal(Decimal(string: "1.25")!, scale: 1)     // nil
    public init?(_ value: Decimal, scale: Int) {
        guard !value.isNaN, (Self.ownScale(of: value)...Self.maximumScale).contains(scale) else { return nil }
        self.value = value
        storedScale = UInt8(scale)
    }

    /// The decimal a JSON number text names, with the scale it is written with; nil when the text is not a JSON
    /// number, a `Decimal` cannot hold its value exactly (see `Decimal(exactly:)`), or its scale is above
    /// ``maximumScale``.
    ///
    /// The scale counts the digits after the point once the exponent is applied, as PostgreSQL's `numeric` does:
    ///
    ///     ScaledDecimal(exactly: "0.10")?.scale     // 2
    ///     ScaledDecimal(exactly: "1.50e1")?.scale   // 1: 15.0
    ///     ScaledDecimal(exactly: "1.5e3")?.scale    // 0: 1500
    ///     ScaledDecimal(exactly: "-0.00")           // 0.00: no negative zero
    ///
    /// - Complexity: O(*n*), where *n* is the length of `text`.
    public init?(exactly text: some StringProtocol) {
        guard let number = ExactDecimalText(text.utf8), number.scale <= Self.maximumScale,
            let value = Decimal(number)
        else { return nil }
        self.value = value
        storedScale = UInt8(number.scale)
    }

    /// The value as plain digits with exactly ``scale`` digits after the point: a '-' for negative values, a '.' only
    /// when the scale is above 0, no exponent. `ScaledDecimal(exactly:)` reads it back to an equal value.
    ///
    ///     ScaledDecimal(exactly: "-1e-6")!.description    // "-0.000001"
    ///     ScaledDecimal(exactly: "2.50e3")!.description   // "2500"
    ///     ScaledDecimal(exactly: "0.000")!.description    // "0.000"
    ///
    /// A NaN has no digits; its text is "NaN".
    ///
    /// - Complexity: O(*d*), where *d* is the number of digits: up to 38 significant digits and 128 zeros.
    public var description: String {
        // Foundation's `description` writes every digit of the value with '.' whatever the locale, and no trailing
        // zeros after the point; DecimalTests pin that down on each platform.
        let text = value.description
        let padding = scale - Self.ownScale(of: value)
        guard padding > 0 else { return text }
        return text + (padding == scale ? "." : "") + String(repeating: "0", count: padding)
    }

    /// Whether the text ends in zeros after the point: the scale is above the value's own, so a JSON number, which
    /// every reader takes for its value alone, would lose them.
    package var hasTrailingZeros: Bool {
        scale > Self.ownScale(of: value)
    }

    /// The digits after the point up to the last nonzero one; 0 for NaN.
    private static func ownScale(of value: Decimal) -> Int {
        guard !value.isNaN else { return 0 }
        // Foundation compacts its results, but a Decimal built from parts may carry trailing zeros in its mantissa.
        var compact = value
        NSDecimalCompact(&compact)
        return max(-compact.exponent, 0)
    }
}
