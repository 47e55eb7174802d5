import Foundation
import SeedKitModel
import SeedKitObjects

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
    package static func canonicalOrder(_ members: [ManagedObject]) -> [ManagedObject] {
        let order = CanonicalOrder.permutation(
            count: members.count, entity: { members[$0].entity }, value: { members[$0].attributeValues[$1] })
        return order.map { members[$0] }
    }

    /// The canonical order of two members of one relationship.
    package static func compare(_ lhs: ManagedObject, _ rhs: ManagedObject) -> ComparisonResult {
        CanonicalOrder.compare(lhs.entity, { lhs.attributeValues[$0] }, rhs.entity, { rhs.attributeValues[$0] })
    }
}

/// The canonical order of the members of an unordered to-many relationship (``GraphEncoder/canonicalOrder(_:)``), for
/// any form of member: the members are described by their entity and attribute values, by position.
///
///     let order = CanonicalOrder.permutation(count: members.count, entity: { entities[$0] }, value: { values[$0][$1] })
package enum CanonicalOrder {
    /// The positions of the members in canonical order.
    ///
    /// - Complexity: O(*n*) when the members are already in order, else O(*n* log *n*) comparisons.
    package static func permutation(count: Int, entity: (Int) -> Entity, value: (Int, Int) -> AttributeValue?) -> [Int] {
        guard count > 1 else { return Array(0..<count) }
        let identity = entity(0).identityIndices
        if identity.count == 1, var keys = StringSortKey.keys(count: count, text: { textValue(value($0, identity[0])) }) {
            func precedes(_ lhs: StringSortKey, _ rhs: StringSortKey) -> Bool {
                StringSortKey.precedes(lhs, rhs) { textValue(value($0, identity[0]))! }
            }
            if !zip(keys, keys.dropFirst()).contains(where: { precedes($1, $0) }) { return Array(0..<count) }
            keys.sort(by: precedes)
            return keys.map(\.position)
        }
        func compare(_ lhs: Int, _ rhs: Int) -> ComparisonResult {
            Self.compare(entity(lhs), { value(lhs, $0) }, entity(rhs), { value(rhs, $0) })
        }
        if !(1..<count).contains(where: { compare($0 - 1, $0) == .orderedDescending }) { return Array(0..<count) }
        // A stable sort: ties keep their stored order.
        return (0..<count).sorted { lhs, rhs in
            switch compare(lhs, rhs) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: lhs < rhs
            }
        }
    }

    /// The canonical order of two members of one relationship, given by entity and attribute values.
    package static func compare(
        _ lhsEntity: Entity, _ lhs: (Int) -> AttributeValue?, _ rhsEntity: Entity, _ rhs: (Int) -> AttributeValue?
    ) -> ComparisonResult {
        // Objects of one relationship share a root entity, so both have identity or neither has.
        let indices = lhsEntity.identityIndices
        if !indices.isEmpty {
            for index in indices {
                let order = order(lhs(index), rhs(index))
                if order != .orderedSame { return order }
            }
            return .orderedSame
        }
        if lhsEntity !== rhsEntity { return lhsEntity.name < rhsEntity.name ? .orderedAscending : .orderedDescending }
        for index in lhsEntity.attributes.indices {
            let order = order(lhs(index), rhs(index))
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }

    private static func textValue(_ value: AttributeValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
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

/// The sort key of a member whose identity is one string, the common case: its place in the stored order (ties keep
/// that order) and the string's first eight UTF-8 bytes as an integer.
///
/// For ASCII text, byte order is the order Swift compares strings in, so when every key is ASCII two keys with
/// different prefixes compare with one integer comparison; the strings are read again only when the prefixes tie.
private struct StringSortKey {
    /// The first eight bytes, big-endian and zero-padded; 0 for every key when some key is not ASCII.
    var prefix: UInt64
    let position: Int

    /// The keys of the members in stored order, or nil when some member has no string value (`text` gives each
    /// member's).
    ///
    /// - Complexity: O(*n*) in the members' total text length.
    static func keys(count: Int, text: (Int) -> String?) -> [StringSortKey]? {
        var keys: [StringSortKey] = []
        keys.reserveCapacity(count)
        var isASCII = true
        for position in 0..<count {
            guard let text = text(position) else { return nil }
            var prefix: UInt64 = 0
            if isASCII {
                if let asciiPrefix = Self.asciiPrefix(of: text) { prefix = asciiPrefix } else { isASCII = false }
            }
            keys.append(StringSortKey(prefix: prefix, position: position))
        }
        if !isASCII {
            for index in keys.indices { keys[index].prefix = 0 }
        }
        return keys
    }

    /// The first eight UTF-8 bytes of an ASCII string as a big-endian integer; nil when the string is not ASCII.
    private static func asciiPrefix(of text: String) -> UInt64? {
        let prefix = text.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            var prefix: UInt64 = 0
            for index in 0..<8 { prefix = prefix << 8 | UInt64(index < bytes.count ? bytes[index] : 0) }
            for byte in bytes where byte >= 0x80 { return nil }
            return prefix
        }
        return prefix ?? nil
    }

    /// Whether `lhs` sorts before `rhs`, given each member's text: by text as Swift orders strings, then by stored
    /// position.
    static func precedes(_ lhs: StringSortKey, _ rhs: StringSortKey, text: (Int) -> String) -> Bool {
        if lhs.prefix != rhs.prefix { return lhs.prefix < rhs.prefix }
        let left = text(lhs.position), right = text(rhs.position)
        if left < right { return true }
        if right < left { return false }
        return lhs.position < rhs.position
    }
}
