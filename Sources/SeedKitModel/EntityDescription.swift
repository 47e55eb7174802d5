/// The declaration of an entity, as a model file or a Swift class states it: its own properties only.
///
/// An ``EntityModel`` validates declarations and resolves them into ``Entity`` values, which add what a subentity
/// inherits.
///
///     EntityDescription(
///         "Department", identity: ["name"],
///         attributes: [AttributeDescription("name", .string), AttributeDescription("budget", .decimal, isOptional: true)],
///         relationships: [RelationshipDescription("employees", to: "Employee", isToMany: true, inverse: "department")])
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name: the value of the `"class"` key.
    public var name: String
    /// The parent entity's name. A subentity has its parent's properties and identity.
    public var parent: String?
    public var attributes: [AttributeDescription]
    public var relationships: [RelationshipDescription]
    /// The attributes whose values identify an object; declared on a root entity only.
    public var identity: [String]
    /// Old names still accepted when reading.
    public var aliases: [String]
    /// Whether a template that names an object of this entity by its identity alone creates it when no template
    /// states it and the store holds none (model file: `"createdByReference": true`). Off by default: a reference
    /// must name an object that exists, so that a mistyped name is an error rather than a new object.
    public var isCreatedByReference: Bool
    /// How templates and dictionaries spell the keys of this entity and its subentities (model file:
    /// `"keyStyle"`); nil for the parent's style, or at a root the model's (``EntityModel/keyStyle``).
    public var keyStyle: KeyStyle?

    public init(
        _ name: String, parent: String? = nil, identity: [String] = [], attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [], aliases: [String] = [], isCreatedByReference: Bool = false,
        keyStyle: KeyStyle? = nil
    ) {
        self.name = name
        self.parent = parent
        self.identity = identity
        self.attributes = attributes
        self.relationships = relationships
        self.aliases = aliases
        self.isCreatedByReference = isCreatedByReference
        self.keyStyle = keyStyle
    }
}
