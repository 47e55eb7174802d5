import SeedKitModel

extension ObjectContext {
    /// A scratch context over this one, for an edit screen: its saves go into this context, not the store.
    ///
    ///     let editor = list.newChildContext()
    ///     let draft = try editor.existingObject(with: ann.objectID) as! Employee
    ///     draft.title = "Lead"
    ///     try editor.save()   // into `list`; `editor.rollback()` is the cancel button
    ///     try list.save()     // into the store
    ///
    /// The child reads objects from this context as they are when it first meets them, unsaved changes included,
    /// and gives them the same ``ObjectID``s. Its inserted objects keep their ids in this context too. Children nest:
    /// a child's child saves into the child.
    ///
    /// The child holds this context strongly; like this context, it is confined to one isolation domain.
    public func newChildContext() -> ObjectContext {
        let child = ObjectContext(model: model)
        child.parent = self
        child.mergePolicy = mergePolicy
        child.isObservable = isObservable
        return child
    }

    /// The object with this id: registered here, else brought from the parent context or read from the store.
    ///
    ///     let ann = try context.existingObject(with: id)   // an id from another context or isolation domain
    ///
    /// - Throws: ``ObjectError`` of kind `missingObject` when neither this context, its parents nor the store has
    ///   the object, or it was deleted here; the store's error when reading it fails.
    /// - Complexity: O(1) on average for a registered object; one store read, or one lookup per parent, otherwise.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        if let object = try lookUp(id) { return object }
        let places = "the context" + (parent == nil ? "" : ", its parents") + (store == nil ? "" : " or its store")
        throw ObjectError(.missingObject, object: id.description, "no object has this id in \(places)")
    }

    /// The object ``existingObject(with:)`` gives, or nil.
    func lookUp(_ id: ObjectID) throws -> ManagedObject? {
        if let object = registered[id] { return object }
        guard !isDeletedHere(id), model.entity(named: id.entityName) != nil else { return nil }
        if let parent { return try parent.lookUp(id).map(adopt) }
        // Rows have positive ids; a negative one is an unsaved object of another context.
        guard store != nil, id.number > 0 else { return nil }
        return try object(root: id.entityName, rowID: id.number)
    }

    private func isDeletedHere(_ id: ObjectID) -> Bool {
        !deletedObjects.isEmpty && deletedObjects.contains { $0.objectID == id }
    }

    /// The parent's holder of an identity, brought here; nil when an object here stands for it with other values.
    func parentObject(_ key: IdentityKey, in parent: ObjectContext) -> ManagedObject? {
        guard let source = parent.registeredObject(key), registered[source.objectID] == nil,
            !isDeletedHere(source.objectID)
        else { return nil }
        return adopt(source)
    }

    /// Brings the parent's objects here, but for those deleted here.
    func adoptAll(_ objects: [ManagedObject]) throws {
        for object in objects where !isDeletedHere(object.objectID) { _ = adopt(object) }
    }

    /// This context's copy of a parent's object: its attributes as they are there, its relationships faults that
    /// load from the parent on first access.
    private func adopt(_ source: ManagedObject) -> ManagedObject {
        if let object = registered[source.objectID] { return object }
        let object = instantiate(source.entity)
        object.objectID = source.objectID
        object.attributeValues = source.attributeValues
        if !source.entity.relationships.isEmpty {
            object.faults = [Int64](repeating: 0, count: source.entity.relationships.count)
        }
        registered[object.objectID] = object
        registerIdentity(of: object)
        return object
    }

    /// Loads a relationship of an object brought from the parent: the parent's members, brought here too, but for
    /// those deleted here.
    func loadFaultFromParent(of object: ManagedObject, relationship index: Int) {
        object.faults[index] = -1
        // A fault fires from a property read, which can't throw: a parent that fails reading its store gives none.
        let members = ((try? parent!.lookUp(object.objectID)) ?? nil)?.related(at: index) ?? []
        let adopted = members.filter { !isDeletedHere($0.objectID) }.map(adopt)
        let value: RelationshipValue =
            object.entity.relationships[index].isToMany ? .toMany(Self.related(adopted)) : .toOne(adopted.first)
        settle(object, relationship: index, as: value)
    }

    /// The state of the parent's object, for merging a change set into a child.
    func parentValues(of object: ManagedObject) throws -> StoredValues? {
        guard let source = try parent!.lookUp(object.objectID) else { return nil }
        return StoredValues(
            version: source.rowVersion, attributes: Array(source.attributeValues),
            foreignKeys: [Int64?](repeating: 0, count: source.entity.relationships.count))
    }

    // MARK: Saving into the parent

    /// Applies every unsaved change of this child to its parent, as changes of the parent's objects.
    ///
    /// Every object the changes touch is found in the parent first, so that a missing one throws before the parent
    /// changes.
    ///
    /// - Throws: ``ObjectError`` of kind `missingObject` for an object changed here that the parent no longer has.
    func pushChanges(into parent: ObjectContext) throws {
        guard hasChanges else { return }
        var counterparts: [ObjectID: ManagedObject] = [:]
        func resolve(_ object: ManagedObject) throws {
            guard counterparts[object.objectID] == nil, !isInserted(object) else { return }
            counterparts[object.objectID] = try parent.existingObject(with: object.objectID)
        }
        for object in updatedObjects + deletedObjects { try resolve(object) }
        for object in insertedObjects + updatedObjects {
            for index in changedRelationships(of: object) {
                for member in object.related(at: index) { try resolve(member) }
            }
        }
        for object in insertedObjects {
            let copy = parent.instantiate(object.entity)
            copy.attributeValues = object.attributeValues
            parent.register(inserted: copy, id: object.objectID)
            counterparts[object.objectID] = copy
        }
        for object in updatedObjects {
            let target = counterparts[object.objectID]!
            for slot in object.entity.attributes.indices where object.changedSlots[slot] {
                target.setAttributeValueUnchecked(object.attributeValues[slot], at: slot)
            }
        }
        for object in insertedObjects + updatedObjects {
            let target = counterparts[object.objectID]!
            for index in changedRelationships(of: object) {
                let members = object.related(at: index).map { counterparts[$0.objectID]! }
                if object.entity.relationships[index].isToMany {
                    target.setObjects(members, at: index)
                } else {
                    target.setObject(members.first, at: index)
                }
            }
        }
        parent.removeDeleted(deletedObjects.map { counterparts[$0.objectID]! })
    }

    /// The relationship slots a save carries: every one of an inserted object, the changed ones of another.
    private func changedRelationships(of object: ManagedObject) -> [Int] {
        let relationships = object.entity.relationships.indices
        if isInserted(object) { return Array(relationships) }
        let attributeCount = object.entity.attributes.count
        return relationships.filter { object.changedSlots[attributeCount + $0] }
    }
}
