import SeedKitSupport
import SeedKitModel

/// Identity values as a hash table key, strings compared byte for byte: the stores' own comparison (SQLite's
/// binary collation, PostgreSQL's C collation), never Swift's canonical equivalence.
package struct ExactValues: Hashable {
    package let values: [AttributeValue]

    package init(_ values: [AttributeValue]) {
        self.values = values
    }

    package static func == (lhs: ExactValues, rhs: ExactValues) -> Bool {
        guard lhs.values.count == rhs.values.count else { return false }
        for (left, right) in zip(lhs.values, rhs.values) {
            if case .string(let a) = left, case .string(let b) = right {
                guard a.hasSameBytes(as: b) else { return false }
            } else if left != right {
                return false
            }
        }
        return true
    }

    package func hash(into hasher: inout Hasher) {
        for value in values {
            if case .string(var text) = value {
                text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            } else {
                hasher.combine(value)
            }
        }
    }
}
