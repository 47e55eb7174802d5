import SeedKitModel

/// An object of an entity: its values live in storage laid out by its ``Entity``.
///
/// Typed subclasses declare properties with ``Attribute`` and ``Relationship``; objects of entities with no Swift
/// class are plain `ManagedObject`s. Both read and write the same storage, so key-value coding and typed properties
/// always agree.
///
///     final class Department: ManagedObject {
///         @Attribute var name: String
///         @Relationship(inverse: "department") var employees: [Employee]
///         override class var identity: [String] { ["name"] }
///     }
///     let sales = Department(context: context)
///     sales.name = "Sales"
///     try sales.value(forKey: "name")  // "Sales"
///
/// Objects are confined to their context's isolation domain: they are not `Sendable`. Pass ``objectID`` values or
/// dictionaries between domains instead.
open class ManagedObject: Hashable, CustomStringConvertible {
    /// The object's entity.
    public let entity: Entity
    /// The context the object lives in; nil once it has been deleted and saved, or rolled back out of its context.
    public final internal(set) var context: ObjectContext? {
        get { contextLink?.context }
        set { contextLink = newValue?.link }
    }
    /// The way to the context: its link, which it clears as it goes away. A weak reference would do as much, but it
    /// gives the context a side table, and every retain and release of the context then takes the slow path.
    private final var contextLink: ContextLink?
    // The id and row version are `@exclusivity(unchecked)`: set in single statements by the context and its store,
    // never across a call, and checking each access at run time costs more than the assignment.
    @exclusivity(unchecked) public final internal(set) var objectID: ObjectID

    // The storage is `final`: subclasses declare typed properties over it and never override it, and other modules
    // (the store filling fetched objects, the wrappers inlined into an app) then reach it directly instead of through
    // the class's dispatch table. The attribute values are `@exclusivity(unchecked)` as the id is: every access is a
    // single read or write that calls out to nothing that reaches the object, and checking each at run time costs a
    // typed property read, or a fetched object's fill, more than the access itself.
    @exclusivity(unchecked) @usableFromInline package final var attributeValues: AttributeValues
    @usableFromInline package final var relationshipValues: [RelationshipValue]
    /// The values at the last save (or at insertion), taken before the first change since; nil when unchanged.
    final var snapshot: Snapshot?
    /// Which properties changed since the last save: attribute slots, then relationship slots. Empty when unchanged.
    ///
    /// A flag per slot rather than a set of names keeps a typed write free of hashing.
    package final var changedSlots: [Bool] = []
    /// Relationships still to load from the persistent store, per relationship slot: -1 when loaded, the destination's
    /// row id for a to-one, 0 for a to-many. Empty when nothing is pending, so the common check is one `isEmpty`.
    @usableFromInline package final var faults: [Int64] = []
    /// The row version the object was fetched or last saved at, for conflict detection; 0 when not stored.
    @exclusivity(unchecked) package final var rowVersion: Int64 = 0
    /// Who observes the object; nil until something does (see ManagedObject+Observing).
    @usableFromInline package final var observation: ObjectObservation?

    /// The names of the properties changed since the last save.
    public final var changedKeys: Set<String> {
        let attributeCount = entity.attributes.count
        var keys: Set<String> = []
        for (slot, changed) in changedSlots.enumerated() where changed {
            keys.insert(
                slot < attributeCount
                    ? entity.attributes[slot].name : entity.relationships[slot - attributeCount].name)
        }
        return keys
    }

    /// Creates an object of `entity` in `context`, starting with the attributes' default values.
    ///
    /// Prefer ``ObjectContext/insert(_:values:)`` for plain objects and `init(context:)` for typed ones.
    public required init(entity: Entity, context: ObjectContext?) {
        self.objectID = ObjectID(entityName: entity.rootName, number: 0)
        self.attributeValues = AttributeValues(entity.defaultValues)
        self.relationshipValues = entity.relationships.map { $0.isToMany ? .toMany(RelatedObjects()) : .toOne(nil) }
        // Last, so that the reference the caller passes moves into the property: stored first, it was retained again
        // and the argument released at the end.
        self.entity = entity
        if let context { context.register(inserted: self) }
    }

    /// Creates an object of the entity this class is bound to in the context's model, and inserts it.
    ///
    /// The class must be part of the model (see ``EntityModel/init(classes:)``); anything else is a programming error.
    public convenience init(context: ObjectContext) {
        guard let entity = context.model.entity(forClass: Self.self) else {
            preconditionFailure("\(Self.self) is not a class of this context's model; build the model with EntityModel(classes:)")
        }
        self.init(entity: entity, context: context)
    }

    /// The entity name objects of this class have: the class name unless overridden.
    open class var entityName: String { String(describing: self) }

    /// The identity attributes of this class's entity, declared on the root class.
    open class var identity: [String] { [] }

    /// Old names of this class's entity still accepted when reading.
    open class var entityAliases: [String] { [] }

    /// Whether the object has unsaved changes.
    public final var hasChanges: Bool { snapshot != nil || isInserted }
    public final var isInserted: Bool { context?.isInserted(self) ?? false }
    public final var isDeleted: Bool { context?.isDeleted(self) ?? false }

    /// The object's identity values, when its entity has identity and each identity attribute has a value.
    package final var identityValues: [AttributeValue]? {
        guard !entity.identityIndices.isEmpty else { return nil }
        var values: [AttributeValue] = []
        values.reserveCapacity(entity.identityIndices.count)
        for index in entity.identityIndices {
            guard let value = attributeValues[index] else { return nil }
            values.append(value)
        }
        return values
    }

    /// `Employee[email=ann@example.com]` when the object has identity (see ``ObjectKeySpelling``), else
    /// `Employee#3`; `new Employee` for an object still being built, before its context registers it.
    public var description: String {
        if objectID.number == 0 { return "new \(entity.name)" }
        if let values = identityValues { return ObjectKeySpelling.text(entity, identity: values) }
        return "\(entity.name)#\(objectID.number)"
    }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Records the committed state before the first change since the last save, and marks an attribute changed.
    @inline(__always)
    final func willChange(attribute index: Int) {
        if snapshot == nil { takeSnapshot() }
        changedSlots[index] = true
    }

    /// Records the committed state before the first change since the last save, and marks a relationship changed.
    @inline(__always)
    final func willChange(relationship index: Int) {
        if snapshot == nil { takeSnapshot() }
        changedSlots[entity.attributes.count + index] = true
    }

    /// The first change since the last save: keep the saved values for rollback and tell the context once.
    private func takeSnapshot() {
        snapshot = Snapshot(attributes: attributeValues, relationships: relationshipValues)
        changedSlots = Array(repeating: false, count: entity.attributes.count + entity.relationships.count)
        context?.noteChanged(self)
    }

    /// Drops every related object without touching the other side, for an object leaving its context: relationships
    /// hold objects strongly both ways, and this breaks those cycles. The layout stays, so the object stays readable.
    final func detachRelationships() {
        // The entity is a constant: checking it costs no exclusivity check, as the storage's accesses do.
        guard !entity.relationships.isEmpty else { return }
        // In place, in one access: a context going away detaches every object it holds, so this is per-object cost.
        relationshipValues.withUnsafeMutableBufferPointer { values in
            for index in values.indices {
                switch values[index] {
                case .toOne(nil): break
                case .toOne: values[index] = .toOne(nil)
                case .toMany(let related) where related.count == 0: break
                case .toMany: values[index] = .toMany(RelatedObjects())
                }
            }
        }
        if !faults.isEmpty { faults = [] }
    }

    /// Loads every relationship still waiting in the store, for code that reads `relationshipValues` directly.
    package final func fireFaults() {
        guard !faults.isEmpty else { return }
        for index in faults.indices where !faults.isEmpty && faults[index] != -1 { fireFault(index) }
    }

    /// Loads a relationship still in the persistent store before it is read or changed.
    @inlinable @inline(__always)
    final func fireFaultIfNeeded(_ index: Int) {
        if !faults.isEmpty && faults[index] != -1 { fireFault(index) }
    }

    @usableFromInline
    final func fireFault(_ index: Int) {
        guard let context else {
            faults = []
            return
        }
        context.loadFault(of: self, relationship: index)
    }

    /// Gives a fetched object, before it is registered, the value a store read for an attribute: no change is
    /// recorded. A method of this module, since a write from another module checks its exclusivity at run time.
    package final func setFetchedValue(_ value: consuming AttributeValue?, at index: Int) {
        attributeValues[index] = value
    }

    /// Forgets the saved state: called when changes are saved or rolled back.
    final func clearChanges() {
        snapshot = nil
        changedSlots = []
    }
}

/// The stored value of one relationship.
@usableFromInline
package enum RelationshipValue {
    case toOne(ManagedObject?)
    case toMany(RelatedObjects)
}

/// An object's values at a point in time, for rollback.
///
/// A class, so that an object without changes carries one empty reference rather than room for a copy of its values.
final class Snapshot {
    var attributes: AttributeValues
    var relationships: [RelationshipValue]

    init(attributes: AttributeValues, relationships: [RelationshipValue]) {
        self.attributes = attributes
        self.relationships = relationships
    }
}
