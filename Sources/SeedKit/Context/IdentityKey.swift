/// An object's identity values with their hash taken once, as the key of an identity table.
///
///     var table: [IdentityKey: ManagedObject] = [:]
///     table[IdentityKey([.string("ann@example.com")])] = ann
typealias IdentityKey = Prehashed<[AttributeValue]>
