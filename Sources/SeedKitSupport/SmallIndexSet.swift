/// A set of small non-negative indices (of an entity's attributes or properties): a bit mask for the first 64, a
/// `Set` beyond, so that the common set costs no allocation.
///
///     var stated = SmallIndexSet()
///     stated.insert(3)
///     stated.insert(70)
///     stated.contains(3)      // true
///     stated.sorted()         // [3, 70]
package struct SmallIndexSet: Sendable, Hashable {
    private var bits: UInt64 = 0
    private var others: Set<Int> = []

    package init() {}

    /// - Complexity: O(1).
    package var isEmpty: Bool { bits == 0 && others.isEmpty }

    /// - Complexity: O(1) on average.
    package func contains(_ index: Int) -> Bool {
        index < 64 ? bits & (1 << UInt64(index)) != 0 : others.contains(index)
    }

    /// - Complexity: O(1) on average.
    package mutating func insert(_ index: Int) {
        if index < 64 { bits |= 1 << UInt64(index) } else { others.insert(index) }
    }

    /// The indices in ascending order.
    ///
    /// - Complexity: O(*n*) for indices below 64, O(*n* log *n*) beyond.
    package func sorted() -> [Int] {
        var indices: [Int] = []
        var rest = bits
        while rest != 0 {
            indices.append(rest.trailingZeroBitCount)
            rest &= rest - 1
        }
        if !others.isEmpty { indices += others.sorted() }
        return indices
    }
}
