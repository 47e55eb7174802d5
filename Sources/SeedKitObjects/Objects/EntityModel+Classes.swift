import Foundation
import SeedKitSupport
import SeedKitModel

/// How a Swift class maps onto its entity: the class to instantiate and the storage slot of each typed property.
///
/// An entity carries its binding as an opaque reference (``Entity/binding``), since the model knows nothing of
/// classes; ``Entity/bindings`` gives it its type back.
@usableFromInline
final class ClassBinding: Sendable {
    let objectClass: ManagedObject.Type
    /// Property keys and their slots, side by side: a class has few properties, and a linear scan of a few
    /// integers beats hashing on every property access.
    private let attributeKeys: [UInt64]
    private let attributeSlots: [Int]
    private let relationshipKeys: [UInt64]
    private let relationshipSlots: [Int]

    init(objectClass: ManagedObject.Type, attributeSlots: [PropertyKey: Int], relationshipSlots: [PropertyKey: Int]) {
        self.objectClass = objectClass
        self.attributeKeys = attributeSlots.keys.map(\.rawValue)
        self.attributeSlots = attributeSlots.keys.map { attributeSlots[$0]! }
        self.relationshipKeys = relationshipSlots.keys.map(\.rawValue)
        self.relationshipSlots = relationshipSlots.keys.map { relationshipSlots[$0]! }
    }

    /// - Complexity: O(*p*) for *p* attributes of the class.
    @usableFromInline
    func attributeSlot(for key: PropertyKey) -> Int? {
        attributeKeys.firstIndex(of: key.rawValue).map { attributeSlots[$0] }
    }

    /// - Complexity: O(*p*) for *p* relationships of the class.
    @usableFromInline
    func relationshipSlot(for key: PropertyKey) -> Int? {
        relationshipKeys.firstIndex(of: key.rawValue).map { relationshipSlots[$0] }
    }
}

/// A class's typed properties, read from a prototype once per class and cached.
struct ClassReflection: Sendable {
    struct Property: Sendable {
        let key: PropertyKey
        let name: String
        let isAttribute: Bool
    }

    let declaration: EntityDescription
    /// The class's own properties and every inherited one, in storage order.
    let properties: [Property]
    let superclass: ManagedObject.Type?

    private static let cache = Locked<[ObjectIdentifier: ClassReflection]>([:])

    /// The reflection of `objectClass`, made once per class from a prototype instance.
    ///
    /// - Complexity: O(*p*) for *p* properties the first time, O(1) on average after.
    static func of(_ objectClass: ManagedObject.Type) -> ClassReflection {
        if let cached = cache.withLock({ $0[ObjectIdentifier(objectClass)] }) { return cached }
        let reflection = reflect(objectClass)
        cache.withLock { $0[ObjectIdentifier(objectClass)] = reflection }
        return reflection
    }

    private static func reflect(_ objectClass: ManagedObject.Type) -> ClassReflection {
        let prototype = objectClass.init(entity: Entity.prototype, context: nil)
        var mirror: Mirror? = Mirror(reflecting: prototype)
        let superclass = mirror?.superclassMirror?.subjectType as? ManagedObject.Type
        var levels: [[Property]] = []
        var ownAttributes: [AttributeDescription] = []
        var ownRelationships: [RelationshipDescription] = []
        var isOwnLevel = true
        while let level = mirror, level.subjectType != ManagedObject.self {
            var properties: [Property] = []
            for child in level.children {
                guard let label = child.label, label.hasPrefix("_"), let wrapper = child.value as? ReflectableProperty
                else { continue }
                let name = String(label.dropFirst())
                switch wrapper.declaration(named: name) {
                case .attribute(let attribute):
                    properties.append(Property(key: wrapper.key, name: name, isAttribute: true))
                    if isOwnLevel { ownAttributes.append(attribute) }
                case .relationship(let relationship, _):
                    properties.append(Property(key: wrapper.key, name: name, isAttribute: false))
                    if isOwnLevel { ownRelationships.append(relationship) }
                }
            }
            levels.append(properties)
            isOwnLevel = false
            mirror = level.superclassMirror
        }
        let parent = superclass.flatMap { $0 == ManagedObject.self ? nil : $0 }
        // Class properties are inherited: a subclass declares identity and aliases only where it differs from its parent.
        let aliases = objectClass.entityAliases
        return ClassReflection(
            declaration: EntityDescription(
                objectClass.entityName, parent: parent?.entityName, identity: parent == nil ? objectClass.identity : [],
                attributes: ownAttributes, relationships: ownRelationships,
                aliases: aliases == parent?.entityAliases ? [] : aliases),
            properties: levels.reversed().flatMap { $0 },
            superclass: parent)
    }

    /// The destination classes of the class's own relationships, for finding the classes a model needs.
    static func destinationClasses(of objectClass: ManagedObject.Type) -> [ManagedObject.Type] {
        let prototype = objectClass.init(entity: Entity.prototype, context: nil)
        return Mirror(reflecting: prototype).children.compactMap { child in
            guard let wrapper = child.value as? ReflectableProperty,
                case .relationship(_, let destination) = wrapper.declaration(named: "")
            else { return nil }
            return destination
        }
    }
}

extension Entity {
    /// The binding of the entity to its class, when the model was built from classes.
    ///
    /// Only ``EntityModel/init(classes:)`` binds entities, always to a ``ClassBinding``: the cast is unchecked,
    /// so that a typed property read costs no more than when the binding was a typed stored property.
    @usableFromInline
    var bindings: ClassBinding? {
        @inline(__always) get { binding.map { unsafeDowncast($0, to: ClassBinding.self) } }
    }

    /// The entity of prototypes: reflection needs an instance before any model exists.
    static let prototype = Entity(
        declaration: EntityDescription("$prototype"), lineage: ["$prototype"], kinds: ["$prototype"], attributes: [],
        relationships: [], identity: [], binding: nil)
}

extension EntityModel {
    /// The model of a set of `ManagedObject` subclasses, reflected once per class and cached.
    ///
    /// Superclasses and the destinations of relationships are included even when not listed.
    ///
    ///     let model = try EntityModel(classes: [Department.self, Employee.self, Manager.self])
    ///
    /// - Throws: ``ModelErrors`` for an invalid model: an inverse that does not point back, a missing identity
    ///   attribute, two classes with the same entity name, …
    /// - Complexity: O(*n*) in the number of properties; each class is reflected once per process.
    public init(classes: [ManagedObject.Type]) throws {
        var pending = classes
        var seen: Set<ObjectIdentifier> = []
        var reflections: [(ManagedObject.Type, ClassReflection)] = []
        while let objectClass = pending.popLast() {
            guard seen.insert(ObjectIdentifier(objectClass)).inserted else { continue }
            let reflection = ClassReflection.of(objectClass)
            reflections.append((objectClass, reflection))
            if let superclass = reflection.superclass { pending.append(superclass) }
            pending += ClassReflection.destinationClasses(of: objectClass)
        }
        var bindings: [String: ClassBinding] = [:]
        let declarations = reflections.map(\.1.declaration)
        // Slots follow the resolved entity's layout: inherited properties first, then the class's own.
        let layout = try EntityModel(declarations)
        for (objectClass, reflection) in reflections {
            let entity = layout.entity(named: reflection.declaration.name)!
            var attributeSlots: [PropertyKey: Int] = [:]
            var relationshipSlots: [PropertyKey: Int] = [:]
            for property in reflection.properties {
                if property.isAttribute {
                    attributeSlots[property.key] = entity.attributeIndex(named: property.name)
                } else {
                    relationshipSlots[property.key] = entity.relationshipIndex(named: property.name)
                }
            }
            bindings[entity.name] = ClassBinding(
                objectClass: objectClass, attributeSlots: attributeSlots, relationshipSlots: relationshipSlots)
        }
        try self.init(declarations, bindings: bindings)
    }

    /// The entity a class is bound to, or nil when the class is not part of this model.
    public func entity(forClass objectClass: ManagedObject.Type) -> Entity? {
        let name = objectClass.entityName
        guard let entity = entity(named: name), entity.bindings?.objectClass == objectClass else { return nil }
        return entity
    }
}

extension ManagedObject {
    @usableFromInline
    func attributeSlot(for key: PropertyKey) -> Int {
        guard let slot = entity.bindings?.attributeSlot(for: key) else { unboundProperty() }
        return slot
    }

    @usableFromInline
    func relationshipSlot(for key: PropertyKey) -> Int {
        guard let slot = entity.bindings?.relationshipSlot(for: key) else { unboundProperty() }
        return slot
    }

    /// A typed read of a required attribute found no value: a programming error, like force-unwrapping nil.
    @usableFromInline
    func missingRequiredValue(at index: Int) -> Never {
        preconditionFailure("\(self).\(entity.attributes[index].name) is required but has no value")
    }

    private func unboundProperty() -> Never {
        preconditionFailure(
            "\(type(of: self)) is used with entity \(entity.name), which is not bound to it; build the model with EntityModel(classes:)")
    }
}
