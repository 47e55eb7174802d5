import SeedKitJSON
import SeedKitObjects

/// How ``ManagedObject/populate(fromDictionary:policy:)`` treats the to-many relationships the dictionary lists.
public enum PopulatePolicy: Sendable, Hashable {
    /// The listed members become the whole relationship. Members left out are unlinked; those of an owned
    /// relationship are deleted, since nothing else owns them.
    case replace
    /// The listed members are added; current members stay.
    case add
}

/// What ``ManagedObject/populate(fromDictionary:policy:)`` changed.
///
/// Holds objects, so it is confined to their context's isolation domain like they are.
public struct PopulateChanges {
    /// An object that existed before, and the names of its keys that changed.
    public struct Update {
        public let object: ManagedObject
        public let keys: Set<String>
    }

    /// New objects, in the order the input first names them.
    public var inserted: [ManagedObject] = []
    /// Objects that existed and changed: the populated one, objects nested in the input, and objects whose
    /// inverse relationships changed with them.
    public var updated: [Update] = []
    /// Objects taken out of a relationship and kept.
    public var unlinked: [ManagedObject] = []
    /// Owned objects taken out of their owner's relationship, and the objects their delete rules cascade to.
    public var deleted: [ManagedObject] = []

    package init() {}
}

extension ManagedObject {
    /// Sets the keys a dictionary gives, leaving the others untouched.
    ///
    /// - An absent key is left as it is; `null` clears (an error for a required attribute).
    /// - A to-many relationship follows `policy`: ``PopulatePolicy/replace`` (the default) makes the listed members
    ///   the whole relationship, deleting owned members left out and unlinking the others; ``PopulatePolicy/add``
    ///   adds them. An owned to-one target that is replaced is deleted too.
    /// - Nested dictionaries are read as ``GraphDecoder`` reads them: upserts by identity, new objects otherwise.
    ///   The policy applies to this object's relationships; objects nested in the dictionary are merged into.
    ///
    ///     let changes = try sales.populate(fromDictionary: ["budget": 900_000, "employees": [["class": "Employee", "email": "ann@example.com"]]])
    ///     changes.unlinked  // the employees of Sales other than Ann
    ///
    /// - Precondition: the object is in a context.
    /// - Throws: ``GraphDecodingErrors`` with every problem of the dictionary; nothing is changed then.
    /// - Complexity: O(*n*) in the size of the dictionary plus the current members of the relationships it lists.
    @discardableResult
    public func populate(fromDictionary dictionary: [String: Any], policy: PopulatePolicy = .replace)
        throws(GraphDecodingErrors) -> PopulateChanges
    {
        let json: JSON
        do {
            json = try JSON(any: dictionary)
        } catch {
            throw GraphDecodingErrors(errors: [GraphDecodingError(.typeMismatch, pointer: error.pointer, message: error.message)])
        }
        return try populate(fromJSON: json, policy: policy)
    }

    /// Sets the keys a JSON object gives; see ``populate(fromDictionary:policy:)``.
    ///
    /// - Complexity: as ``populate(fromDictionary:policy:)``.
    @discardableResult
    public func populate(fromJSON json: JSON, policy: PopulatePolicy = .replace) throws(GraphDecodingErrors) -> PopulateChanges {
        guard let context else {
            throw GraphDecodingErrors(errors: [
                GraphDecodingError(
                    .detachedObject, pointer: .root,
                    message: "\(self) is in no context (deleted, rolled back, or its context is gone); only objects of a context can be populated")
            ])
        }
        let input = DecoderInput(value: json, document: nil, file: nil)
        let reading = GraphReading(context: context, inputs: [input], populating: (self, policy))
        return try reading.run().changes
    }
}
