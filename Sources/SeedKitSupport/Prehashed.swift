/// A value with its hash taken once, as the key of a hash table.
///
///     var table: [Prehashed<String>: Int] = [:]
///     let key = Prehashed("Item[1000]")      // hashed here, on any thread
///     table[key] = 1                          // hashed again only as an integer
///
/// A key is looked up, stored, and rehashed each time its table grows; hashing the value (mostly strings) is the
/// expensive part of all three, so it is done once — and, for keys made on other threads, off the thread that fills
/// the table.
///
/// - Complexity: O(*n*) in the size of the value to create; O(1) to hash, and to compare keys with different hashes.
package struct Prehashed<Value: Hashable & Sendable>: Hashable, Sendable {
    package let value: Value
    /// The value's `hashValue`, taken once; a table of its own can place the key by it without hashing again.
    package let hash: Int

    package init(_ value: Value) {
        self.value = value
        self.hash = value.hashValue
    }

    package static func == (lhs: Prehashed, rhs: Prehashed) -> Bool { lhs.hash == rhs.hash && lhs.value == rhs.value }

    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
