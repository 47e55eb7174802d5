/// A string with its hash taken once, as the key of a hash table: equal only to a string of the same bytes.
///
///     var table: [Prehashed: Int] = [:]
///     let key = Prehashed("Item[1000]")      // hashed here, on any thread
///     table[key] = 1                          // hashed again only as an integer
///
/// A key is looked up, stored, and rehashed each time its table grows; hashing the string is the expensive part of
/// all three, so it is done once — and, for keys made on other threads, off the thread that fills the table. Keys
/// name objects by identity, so they compare as exact bytes (``Swift/String/hasSameBytes(as:)``), not by canonical
/// equivalence as `String ==` does.
///
/// A concrete type rather than a generic one: a generic type of another module costs a runtime metadata lookup
/// wherever its values are copied or destroyed in code the optimizer did not specialize.
///
/// - Complexity: O(*n*) in the length of the string to create; O(1) to hash, and to compare keys with different
///   hashes.
package struct Prehashed: Hashable, Sendable {
    package let value: String
    /// The hash of the string's bytes, taken once; a table of its own can place the key by it without hashing again.
    package let hash: Int

    package init(_ value: String) {
        self.value = value
        var hasher = Hasher()
        value.hashBytes(into: &hasher)
        self.hash = hasher.finalize()
    }

    @inlinable
    package static func == (lhs: Prehashed, rhs: Prehashed) -> Bool {
        lhs.hash == rhs.hash && lhs.value.hasSameBytes(as: rhs.value)
    }

    @inlinable
    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The key's place in a table: its hash, taken once with a per-process seed, mixed with the table's seed,
    /// rather than hashed again each time a table looks the key up or grows.
    @inlinable
    package func _rawHashValue(seed: Int) -> Int { hash ^ seed }
}
