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
        for index in 1..<members.count where compare(members[index - 1], members[index]) == .orderedDescending {
            isSorted = false
            break
        }
        if isSorted { return members }
        // A stable sort: ties keep their stored order.
        return members.indices.sorted { lhs, rhs in
            switch compare(members[lhs], members[rhs]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: lhs < rhs
            }
        }.map { members[$0] }
    }

    /// The canonical order of two members of one relationship.
    static func compare(_ lhs: ManagedObject, _ rhs: ManagedObject) -> ComparisonResult {
        // Objects of one relationship share a root entity, so both have identity or neither has.
        let indices = lhs.entity.identityIndices
        if !indices.isEmpty {
            for index in indices {
                let order = order(lhs.attributeValues[index], rhs.attributeValues[index])
                if order != .orderedSame { return order }
            }
            return .orderedSame
        }
        if lhs.entity !== rhs.entity { return lhs.entity.name < rhs.entity.name ? .orderedAscending : .orderedDescending }
        for index in lhs.attributeValues.indices {
            let order = order(lhs.attributeValues[index], rhs.attributeValues[index])
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }

    /// Orders two optional values of one attribute; strings as Swift orders them (by their Unicode scalars after
    /// normalization), which is the same on every platform and fast for ASCII.
    private static func order(_ lhs: AttributeValue?, _ rhs: AttributeValue?) -> ComparisonResult {
        if case .string(let a)? = lhs, case .string(let b)? = rhs {
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        }
        return ObjectContext.order(lhs, rhs)
    }
}
