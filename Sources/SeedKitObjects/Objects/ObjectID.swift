/// The identifier of an object within its context: its root entity and a number unique among that entity's objects.
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The root entity of the object's entity.
    public let entityName: String
    /// Settable inside SeedKit, so that a fetched object takes its row id without its entity name being copied again.
    public internal(set) var number: Int64

    package init(entityName: String, number: Int64) {
        self.entityName = entityName
        self.number = number
    }

    public var description: String { "\(entityName)#\(number)" }

    /// Hashes the number only: numbers rarely repeat across entities, equality still compares both, and a context
    /// hashes an id on every registration and lookup, where hashing the entity's name too would cost more than the rest.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
    }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entityName, lhs.number) < (rhs.entityName, rhs.number)
    }
}
