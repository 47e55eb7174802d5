/// The members of a to-many relationship: insertion-ordered, with constant-time membership.
///
/// An unordered relationship removes by swapping with the last member; an ordered one keeps its order.
@usableFromInline
package struct RelatedObjects {
    package private(set) var members: [ManagedObject] = []
    private var positions: [ObjectIdentifier: Int] = [:]

    var count: Int { members.count }

    /// - Complexity: O(1) on average.
    func contains(_ object: ManagedObject) -> Bool { positions[ObjectIdentifier(object)] != nil }

    /// Appends `object` unless it is a member already; returns whether it was appended.
    ///
    /// - Complexity: O(1) amortized.
    @discardableResult
    mutating func append(_ object: ManagedObject) -> Bool {
        let id = ObjectIdentifier(object)
        guard positions[id] == nil else { return false }
        positions[id] = members.count
        members.append(object)
        return true
    }

    /// Removes `object`; returns whether it was a member.
    ///
    /// - Complexity: O(1) when `keepingOrder` is false, else O(*n*).
    @discardableResult
    mutating func remove(_ object: ManagedObject, keepingOrder: Bool) -> Bool {
        guard let position = positions.removeValue(forKey: ObjectIdentifier(object)) else { return false }
        if keepingOrder {
            members.remove(at: position)
            for index in position..<members.count { positions[ObjectIdentifier(members[index])] = index }
        } else {
            let last = members.removeLast()
            if position < members.count {
                members[position] = last
                positions[ObjectIdentifier(last)] = position
            }
        }
        return true
    }
}
