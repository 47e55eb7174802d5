import Foundation

// The canonical order of the members of an unordered to-many relationship: what makes an export independent of the
// order objects were created or linked in.

extension GraphEncoder {
    /// The members of an unordered to-many relationship in canonical order: by identity when their entity has one,
    /// else by entity name then attribute values in layout order; a missing value sorts first.
    ///
    /// Members that tie (no identity and equal attributes) keep their stored order, so their places and `$id`s can
    /// depend on the order they were linked in; give such objects identity, or an attribute that tells them apart,
    /// when exports must be byte-stable.
    ///
    /// - Complexity: O(*n*) when the members are already in order, else O(*n* log *n*) comparisons.
    static func canonicalOrder(_ members: [ManagedObject]) -> [ManagedObject] {
        guard members.count > 1 else { return members }
        var isSorted = true
        for index in 1..<members.count where precedes(members[index], members[index - 1]) {
            isSorted = false
            break
        }
        if isSorted { return members }
        // A stable sort: ties keep their stored order.
        return members.enumerated().sorted { lhs, rhs in
            if precedes(lhs.element, rhs.element) { return true }
            if precedes(rhs.element, lhs.element) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Whether `lhs` comes before `rhs` in canonical order.
    static func precedes(_ lhs: ManagedObject, _ rhs: ManagedObject) -> Bool {
        // Objects of one relationship share a root entity, so both have identity or neither has.
        let indices = lhs.entity.identityIndices
        if !indices.isEmpty {
            for index in indices {
                switch order(lhs.attributeValues[index], rhs.attributeValues[index]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return false
        }
        if lhs.entity !== rhs.entity { return lhs.entity.name < rhs.entity.name }
        for index in lhs.attributeValues.indices {
            switch order(lhs.attributeValues[index], rhs.attributeValues[index]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return false
    }

    /// Orders two optional values of one attribute; strings by their UTF-8 bytes, which is code point order.
    private static func order(_ lhs: AttributeValue?, _ rhs: AttributeValue?) -> ComparisonResult {
        if case .string(let a)? = lhs, case .string(let b)? = rhs {
            if a == b { return .orderedSame }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : .orderedDescending
        }
        return ObjectContext.order(lhs, rhs)
    }
}
