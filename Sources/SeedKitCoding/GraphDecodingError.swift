import SeedKitJSON

/// A problem in decoder input: what is wrong, where (a JSON Pointer and, for JSON text, file:line:column) and what
/// would be valid.
///
///     Templates/Staff.json:4:7: /department/employees/2/nmae: unknown attribute 'nmae' of Employee; did you mean 'name'?
public struct GraphDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The text is not JSON.
        case syntax
        /// A value of the wrong kind: a string for a number, an object of the wrong entity, …
        case typeMismatch
        /// A number of the right kind that the attribute's type cannot hold.
        case outOfRange
        /// A required value is missing or null, or `"class"` is missing where it is needed.
        case missingValue
        /// `"class"` names no entity of the model, or one the relationship cannot hold.
        case unknownClass
        /// A key that is no attribute or relationship of the entity.
        case unknownKey
        /// A `"$ref"` to no `"$id"`, or a `"$ref"` object with other keys.
        case unresolvedReference
        /// Two places disagree about one object, or the input contradicts the object the context has.
        case identityConflict
        /// Two objects with one `"$id"`.
        case duplicateID
        /// An array for a to-one relationship, or an object for a to-many one.
        case cardinalityMismatch
        /// Deleting an owned object the input unlinks is refused by a deny delete rule.
        case deleteDenied
        /// The object to populate is in no context (deleted and saved, rolled back, or its context is gone).
        case detachedObject
    }

    public var kind: Kind
    /// Where in its input the problem is.
    public var pointer: JSONPointer
    /// The file of the input, when it came from one.
    public var file: String?
    /// The line and column, for input read from JSON text.
    public var location: SourceLocation?
    public var message: String
    /// The other place a conflict or duplicate involves: its pointer, with its file and location when known.
    public var relatedPointer: JSONPointer?
    public var relatedLocation: SourceLocation?

    package init(
        _ kind: Kind, pointer: JSONPointer, file: String? = nil, location: SourceLocation? = nil, message: String,
        relatedPointer: JSONPointer? = nil, relatedLocation: SourceLocation? = nil
    ) {
        self.kind = kind
        self.pointer = pointer
        self.file = file
        self.location = location
        self.message = message
        self.relatedPointer = relatedPointer
        self.relatedLocation = relatedLocation
    }

    /// The error as a ``Diagnostic``: its kind is the code, the related location its related place.
    public var diagnostic: Diagnostic {
        Diagnostic(
            Diagnostic.Code(kind), file: location?.file ?? file, location: location, pointer: pointer, message: message,
            related: relatedLocation.map { Diagnostic.Place(file: $0.file, line: $0.line, column: $0.column) })
    }

    /// `file:line:column: /pointer: message (see file:line:column)`, leaving out what is unknown.
    public var description: String { diagnostic.description }
}

/// Every problem of one decoder input, so all can be fixed at once; nothing was inserted or changed.
///
/// Sorted by location (file, line, column) when known, then by file and pointer.
public struct GraphDecodingErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [GraphDecodingError]

    package init(errors: [GraphDecodingError]) {
        self.errors = errors.sorted { lhs, rhs in
            switch (lhs.location, rhs.location) {
            case (let a?, let b?) where a != b: return a < b
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (lhs.file ?? "", lhs.pointer) < (rhs.file ?? "", rhs.pointer)
            }
        }
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
