import Foundation
import SeedKitModel

extension AttributeValue {
    /// Orders two values of the same type: numbers numerically (decimals by their numbers whatever their scales),
    /// strings by Unicode scalars (so the order is the
    /// same on every platform), dates in time, false before true, data by its bytes and JSON by its canonical bytes.
    ///
    /// - Returns: nil when the types differ.
    func compare(to other: AttributeValue) -> ComparisonResult? {
        func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
            a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        }
        switch (self, other) {
        case (.string(let a), .string(let b)):
            if a.unicodeScalars.elementsEqual(b.unicodeScalars) { return .orderedSame }
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? .orderedAscending : .orderedDescending
        case (.integer(let a), .integer(let b)): return order(a, b)
        case (.double(let a), .double(let b)): return order(a, b)
        case (.bool(let a), .bool(let b)): return order(a ? 1 : 0, b ? 1 : 0)
        case (.decimal(let a), .decimal(let b)): return order(a.value, b.value)
        case (.date(let a), .date(let b)): return order(a, b)
        case (.data(let a), .data(let b)):
            return a == b ? .orderedSame : (a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending)
        case (.uuid(let a), .uuid(let b)): return order(a.uuidString, b.uuidString)
        case (.url(let a), .url(let b)): return order(a.absoluteString, b.absoluteString)
        case (.json(let a), .json(let b)):
            // Canonical bytes: equal values give equal bytes, and the order does not depend on dictionary order,
            // which changes from process to process.
            let lhs = a.serialized(style: .canonical), rhs = b.serialized(style: .canonical)
            return lhs == rhs ? .orderedSame : (lhs.lexicographicallyPrecedes(rhs) ? .orderedAscending : .orderedDescending)
        default: return nil
        }
    }
}
