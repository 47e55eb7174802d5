import SeedKitJSON

/// One difference between two object graphs, found by ``GraphDiff``.
///
///     ~ Employee[email=ann@example.com].department: Department[name=Sales] → Department[name=Engineering]
///
/// Objects are named by entity and identity (`Employee[email=ann@example.com]`), by `$id` when they have no
/// identity, and by their place under their owner (`Employee[email=ann@example.com].addresses[0]`) when they have
/// neither.
public struct GraphChange: Sendable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The model changed: an entity, attribute or relationship added, removed or redeclared.
        case model
        /// An object only in the new graph; ``new`` is its export form.
        case added
        /// An object only in the old graph; ``old`` is its export form.
        case removed
        /// An object's entity changed within its inheritance tree; ``old`` and ``new`` are the class names.
        case classChanged
        /// An attribute's value changed; nil on one side means the value is absent there.
        case attribute
        /// A to-one relationship points elsewhere; nil on one side means it is empty there.
        case target
        /// A member joined a to-many relationship; ``new`` names it (or is the member, when it has no name).
        case linked
        /// A member left a to-many relationship; ``old`` names it (or is the member).
        case unlinked
        /// An ordered relationship has the same members in another order; ``old`` and ``new`` list them.
        case reordered
    }

    public var kind: Kind
    /// The object, `Employee[email=ann@example.com]`, or `model` for a model change.
    public var object: String
    /// The property (or, for a model change, `Entity` or `Entity.property`); nil for a whole object.
    public var property: String?
    public var old: JSON?
    public var new: JSON?
    /// Where the object is written: in the new graph, or in the old one for a removal; nil when the graph did not
    /// come from a file.
    public var location: SourceLocation?

    package init(
        kind: Kind, object: String, property: String? = nil, old: JSON? = nil, new: JSON? = nil,
        location: SourceLocation? = nil
    ) {
        self.kind = kind
        self.object = object
        self.property = property
        self.old = old
        self.new = new
        self.location = location
    }

    /// `Employee[email=ann@example.com].department`, or the object alone for a whole-object change.
    public var path: String {
        property.map { "\(object).\($0)" } ?? object
    }
}
