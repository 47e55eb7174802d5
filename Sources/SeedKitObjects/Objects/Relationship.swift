import SeedKitModel

/// Declares a typed relationship of a ``ManagedObject`` subclass: `T?` is to-one, `[T]` and `Set<T>` are to-many.
///
///     final class Department: ManagedObject {
///         @Relationship(inverse: "department") var employees: [Employee]
///     }
///     final class Employee: ManagedObject {
///         @Relationship(inverse: "employees") var department: Department?
///         @Relationship(ordered: true, owns: true) var addresses: [Address]
///     }
///
/// Setting either side keeps the inverse consistent.
///
/// - Complexity: reading a to-one is O(1); reading a to-many copies its members, O(*n*).
@propertyWrapper
public struct Relationship<Value: RelationshipRepresentable>: ReflectableProperty {
    @usableFromInline let key: PropertyKey
    let inverse: String?
    let ordered: Bool
    let owns: Bool
    let deleteRule: DeleteRule?
    let aliases: [String]

    public init(
        inverse: String? = nil, ordered: Bool = false, owns: Bool = false, deleteRule: DeleteRule? = nil,
        aliases: [String] = [], fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) {
        key = PropertyKey(fileID: fileID, line: line, column: column)
        self.inverse = inverse
        self.ordered = ordered
        self.owns = owns
        self.deleteRule = deleteRule
        self.aliases = aliases
    }

    @available(*, unavailable, message: "@Relationship is only available on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            let index = object.relationshipSlot(for: object[keyPath: storageKeyPath].key)
            if let observation = object.observation {
                observation.access(object, slot: object.entity.attributes.count + index)
            }
            object.fireFaultIfNeeded(index)
            return Value(relationshipValue: RelationshipValueView(value: object.relationshipValues[index]))
        }
        set {
            let index = object.relationshipSlot(for: object[keyPath: storageKeyPath].key)
            if Value.isToMany {
                object.setObjects(newValue.members, at: index)
            } else {
                object.setObject(newValue.members.first, at: index)
            }
        }
    }

    func declaration(named name: String) -> PropertyDeclaration {
        .relationship(
            RelationshipDescription(
                name, to: Value.destination.entityName, isToMany: Value.isToMany, isOrdered: ordered, inverse: inverse,
                owns: owns, deleteRule: deleteRule, aliases: aliases),
            destinationClass: Value.destination)
    }
}

/// A Swift type a typed ``Relationship`` property can have: `T?`, `[T]` or `Set<T>` for a ``ManagedObject`` class `T`.
public protocol RelationshipRepresentable {
    associatedtype Destination: ManagedObject
    static var isToMany: Bool { get }
    var members: [ManagedObject] { get }
    init(relationshipValue: RelationshipValueView)
}

extension RelationshipRepresentable {
    static var destination: ManagedObject.Type { Destination.self }
}

/// A read-only view of a relationship's stored value, handed to ``RelationshipRepresentable`` conformances.
public struct RelationshipValueView {
    @usableFromInline let value: RelationshipValue

    @usableFromInline init(value: RelationshipValue) { self.value = value }

    /// The related objects: none or one for a to-one relationship.
    public var objects: [ManagedObject] {
        switch value {
        case .toOne(let object): object.map { [$0] } ?? []
        case .toMany(let related): related.members
        }
    }
}

extension Optional: RelationshipRepresentable where Wrapped: ManagedObject {
    public typealias Destination = Wrapped
    public static var isToMany: Bool { false }
    public var members: [ManagedObject] { self.map { [$0] } ?? [] }
    public init(relationshipValue: RelationshipValueView) {
        // Reading through the entity's layout guarantees the object is of the destination class.
        self = relationshipValue.objects.first.map { $0 as! Wrapped }
    }
}

extension Array: RelationshipRepresentable where Element: ManagedObject {
    public typealias Destination = Element
    public static var isToMany: Bool { true }
    public var members: [ManagedObject] { self }
    public init(relationshipValue: RelationshipValueView) {
        self = relationshipValue.objects.map { $0 as! Element }
    }
}

extension Set: RelationshipRepresentable where Element: ManagedObject {
    public typealias Destination = Element
    public static var isToMany: Bool { true }
    public var members: [ManagedObject] { Array(self) }
    public init(relationshipValue: RelationshipValueView) {
        self = Set(relationshipValue.objects.map { $0 as! Element })
    }
}
