/// An entity of a validated ``EntityModel``: its declaration plus everything it inherits, with lookups by name.
///
/// Entities are immutable and shared by every object of the entity, so an object carries a single reference to its
/// description. Properties are laid out parent-first: an inherited attribute has the same index in every subentity.
public final class Entity: Sendable, CustomStringConvertible {
    /// The entity's name: the value of the `"class"` key.
    public let name: String
    public let declaration: EntityDescription
    /// The name of the parent entity, if any.
    public var parentName: String? { declaration.parent }
    /// The name of the entity at the top of this entity's inheritance chain (itself when it has no parent).
    public let rootName: String
    /// This entity, then its parent, up to the root.
    public let lineage: [String]
    /// This entity and every entity that inherits from it, in name order.
    public let kinds: [String]
    /// All attributes, inherited ones first.
    public let attributes: [AttributeDescription]
    /// All relationships, inherited ones first.
    public let relationships: [RelationshipDescription]
    /// The identity attribute names (inherited from the root).
    public let identity: [String]
    /// Indices into ``attributes`` of the identity attributes.
    public let identityIndices: [Int]

    let attributeIndexByName: [String: Int]
    let relationshipIndexByName: [String: Int]
    /// The attribute names in order, which ``attributeIndex(named:)`` compares a name with when there are few and no
    /// aliases: a few comparisons cost less than hashing the name once.
    private let comparedAttributeNames: [String]?
    /// What the objects layer binds to the entity — the Swift class of its objects and the storage slots of their
    /// typed properties — when the model was built from classes. The model only carries it: its type belongs to a
    /// layer above, which alone reads it.
    @usableFromInline package let binding: (any AnyObject & Sendable)?

    package init(
        declaration: EntityDescription, lineage: [String], kinds: [String], attributes: [AttributeDescription],
        relationships: [RelationshipDescription], identity: [String], binding: (any AnyObject & Sendable)?
    ) {
        self.name = declaration.name
        self.declaration = declaration
        self.lineage = lineage
        self.rootName = lineage.last ?? declaration.name
        self.kinds = kinds
        self.attributes = attributes
        self.relationships = relationships
        self.identity = identity
        var attributeIndex: [String: Int] = [:]
        for (index, attribute) in attributes.enumerated() {
            attributeIndex[attribute.name] = index
            for alias in attribute.aliases where attributeIndex[alias] == nil { attributeIndex[alias] = index }
        }
        var relationshipIndex: [String: Int] = [:]
        for (index, relationship) in relationships.enumerated() {
            relationshipIndex[relationship.name] = index
            for alias in relationship.aliases where relationshipIndex[alias] == nil { relationshipIndex[alias] = index }
        }
        self.attributeIndexByName = attributeIndex
        self.relationshipIndexByName = relationshipIndex
        comparedAttributeNames = attributes.count <= Self.comparedNameLimit && attributeIndex.count == attributes.count
            ? attributes.map(\.name) : nil
        self.identityIndices = identity.compactMap { attributeIndex[$0] }
        self.binding = binding
    }

    /// The index of the attribute with this name or alias.
    ///
    /// - Complexity: O(1) on average.
    public func attributeIndex(named name: String) -> Int? {
        if let names = comparedAttributeNames { return names.firstIndex(of: name) }
        return attributeIndexByName[name]
    }

    /// The most names a lookup compares one by one rather than hashing the name (see ``attributeIndex(named:)``).
    package static let comparedNameLimit = 16

    /// The index of the relationship with this name or alias.
    ///
    /// - Complexity: O(1) on average.
    public func relationshipIndex(named name: String) -> Int? { relationshipIndexByName[name] }

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

    public var description: String { name }
}
