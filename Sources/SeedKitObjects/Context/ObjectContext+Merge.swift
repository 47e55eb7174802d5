extension ObjectContext {
    /// Refreshes the registered objects another context's save changed, from the store.
    ///
    ///     let listening = first.observe { event in
    ///         if case .didSave(let changes) = event { try? second.merge(changes) }
    ///     }
    ///
    /// An object without unsaved changes takes the stored values and its relationships become faults again, loaded
    /// on next access. For an object with unsaved changes, ``mergePolicy`` decides property by property: the store's
    /// values fill every property not changed here; `.storeWins` also replaces the changed ones, `.inMemoryWins`
    /// keeps them; both take the new row version, so the next save writes without a conflict. `.rejectConflicts`
    /// keeps the old version, so that save reports the conflict. Objects deleted in the store leave the context,
    /// unless they have unsaved changes.
    ///
    /// A child context refreshes its objects from its parent's instead, as they are there now. Observers then hear
    /// ``ContextEvent/objectsDidChange(_:)``.
    ///
    /// - Throws: ``ObjectError`` of kind `mergeWithoutSource` for a context with neither a store nor a parent, which
    ///   has nowhere to read the changed values from; the store's error when reading it fails.
    /// - Complexity: One store read (or parent lookup) per updated object registered here.
    public func merge(_ changes: ChangeSet) throws {
        guard store != nil || parent != nil else {
            throw ObjectError(
                .mergeWithoutSource, object: "context",
                "has neither a store nor a parent context to read the \(changes.updated.count + changes.deleted.count) changed objects from; merge into a context of the same store, or a child context")
        }
        for id in changes.deleted {
            guard let object = registered[id], !object.hasChanges || mergePolicy == .storeWins else { continue }
            forget(object)
        }
        for id in changes.updated.keys.sorted() {
            guard let object = registered[id] else { continue }
            let stored = try store.map { try $0.storedValues(of: object) } ?? parentValues(of: object)
            guard let stored else {
                if !object.hasChanges || mergePolicy == .storeWins { forget(object) }
                continue
            }
            refresh(object, from: stored)
        }
        if !observers.isEmpty && !changes.isEmpty { notify(.objectsDidChange(changes)) }
    }

    private func refresh(_ object: ManagedObject, from stored: StoredValues) {
        let entity = object.entity
        let attributeCount = entity.attributes.count
        let oldIdentity = object.identityValues
        let isChanged = { (slot: Int) in !object.changedSlots.isEmpty && object.changedSlots[slot] }
        for index in entity.attributes.indices {
            object.snapshot?.attributes[index] = stored.attributes[index]
            if !isChanged(index) {
                object.attributeValues[index] = stored.attributes[index]
            } else if mergePolicy == .storeWins {
                object.attributeValues[index] = stored.attributes[index]
                object.changedSlots[index] = false
            }
        }
        // Relationships not changed here load again from the store; a changed one keeps its in-memory members.
        var faults = object.faults.isEmpty ? [Int64](repeating: -1, count: entity.relationships.count) : object.faults
        for index in entity.relationships.indices where !isChanged(attributeCount + index) {
            faults[index] = entity.relationships[index].isToMany ? 0 : stored.foreignKeys[index] ?? -1
            let empty: RelationshipValue = entity.relationships[index].isToMany ? .toMany(RelatedObjects()) : .toOne(nil)
            object.relationshipValues[index] = empty
            object.snapshot?.relationships[index] = empty
        }
        object.faults = faults.allSatisfy { $0 == -1 } ? [] : faults
        if mergePolicy != .rejectConflicts || !object.hasChanges { object.rowVersion = stored.version }
        if object.snapshot != nil, !object.changedSlots.contains(true) {
            object.clearChanges()
            updated.remove(object)
        }
        if oldIdentity != object.identityValues { identityDidChange(object, from: oldIdentity) }
    }

    /// Drops an object deleted in the store from the context.
    private func forget(_ object: ManagedObject) {
        markDeleted(object)
        // markDeleted queued it for deletion here; the row is already gone.
        deleted.remove(object)
        object.context = nil
        object.detachRelationships()
    }
}
