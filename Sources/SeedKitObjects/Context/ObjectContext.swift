import SeedKitModel
import SeedKitSupport

/// A scratchpad of managed objects: insert, change and delete them, then save or roll back.
///
///     let context = ObjectContext(model: model)
///     let sales = try context.insert("Department", values: ["name": "Sales"])
///     let ann = Employee(context: context)
///     ann.department = sales as? Department
///     try context.save()       // or context.rollback(), the cancel button
///
/// Objects are uniqued by identity: ``insert(_:values:)`` refuses a second "Sales" department, and
/// ``upsert(_:identity:)`` returns the existing one.
///
/// Keep a context alive while you use its objects: objects hold their context weakly, and a context that goes away
/// empties its objects' relationships to break the reference cycles they form (attributes stay readable).
///
/// A context and its objects are confined to one isolation domain (a thread, an actor, the main actor): they are not
/// `Sendable`. Share the ``EntityModel`` (which is) and give each domain its own context.
public final class ObjectContext {
    public let model: EntityModel
    // The state every fetch and registration reads or changes is `@exclusivity(unchecked)`: each access is short and
    // reaches nothing else of the context, and a context is used from one isolation domain, so no two overlap; checked
    // at run time, as Swift checks a class's stored properties, they cost a fetch by identity a twentieth of its time.

    /// The store fetches read from and saves write to; nil for a context that lives in memory only.
    @exclusivity(unchecked) package private(set) var store: (any PersistentStore)?
    /// The context a child context saves into and reads its objects from; nil for a context of its own.
    public internal(set) var parent: ObjectContext?
    /// How saves and merges settle an object changed both here and in the store.
    public var mergePolicy: MergePolicy = .rejectConflicts
    /// Whether the context's objects take part in Swift Observation, so that `withObservationTracking` and SwiftUI
    /// views follow their properties: set it on the contexts views read (macOS 14, iOS 17 and later). Off by default,
    /// since each object then carries an observation registrar; other contexts' objects cost nothing for it.
    ///
    ///     list.isObservable = true
    ///     withObservationTracking { _ = sales.budget } onChange: { print("budget will change") }
    @exclusivity(unchecked) public var isObservable = false {
        didSet { if isObservable && !oldValue { registered.forEach { _ = $0.startObserving() } } }
    }

    let registered = ObjectRegistry()
    /// How the context's objects reach it (see ``ManagedObject/context``).
    let link = ContextLink()
    /// The objects of the last fetch from the store, whose pending to-one faults load their destinations together;
    /// ``faultSiblingsCursor`` is where the next batch starts looking. See `loadDestinations`.
    var faultSiblings: [ManagedObject] = []
    var faultSiblingsCursor = 0
    /// The entity whose fault fired last and its to-one destinations' registry tables; see `foreignKeyDestinations`.
    var lastFaultDestinations: (entity: Entity, tables: [RowTable?])?
    @exclusivity(unchecked) private var identities = IdentityIndex()
    @exclusivity(unchecked) private var inserted = OrderedObjects()
    @exclusivity(unchecked) var updated = OrderedObjects()
    @exclusivity(unchecked) var deleted = OrderedObjects()
    private var nextNumber: Int64 = 1
    /// Who hears of this context's saves and changes; see ObjectContext+Observing.
    var observers: [ContextObserver] = []
    var nextObserverNumber = 0
    /// Ends the ``changes`` sequences handed out, when the context goes away.
    var finishers: [() -> Void] = []
    /// Called during a save over a store with the number of inserted objects written so far and their total, every
    /// thousand or so objects: for a long save's progress display.
    package var insertionProgress: ((Int, Int) -> Void)?

    public init(model: EntityModel) {
        self.model = model
        self.store = nil
        link.context = self
    }

    /// A context whose fetches read from `store` and whose saves write to it.
    ///
    /// - Precondition: `model` is the store's model.
    package init(model: EntityModel, persistentStore store: any PersistentStore) {
        precondition(model == store.model, "a context's model must be its store's model")
        self.model = model
        self.store = store
        link.context = self
    }

    /// Makes a context that lives in memory one of `store`'s, so that its next save inserts its objects there.
    ///
    /// The seeder reads templates into a context of their own before it opens the store; when the store holds nothing
    /// they could meet, saving that context writes them as they are, without copying them into a second graph.
    ///
    /// - Precondition: The context has no store, every object it has is inserted, and `store` has its model.
    package func attach(to store: any PersistentStore) {
        precondition(
            self.store == nil && model == store.model, "only a context in memory attaches, to a store of its model")
        precondition(registered.count == inserted.objects.count, "a context attaches before anything of it is saved")
        self.store = store
    }

    deinit {
        // First: from here on the context's objects have none, as weak references to it would give nil.
        link.context = nil
        // Relationships hold their objects strongly in both directions; break those cycles with the context.
        registered.forEach { $0.detachRelationships() }
        for object in deleted.objects { object.detachRelationships() }
        for finish in finishers { finish() }
    }

    // MARK: Inserting

    /// Inserts a new object of an entity, setting `values` by key (attributes and relationships).
    ///
    /// - Throws: ``ObjectError``: `wrongContext` for an entity not in the model, `identityConflict` when the values
    ///   give an identity another object of the context has, and the errors of ``ManagedObject/setValue(_:forKey:)``.
    ///   Nothing is inserted when it throws.
    /// - Complexity: O(*k*) for *k* values, plus an identity lookup (a store read when not registered).
    @discardableResult
    public func insert(_ entityName: String, values: [String: Any] = [:]) throws -> ManagedObject {
        let entity = try entity(named: entityName)
        let object = instantiate(entity)
        do {
            // Attributes first: their checks fail before any relationship has touched another object.
            let keys = values.keys.sorted { (entity.attributeIndex(named: $0) == nil ? 1 : 0, $0) < (entity.attributeIndex(named: $1) == nil ? 1 : 0, $1) }
            for key in keys { try object.setValue(values[key]!, forKey: key) }
        } catch {
            discard(object)
            throw error
        }
        register(inserted: object)
        return object
    }

    /// The object of `entityName` with this identity, inserting it with those values when the context has none.
    ///
    ///     let (sales, wasInserted) = try context.upsert("Department", identity: ["name": "Sales"])
    ///
    /// - Throws: ``ObjectError`` when `identity` does not name exactly the entity's identity attributes with values of
    ///   their types, or the entity has no identity.
    /// - Complexity: O(1) on average for a registered object; a store read, or a lookup per parent, otherwise.
    public func upsert(_ entityName: String, identity: [String: Any]) throws -> (object: ManagedObject, inserted: Bool) {
        let entity = try entity(named: entityName)
        guard !entity.identity.isEmpty else {
            throw ObjectError(.unknownKey, object: entity.name, "\(entity.name) has no identity to upsert by; use insert")
        }
        let extra = Set(identity.keys).subtracting(entity.identity)
        guard extra.isEmpty, identity.count == entity.identity.count else {
            throw ObjectError(
                .unknownKey, object: entity.name,
                "identity of \(entity.name) is \(entity.identity.joined(separator: ", ")); got \(identity.keys.sorted().joined(separator: ", "))")
        }
        var values: [AttributeValue] = []
        for (name, index) in zip(entity.identity, entity.identityIndices) {
            guard let value = AttributeValue(identity[name]!, as: entity.attributes[index].type) else {
                throw ObjectError(
                    .typeMismatch, object: entity.name, key: name,
                    "expected \(ManagedObject.expectation(for: entity.attributes[index].type)), got \(type(of: identity[name]!))")
            }
            values.append(value)
        }
        if let existing = registeredObject(rootEntity: entity.rootName, identity: values) {
            guard existing.entity.isKind(of: entity.name) else {
                throw ObjectError(
                    .identityConflict, object: existing.description,
                    "is a \(existing.entity.name), not a \(entity.name); identity is shared by all \(entity.rootName) entities")
            }
            return (existing, false)
        }
        return (try insert(entityName, values: identity), true)
    }

    /// A new object of `entity`, of its bound class when it has one, not yet registered.
    package func instantiate(_ entity: Entity) -> ManagedObject {
        let objectClass = entity.bindings?.objectClass ?? ManagedObject.self
        let object = objectClass.init(entity: entity, context: nil)
        object.context = self
        if isObservable { _ = object.startObserving() }
        return object
    }

    /// Forgets an object that was instantiated but never registered.
    private func discard(_ object: ManagedObject) {
        for index in object.entity.relationships.indices {
            if object.entity.relationships[index].isToMany { object.setObjects([], at: index) } else { object.setObject(nil, at: index) }
        }
        object.context = nil
        object.detachRelationships()
    }

    package func entity(named name: String) throws -> Entity {
        guard let entity = model.entity(named: name) else {
            throw ObjectError(
                .wrongContext, object: name,
                "no entity '\(name)' in the model\(Suggestion.didYouMean(name, among: model.entityNames)); entities are: \(model.entityNames.joined(separator: ", "))")
        }
        return entity
    }

    /// Registers a newly created object as inserted.
    ///
    /// - Parameter identity: The object's identity values when the caller has them already, to index it without
    ///   gathering them again.
    /// - Parameter id: The id the object keeps, for an object a child context saved into this one.
    package func register(inserted object: ManagedObject, identity: [AttributeValue]? = nil, id: ObjectID? = nil) {
        object.context = self
        if isObservable { _ = object.startObserving() }
        object.objectID = id ?? ObjectID(entityName: object.entity.rootName, number: newObjectNumber())
        registered[object.objectID] = object
        inserted.insert(object)
        identities.register(object, identity: identity)
    }

    /// A number no object of this context's family (its ancestors and descendants) has: a child's inserted object
    /// keeps its id in the parent, so the root context numbers them all.
    private func newObjectNumber() -> Int64 {
        if let parent { return parent.newObjectNumber() }
        defer { nextNumber += 1 }
        // Over a store, temporary numbers are negative: row ids, which become the permanent numbers, are positive.
        return store == nil ? nextNumber : -nextNumber
    }

    // MARK: State

    /// The objects inserted since the last save, in insertion order.
    public var insertedObjects: [ManagedObject] { inserted.objects }
    /// The saved objects changed since the last save, in the order of their first change.
    public var updatedObjects: [ManagedObject] { updated.objects }
    /// The saved objects deleted since the last save, in deletion order.
    public var deletedObjects: [ManagedObject] { deleted.objects }
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }

    /// Every object the context holds, excluding deleted ones.
    public var registeredObjects: [ManagedObject] { registered.objects.sorted { $0.objectID < $1.objectID } }

    /// The registered object with this id.
    public func object(with id: ObjectID) -> ManagedObject? { registered[id] }

    func isInserted(_ object: ManagedObject) -> Bool { inserted.contains(object) }
    func isDeleted(_ object: ManagedObject) -> Bool { deleted.contains(object) }

    func noteChanged(_ object: ManagedObject) {
        guard registered[object.objectID] === object, !inserted.contains(object) else { return }
        updated.insert(object)
    }

    // MARK: Identity

    /// The registered object of an inheritance tree with these identity values; over a store, the stored object
    /// with them when none is registered, fetched and registered.
    ///
    /// - Complexity: O(1) on average, plus one indexed query over a store when no registered object has them.
    package func registeredObject(rootEntity: String, identity: [AttributeValue]) -> ManagedObject? {
        registeredObject(IdentityKey(root: rootEntity, values: identity))
    }

    /// The object ``registeredObject(rootEntity:identity:)`` gives, for a key made already.
    func registeredObject(_ key: IdentityKey) -> ManagedObject? {
        if let object = identities.object(for: key) { return object }
        if let parent { return parentObject(key, in: parent) }
        return store == nil ? nil : storedObject(key)
    }

    /// The object of `entityName` (or a subentity) whose identity attributes have these values.
    ///
    ///     context.object("Employee", identity: ["email": "ann@example.com"])
    ///
    /// - Complexity: O(1) on average for a registered object; a store read, or a lookup per parent, otherwise.
    public func object(_ entityName: String, identity: [String: Any]) -> ManagedObject? {
        guard let entity = model.entity(named: entityName), !entity.identity.isEmpty else { return nil }
        var values: [AttributeValue] = []
        for (name, index) in zip(entity.identity, entity.identityIndices) {
            guard let raw = identity[name], let value = AttributeValue(raw, as: entity.attributes[index].type) else {
                return nil
            }
            values.append(value)
        }
        guard let object = registeredObject(rootEntity: entity.rootName, identity: values),
            object.entity.isKind(of: entity.name)
        else { return nil }
        return object
    }

    /// Adds a just registered object, read from the store or brought from the parent, to the identity index.
    func registerIdentity(of object: ManagedObject) {
        identities.register(object, identity: nil)
    }

    /// Makes room in the identity index for `count` more objects registered with their identity values, so that
    /// registering many objects at once does not grow the index step by step.
    package func reserveIdentities(_ count: Int) {
        identities.reserve(count)
    }

    func identityDidChange(_ object: ManagedObject, from old: [AttributeValue]?) {
        guard registered[object.objectID] === object else { return }
        identities.identityDidChange(object, from: old)
    }

    private func rebuildIdentityIndex() {
        identities.reset(to: registered.objects.sorted { $0.objectID < $1.objectID })
    }

    // MARK: Deleting, saving, rolling back — internal state transitions

    func markDeleted(_ object: ManagedObject) {
        registered[object.objectID] = nil
        identities.remove(object)
        if inserted.remove(object) {
            object.context = nil
            object.detachRelationships()
        } else {
            updated.remove(object)
            deleted.insert(object)
        }
    }

    package func commit() -> ChangeSet {
        let changes = ChangeSet(
            inserted: inserted.objects.map(\.objectID),
            updated: Dictionary(uniqueKeysWithValues: updated.objects.map { ($0.objectID, $0.changedKeys) }),
            deleted: deleted.objects.map(\.objectID))
        for object in inserted.objects + updated.objects { object.clearChanges() }
        for object in deleted.objects {
            object.context = nil
            object.detachRelationships()
        }
        inserted = OrderedObjects()
        updated = OrderedObjects()
        deleted = OrderedObjects()
        if !observers.isEmpty { notify(.didSave(changes)) }
        return changes
    }

    /// Discards every unsaved change: inserted objects leave the context, changed ones get their saved values back,
    /// deleted ones return.
    ///
    /// - Complexity: O(*n*) in the number of registered objects.
    public func rollback() {
        for object in inserted.objects {
            registered[object.objectID] = nil
            object.context = nil
            object.clearChanges()
            object.detachRelationships()
        }
        for object in deleted.objects {
            registered[object.objectID] = object
        }
        registered.forEach { object in
            if let snapshot = object.snapshot {
                object.attributeValues = snapshot.attributes
                object.relationshipValues = snapshot.relationships
            }
            object.clearChanges()
        }
        inserted = OrderedObjects()
        updated = OrderedObjects()
        deleted = OrderedObjects()
        rebuildIdentityIndex()
    }
}

/// What a save changed: inserted and deleted object ids, and the changed keys of each updated object.
public struct ChangeSet: Sendable, Hashable {
    public var inserted: [ObjectID]
    public var updated: [ObjectID: Set<String>]
    public var deleted: [ObjectID]

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// Objects in insertion order with constant-time membership.
package struct OrderedObjects {
    private var related = RelatedObjects()

    package init() {}

    package var objects: [ManagedObject] { related.members }
    var isEmpty: Bool { related.count == 0 }
    package func contains(_ object: ManagedObject) -> Bool { related.contains(object) }
    package mutating func insert(_ object: ManagedObject) { related.append(object) }
    @discardableResult mutating func remove(_ object: ManagedObject) -> Bool { related.remove(object, keepingOrder: true) }
}
