extension String {
    /// Whether the two strings have the same UTF-8 bytes: identity values compare this way in every layer, where
    /// `==` would call canonically equivalent spellings (NFC and NFD) equal.
    ///
    /// - Complexity: O(*n*); a byte comparison for native strings.
    package func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in lhs.elementsEqual(rhs) }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
