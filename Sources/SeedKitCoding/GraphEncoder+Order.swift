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
        guard members.count > 1 else { return members }
        let identity = members[0].entity.identityIndices
        if identity.count == 1, var keys = StringSortKey.keys(of: members, attribute: identity[0]) {
            let attribute = identity[0]
            let precedes = { StringSortKey.precedes($0, $1, in: members, attribute: attribute) }
            if !zip(keys, keys.dropFirst()).contains(where: { precedes($1, $0) }) { return members }
            keys.sort(by: precedes)
            return keys.map { members[$0.position] }
        }
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
    package static func compare(_ lhs: ManagedObject, _ rhs: ManagedObject) -> ComparisonResult {
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

/// The sort key of a member whose identity is one string, the common case: its place in the stored order (ties keep
/// that order) and the string's first eight UTF-8 bytes as an integer.
///
/// For ASCII text, byte order is the order Swift compares strings in, so when every key is ASCII two keys with
/// different prefixes compare with one integer comparison; the strings are read again only when the prefixes tie.
private struct StringSortKey {
    /// The first eight bytes, big-endian and zero-padded; 0 for every key when some key is not ASCII.
    var prefix: UInt64
    let position: Int

    /// The keys of `members` in stored order, or nil when some member has no string value for `attribute`.
    ///
    /// - Complexity: O(*n*) in the members' total text length.
    static func keys(of members: [ManagedObject], attribute: Int) -> [StringSortKey]? {
        var keys: [StringSortKey] = []
        keys.reserveCapacity(members.count)
        var isASCII = true
        for (position, member) in members.enumerated() {
            guard case .string(let text)? = member.attributeValues[attribute] else { return nil }
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

    /// Whether `lhs` sorts before `rhs`, the keys of `members` for `attribute`: by text as Swift orders strings, then
    /// by stored position.
    static func precedes(_ lhs: StringSortKey, _ rhs: StringSortKey, in members: [ManagedObject], attribute: Int) -> Bool {
        if lhs.prefix != rhs.prefix { return lhs.prefix < rhs.prefix }
        guard case .string(let left)? = members[lhs.position].attributeValues[attribute],
            case .string(let right)? = members[rhs.position].attributeValues[attribute]
        else { preconditionFailure("keys are made only for members with a string value") }
        if left < right { return true }
        if right < left { return false }
        return lhs.position < rhs.position
    }
}
