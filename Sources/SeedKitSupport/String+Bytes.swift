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

    /// Whether the string's UTF-8 bytes come before `other`'s in lexicographic byte order: the order of paths and
    /// keys that must not depend on Unicode normalization, as `<` does.
    ///
    /// - Complexity: O(*n*); a byte comparison for native strings.
    @inlinable
    package func precedesInBytes(_ other: String) -> Bool {
        compareBytes(other) < 0
    }

    /// The order of the string's UTF-8 bytes and `other`'s, as `memcmp` gives it: negative when they come first,
    /// zero when they are the same, positive when they come after.
    ///
    /// - Complexity: O(*n*); a byte comparison for native strings.
    @inlinable
    package func compareBytes(_ other: String) -> Int {
        let compared = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs -> Int in
                let common = Swift.min(lhs.count, rhs.count)
                let order = common == 0 ? 0 : Int(memcmp(lhs.baseAddress!, rhs.baseAddress!, common))
                return order != 0 ? order : lhs.count - rhs.count
            }
        }
        if let compared = compared ?? nil { return compared }
        return utf8.lexicographicallyPrecedes(other.utf8) ? -1 : utf8.elementsEqual(other.utf8) ? 0 : 1
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
