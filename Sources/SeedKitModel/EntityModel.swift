/// A validated, immutable set of entities: the description every object, coder and store works from.
///
/// Build one from declarations, from a model file (``init(json:)``), or from Swift classes (``init(classes:)``);
/// all three give the same kind of value, and two models are equal when their declarations are.
///
///     let model = try EntityModel([
///         EntityDescription("Department", identity: ["name"], attributes: [AttributeDescription("name", .string)]),
///     ])
///     model.entity(named: "Department")?.identity  // ["name"]
public struct EntityModel: Sendable, Hashable {
    /// The declarations, in name order, each with its properties in name order.
    public let declarations: [EntityDescription]
    /// The resolved entities, in name order.
    public let entities: [Entity]
    /// How templates and dictionaries spell keys, for every entity that does not say otherwise
    /// (``EntityDescription/keyStyle``); model file: `"keyStyle"`.
    public let keyStyle: KeyStyle
    /// The ``StableHash`` of the model's canonical JSON, in hex: two models with the same fingerprint have the same
    /// entities, and a store or a template set records the fingerprint of the model it was made with. Worked out
    /// once, as the model is made: stores, seeding runs and ledgers ask for it again and again.
    package let fingerprint: String
    private let entitiesByName: [String: Entity]
    /// Whether ``entity(named:)`` compares names with the entities' rather than hashing them: for a model of a few
    /// entities, none with aliases.
    private let looksUpByComparing: Bool

    /// Validates the declarations and resolves inheritance.
    ///
    ///     let model = try EntityModel(declarations, keyStyle: .snakeCase)   // templates write "first_name"
    ///
    /// - Throws: ``ModelErrors`` listing every problem, each naming its entity and property.
    /// - Complexity: O(*n*) in the total number of properties, times the depth of inheritance.
    public init(_ declarations: [EntityDescription], keyStyle: KeyStyle = .propertyNames) throws {
        try self.init(declarations, keyStyle: keyStyle, bindings: [:])
    }

    /// Validates the declarations and gives each entity named in `bindings` its binding to the objects layer (see
    /// ``Entity/binding``).
    package init(
        _ declarations: [EntityDescription], keyStyle: KeyStyle = .propertyNames,
        bindings: [String: any AnyObject & Sendable]
    ) throws {
        let errors = ModelValidator(declarations.sorted { $0.name < $1.name }, keyStyle: keyStyle).validate()
        guard errors.isEmpty else { throw ModelErrors(errors: errors) }
        // Entities and properties in name order: the same model from a file, from classes or from code is one value.
        let sorted = Self.completingInverses(declarations).sorted { $0.name < $1.name }.map { declaration in
            var normalized = declaration
            normalized.attributes.sort { $0.name < $1.name }
            normalized.relationships.sort { $0.name < $1.name }
            return normalized
        }

        let declarationsByName = Dictionary(sorted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func lineage(of name: String) -> [String] {
            var chain = [name]
            while let parent = declarationsByName[chain.last!]?.parent { chain.append(parent) }
            return chain
        }
        var entities: [Entity] = []
        for declaration in sorted {
            let chain = lineage(of: declaration.name)
            let ancestors = chain.reversed().compactMap { declarationsByName[$0] }
            let kinds = sorted.filter { lineage(of: $0.name).contains(declaration.name) }.map(\.name)
            entities.append(
                Entity(
                    declaration: declaration, lineage: chain, kinds: kinds,
                    attributes: ancestors.flatMap(\.attributes), relationships: ancestors.flatMap(\.relationships),
                    identity: ancestors.first?.identity ?? [],
                    keyStyle: ancestors.last { $0.keyStyle != nil }?.keyStyle ?? keyStyle,
                    binding: bindings[declaration.name]))
        }
        self.keyStyle = keyStyle
        self.declarations = sorted
        fingerprint = Self.fingerprint(declarations: sorted, keyStyle: keyStyle)
        self.entities = entities
        var byName: [String: Entity] = [:]
        for entity in entities {
            byName[entity.name] = entity
            for alias in entity.declaration.aliases { byName[alias] = entity }
        }
        self.entitiesByName = byName
        looksUpByComparing = entities.count <= Entity.comparedNameLimit && byName.count == entities.count
        let clashes = storeNameClashes()
        guard clashes.isEmpty else { throw ModelErrors(errors: clashes) }
    }

    /// Declares each inverse on both sides, so a pair stated on one side only is still kept consistent.
    ///
    /// Runs after validation, so every destination exists and inheritance has no cycle.
    private static func completingInverses(_ declarations: [EntityDescription]) -> [EntityDescription] {
        var result = declarations
        let indexByName = Dictionary(declarations.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        for entity in declarations {
            for relationship in entity.relationships {
                guard let inverse = relationship.inverse else { continue }
                // The inverse may be declared on the destination or inherited from one of its ancestors.
                var owner = indexByName[relationship.destination]
                while let index = owner {
                    if let slot = result[index].relationships.firstIndex(where: { $0.name == inverse }) {
                        if result[index].relationships[slot].inverse == nil {
                            result[index].relationships[slot].inverse = relationship.name
                        }
                        break
                    }
                    owner = result[index].parent.flatMap { indexByName[$0] }
                }
            }
        }
        return result
    }

    /// The entity with this name or alias.
    ///
    /// - Complexity: O(1) on average.
    public func entity(named name: String) -> Entity? {
        if looksUpByComparing {
            for entity in entities where entity.name == name { return entity }
            return nil
        }
        return entitiesByName[name]
    }

    /// The entity names, in order, for error messages.
    public var entityNames: [String] { entities.map(\.name) }

    /// The entity of a relationship's destination.
    package func destination(of relationship: RelationshipDescription) -> Entity {
        // Validation guarantees every destination exists.
        entitiesByName[relationship.destination]!
    }

    public static func == (lhs: EntityModel, rhs: EntityModel) -> Bool {
        lhs.declarations == rhs.declarations && lhs.keyStyle == rhs.keyStyle
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(declarations)
        hasher.combine(keyStyle)
    }
}
