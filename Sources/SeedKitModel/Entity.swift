/// An entity of a validated ``EntityModel``: its declaration plus everything it inherits, with lookups by name.
///
/// Entities are immutable and shared by every object of the entity, so an object carries a single reference to its
/// description. Properties are laid out parent-first: an inherited attribute has the same index in every subentity.
public final class Entity: Sendable, CustomStringConvertible {
    /// The entity's name: the value of the `"class"` key.
    public let name: String
    package let declaration: EntityDescription
    /// The name of the parent entity, if any.
    public var parentName: String? { declaration.parent }
    /// The name of the entity at the top of this entity's inheritance chain (itself when it has no parent).
    public let rootName: String
    /// This entity, then its parent, up to the root.
    package let lineage: [String]
    /// This entity and every entity that inherits from it, in name order.
    package let kinds: [String]
    /// All attributes, inherited ones first.
    public let attributes: [AttributeDescription]
    /// All relationships, inherited ones first.
    public let relationships: [RelationshipDescription]
    /// The identity attribute names (inherited from the root).
    public let identity: [String]
    /// Indices into ``attributes`` of the identity attributes.
    package let identityIndices: [Int]
    /// Each attribute's default value, by index: the values a new object starts with, shared by all of them until
    /// one changes its own copy.
    package let defaultValues: [AttributeValue?]

    /// How templates and dictionaries spell this entity's keys: its own style, else its parent's, else the model's.
    public let keyStyle: KeyStyle
    /// Each attribute's key in templates and dictionaries (its name in the entity's ``keyStyle``), by index.
    package let attributeKeys: [String]
    /// Each relationship's key in templates and dictionaries, by index.
    package let relationshipKeys: [String]

    let attributeIndexByName: [String: Int]
    let relationshipIndexByName: [String: Int]
    /// By key and aliases' keys: the same tables as by name when keys are the names.
    private let attributeIndexByKey: [String: Int]
    private let relationshipIndexByKey: [String: Int]
    /// The attribute names in order, which ``attributeIndex(named:)`` compares a name with when there are few and no
    /// aliases: a few comparisons cost less than hashing the name once.
    private let comparedAttributeNames: [String]?
    /// What the objects layer binds to the entity — the Swift class of its objects and the storage slots of their
    /// typed properties — when the model was built from classes. The model only carries it: its type belongs to a
    /// layer above, which alone reads it.
    @usableFromInline package let binding: (any AnyObject & Sendable)?

    package init(
        declaration: EntityDescription, lineage: [String], kinds: [String], attributes: [AttributeDescription],
        relationships: [RelationshipDescription], identity: [String], keyStyle: KeyStyle = .propertyNames,
        binding: (any AnyObject & Sendable)?
    ) {
        self.name = declaration.name
        self.declaration = declaration
        self.lineage = lineage
        self.rootName = lineage.last ?? declaration.name
        self.kinds = kinds
        self.attributes = attributes
        self.relationships = relationships
        self.identity = identity
        self.defaultValues = attributes.map(\.defaultValue)
        func indices(_ names: [(name: String, aliases: [String])], _ key: (String) -> String) -> [String: Int] {
            var table: [String: Int] = [:]
            for (index, property) in names.enumerated() {
                table[key(property.name)] = index
                for alias in property.aliases where table[key(alias)] == nil { table[key(alias)] = index }
            }
            return table
        }
        let attributeNames = attributes.map { ($0.name, $0.aliases) }
        let relationshipNames = relationships.map { ($0.name, $0.aliases) }
        let attributeIndexByName = indices(attributeNames) { $0 }
        let relationshipIndexByName = indices(relationshipNames) { $0 }
        self.attributeIndexByName = attributeIndexByName
        self.relationshipIndexByName = relationshipIndexByName
        self.keyStyle = keyStyle
        if keyStyle == .propertyNames {
            attributeKeys = attributes.map { $0.name }
            relationshipKeys = relationships.map { $0.name }
            attributeIndexByKey = attributeIndexByName
            relationshipIndexByKey = relationshipIndexByName
        } else {
            attributeKeys = attributes.map { keyStyle.key(for: $0.name) }
            relationshipKeys = relationships.map { keyStyle.key(for: $0.name) }
            attributeIndexByKey = indices(attributeNames, keyStyle.key(for:))
            relationshipIndexByKey = indices(relationshipNames, keyStyle.key(for:))
        }
        comparedAttributeNames = attributes.count <= Self.comparedNameLimit
            && attributeIndexByName.count == attributes.count ? attributes.map(\.name) : nil
        self.identityIndices = identity.compactMap { attributeIndexByName[$0] }
        self.binding = binding
    }

    /// The index of the attribute with this name or alias.
    ///
    /// - Complexity: O(1) on average.
    package func attributeIndex(named name: String) -> Int? {
        if let names = comparedAttributeNames { return names.firstIndex(of: name) }
        return attributeIndexByName[name]
    }

    /// The most names a lookup compares one by one rather than hashing the name (see ``attributeIndex(named:)``).
    package static let comparedNameLimit = 16

    /// The index of the relationship with this name or alias.
    ///
    /// - Complexity: O(1) on average.
    package func relationshipIndex(named name: String) -> Int? { relationshipIndexByName[name] }

    /// The index of the attribute a template or dictionary key names, in the entity's ``keyStyle``.
    ///
    /// - Complexity: O(1) on average.
    package func attributeIndex(forKey key: String) -> Int? { attributeIndexByKey[key] }

    /// The index of the relationship a template or dictionary key names, in the entity's ``keyStyle``.
    ///
    /// - Complexity: O(1) on average.
    package func relationshipIndex(forKey key: String) -> Int? { relationshipIndexByKey[key] }

    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndexByName[name].map { attributes[$0] }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndexByName[name].map { relationships[$0] }
    }

    /// Whether this entity is `entityName` or inherits from it.
    public func isKind(of entityName: String) -> Bool { lineage.contains(entityName) }

    /// The names of every property, attributes first, for "did you mean" suggestions and error messages.
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }

    /// The key of every property in templates and dictionaries, attributes first, for suggestions.
    package var propertyKeys: [String] { attributeKeys + relationshipKeys }

    public var description: String { name }
}
