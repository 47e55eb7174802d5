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
    /// Where in a model file's JSON the problem is.
    public var pointer: JSONPointer?
    /// Where in a model file's text the problem is, when the model was read from text.
    public var location: SourceLocation?

    public init(_ kind: Kind, entity: String? = nil, property: String? = nil, _ message: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.message = message
    }

    public var description: String {
        let subject: String
        switch (entity, property) {
        case let (entity?, property?): subject = "\(entity).\(property): \(message)"
        case let (entity?, nil): subject = "\(entity): \(message)"
        default: subject = message
        }
        if let location { return "\(location): \(subject)" }
        if let pointer { return "\(pointer.description.isEmpty ? "/" : pointer.description): \(subject)" }
        return subject
    }
}

/// All problems found in one model, so a model file can be fixed in one go.
public struct ModelErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [ModelError]

    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
