/// An object's identity values with their hash taken once, as the key of an identity table.
///
///     var table: [IdentityKey: ManagedObject] = [:]
///     table[IdentityKey([.string("ann@example.com")])] = ann
///
/// A key is looked up, stored, and rehashed each time its table grows; hashing the values (mostly strings) is the
/// expensive part of all three, so it is done once.
///
/// - Complexity: O(*n*) in the size of the values to create; O(1) to hash, and to compare keys with different hashes.
struct IdentityKey: Hashable {
    let values: [AttributeValue]
    private let hash: Int

    init(_ values: [AttributeValue]) {
        self.values = values
        self.hash = values.hashValue
    }

    static func == (lhs: IdentityKey, rhs: IdentityKey) -> Bool { lhs.hash == rhs.hash && lhs.values == rhs.values }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
