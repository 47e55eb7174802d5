import SeedKitJSON

/// A problem with an entity model, naming the entity and property it concerns.
///
///     Employee.department: inverse 'staff' is not a relationship of Department; Department has: employees
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case invalidName, reservedName, duplicateName
        case unknownParent, inheritanceCycle
        case unknownDestination, invalidInverse
        case invalidIdentity, invalidDefault, invalidDeleteRule
        /// A `dateFormat` on an attribute that is not a date.
        case invalidDateFormat
        /// A relationship given by identity whose destination has no single-attribute identity, or that owns.
        case invalidByIdentity
        case invalidFile
        /// A model file's object has a key the format does not define: located at the key, not its value.
        case unknownKey
    }

    public var kind: Kind
    public var entity: String?
    public var property: String?
    public var message: String
    /// Where in a model file's JSON the problem is.
    public var pointer: JSONPointer?
    /// Where in a model file's text the problem is, when the model was read from text.
    public var location: SourceLocation?

    package init(_ kind: Kind, entity: String? = nil, property: String? = nil, _ message: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.message = message
    }

    /// The error as a ``Diagnostic`` in the model file `file` (the location's file when it has one), its message
    /// prefixed with the entity and property.
    public func diagnostic(file: String? = nil) -> Diagnostic {
        let subject = [entity, property].compactMap { $0 }.joined(separator: ".")
        return Diagnostic(
            Diagnostic.Code(kind), file: location?.file ?? file, location: location, pointer: pointer,
            message: subject.isEmpty ? message : "\(subject): \(message)")
    }

    /// `file:line:column: /pointer: Entity.property: message`, leaving out what is unknown.
    public var description: String { diagnostic().description }
}

/// All problems found in one model, so a model file can be fixed in one go.
public struct ModelErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [ModelError]

    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
