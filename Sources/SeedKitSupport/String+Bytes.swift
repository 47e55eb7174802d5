import Foundation

extension String {
    /// Whether the two strings have the same UTF-8 bytes: identity values compare this way in every layer, where
    /// `==` would call canonically equivalent spellings (NFC and NFD) equal.
    ///
    /// - Complexity: O(*n*); a byte comparison for native strings.
    package func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                lhs.isEmpty || memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether the string's UTF-8 bytes are `bytes`: a string decoded from bytes holds them only if they were valid
    /// UTF-8 (decoding repairs the others).
    ///
    /// - Complexity: O(*n*); a byte comparison for native strings.
    package func hasSameBytes(as bytes: ArraySlice<UInt8>) -> Bool {
        guard utf8.count == bytes.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { lhs in
            bytes.withUnsafeBufferPointer { rhs in lhs.isEmpty || memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0 }
        }
        return compared ?? utf8.elementsEqual(bytes)
    }

    /// Feeds the string's UTF-8 bytes and their count to `hasher`: unlike `String`'s own hash, which is the same for
    /// canonically equivalent strings, this one follows the bytes, as ``hasSameBytes(as:)`` compares them.
    ///
    /// - Complexity: O(*n*).
    package func hashBytes(into hasher: inout Hasher) {
        let hashed: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if hashed == nil {
            hasher.combine(utf8.count)
            for byte in utf8 { hasher.combine(byte) }
        }
    }
}
