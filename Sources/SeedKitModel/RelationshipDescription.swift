/// What deleting an object does to the objects at the other end of one of its relationships.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Unlink the related objects (the default).
    case nullify
    /// Delete the related objects too.
    case cascade
    /// Refuse to delete the object while it has related objects.
    case deny
}

/// The description of a relationship: destination, cardinality, order, inverse, ownership and delete rule.
///
///     RelationshipDescription("employees", to: "Employee", isToMany: true, inverse: "department")
///     RelationshipDescription("addresses", to: "Address", isToMany: true, isOrdered: true, owns: true)
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its members in order.
    public var isOrdered: Bool
    /// The name of the relationship of the destination that points back.
    public var inverse: String?
    /// Whether this is composition: the destination objects live and die with their owner, nest under it on export,
    /// and are deleted with it.
    public var owns: Bool
    /// What deleting the source object does to the destination objects. An owned relationship always cascades.
    public var deleteRule: DeleteRule
    /// Old names still accepted when reading.
    public var aliases: [String]
    /// Whether templates and dictionaries may name a member by its identity value alone, `"department": "Sales"` or
    /// `"projects": ["P1", "P2"]` (model file: `"byIdentity": true`); `toDictionary` and template exports then write
    /// references that way. The destination must have an identity of one attribute, and the relationship must not
    /// own its members. As with `{"class": …, "name": …}`, the value must name an object that exists.
    public var isByIdentity: Bool

    public init(
        _ name: String, to destination: String, isToMany: Bool = false, isOrdered: Bool = false,
        inverse: String? = nil, owns: Bool = false, deleteRule: DeleteRule? = nil, aliases: [String] = [],
        isByIdentity: Bool = false
    ) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.inverse = inverse
        self.owns = owns
        self.deleteRule = deleteRule ?? (owns ? .cascade : .nullify)
        self.aliases = aliases
        self.isByIdentity = isByIdentity
    }
}
