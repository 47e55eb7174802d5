/// A refused operation on managed objects or a context, naming the object and key it concerns.
///
///     Employee[email=ann@example.com].hired: expected a date (Date or Timestamp), got String "yesterday"
public struct ObjectError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// No attribute or relationship of that name.
        case unknownKey
        /// The value is not of the property's type, or an object is not of the destination entity.
        case typeMismatch
        /// A required attribute has no value.
        case missingValue
        /// Another object already has this identity.
        case identityConflict
        /// A deny delete rule refused the deletion.
        case deleteDenied
        /// The entity is not in the context's model, or the object belongs to another context.
        case wrongContext
        /// A key path passed through a missing object.
        case brokenKeyPath
        /// No object has this id in the context, its parents or its store: it was deleted, or never saved there.
        case missingObject
        /// A change set was merged into a context with neither a store nor a parent to read the changes from.
        case mergeWithoutSource
    }

    public var kind: Kind
    /// The object, as `Entity[identity]` or `Entity#number`.
    public var object: String
    public var key: String?
    public var message: String

    package init(_ kind: Kind, object: String, key: String? = nil, _ message: String) {
        self.kind = kind
        self.object = object
        self.key = key
        self.message = message
    }

    public var description: String {
        key.map { "\(object).\($0): \(message)" } ?? "\(object): \(message)"
    }
}

/// Every problem that stopped a save, so all of them can be fixed at once.
public struct SaveErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [ObjectError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
