/// A problem with an entity model, naming the entity and property it concerns.
///
///     Employee.department: inverse 'staff' is not a relationship of Department; Department has: employees
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case invalidName, reservedName, duplicateName
        case unknownParent, inheritanceCycle
        case unknownDestination, invalidInverse
        case invalidIdentity, invalidDefault, invalidDeleteRule
        case invalidFile
    }

    public var kind: Kind
    public var entity: String?
    public var property: String?
    public var message: String

    public init(_ kind: Kind, entity: String? = nil, property: String? = nil, _ message: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.message = message
    }

    public var description: String {
        switch (entity, property) {
        case let (entity?, property?): "\(entity).\(property): \(message)"
        case let (entity?, nil): "\(entity): \(message)"
        default: message
        }
    }
}

/// All problems found in one model, so a model file can be fixed in one go.
public struct ModelErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [ModelError]

    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
