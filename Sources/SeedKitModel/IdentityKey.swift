/// An object's identity as the key of a hash table: its root entity and identity values, hashed once.
///
///     var index: [IdentityKey: ManagedObject] = [:]
///     index[IdentityKey(root: "Employee", values: [.string("ann@example.com")])] = ann
///
/// Keys compare as exact bytes, as SQLite and PostgreSQL compare text: `"é"` written as one scalar (NFC) and as
/// `e` plus a combining accent (NFD) are two identities, though Swift's `String ==` calls them equal. A subentity's
/// objects share their root's keys, so an identity is unique across an inheritance tree.
///
/// - Complexity: O(*n*) in the size of the values to create; O(1) to hash; O(*n*) to compare keys of equal hash.
package struct IdentityKey: Hashable, Sendable {
    /// The root entity's name.
    package let root: String
    package let values: [AttributeValue]
    /// The hash of the root and values, taken once: a table rehashes only this integer as it grows.
    private let hash: Int

    package init(root: String, values: [AttributeValue]) {
        self.root = root
        self.values = values
        var hasher = Hasher()
        root.hashBytes(into: &hasher)
        for value in values {
            if case .string(let text) = value {
                text.hashBytes(into: &hasher)
            } else {
                value.hash(into: &hasher)
            }
        }
        hash = hasher.finalize()
    }

    package static func == (lhs: IdentityKey, rhs: IdentityKey) -> Bool {
        lhs.hash == rhs.hash && lhs.values.count == rhs.values.count && lhs.root.hasSameBytes(as: rhs.root)
            && zip(lhs.values, rhs.values).allSatisfy { $0.isIdentical(to: $1) }
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension AttributeValue {
    /// Whether two values are the same value with the same bytes: strings (and the strings inside JSON) compare
    /// as UTF-8 bytes, not by Unicode canonical equivalence as `==` does.
    ///
    ///     AttributeValue.string("\u{E9}").isIdentical(to: .string("e\u{301}"))   // false, though == says true
    package func isIdentical(to other: AttributeValue) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): a.hasSameBytes(as: b)
        case (.json(let a), .json(let b)): a.serialized(style: .canonical) == b.serialized(style: .canonical)
        default: self == other
        }
    }
}
