import Foundation
import SeedKitModel

/// An integer value compared with a decimal or double attribute, as NSPredicate users expect: by the numbers'
/// exact values, in SQL and in memory alike.
///
///     FetchKey("budget") > 400            // budget is decimal: budget > 400 as a decimal
///     FetchKey("ratio") < 9007199254740993 // ratio is double: no double is that integer; ratio <= 9007199254740992
extension AttributePath {
    /// The integer `value` as the attribute's type: the same number, or the two neighbours it falls between when
    /// the type has no such number (an integer beyond 2⁵³ that no double holds); nil when no conversion applies.
    func converted(_ value: AttributeValue) -> NumberConversion? {
        guard case .integer(let integer) = value else { return nil }
        switch type {
        case .decimal:
            return .exact(.decimal(ScaledDecimal(Decimal(integer))))
        case .double:
            if let exact = Double(exactly: integer) { return .exact(.double(exact)) }
            let rounded = Double(integer)
            // The rounded double is 2⁶³ when it passes Int64.max, which is above every integer.
            let isAbove = rounded >= 0x1p63 || Int64(rounded) > integer
            return isAbove
                ? .between(below: .double(rounded.nextDown), above: .double(rounded))
                : .between(below: .double(rounded), above: .double(rounded.nextUp))
        default:
            return nil
        }
    }

    /// The comparison of the attribute with an integer of another numeric type, exactly; nil when there is none.
    func comparison(_ comparison: FetchPredicate.Comparison, converting value: AttributeValue) -> ResolvedPredicate? {
        switch converted(value) {
        case nil: return nil
        case .exact(let number): return .comparison(self, comparison, number)
        case .between(let below, let above):
            switch comparison {
            // No value of the attribute's type equals the integer; a missing one differs from it too.
            case .equal: return .constant(false)
            case .notEqual: return .constant(true)
            case .less, .lessOrEqual: return .comparison(self, .lessOrEqual, below)
            case .greater, .greaterOrEqual: return .comparison(self, .greaterOrEqual, above)
            }
        }
    }
}

/// A number converted to an attribute's type.
enum NumberConversion {
    case exact(AttributeValue)
    /// The type holds no such number: these are its nearest values below and above it.
    case between(below: AttributeValue, above: AttributeValue)
}
