import SeedKitModel

extension ObjectContext {
    /// Checks every inserted and changed object, then makes the changes the context's saved state and tells observers.
    ///
    /// Over a store, every change is written in one transaction, and inserted objects get their permanent ids
    /// (their row ids) before the change set is built. A child context (``newChildContext()``) saves into its
    /// parent instead: the changes become the parent's unsaved changes.
    ///
    /// Observers hear ``ContextEvent/willSave`` before the checks and ``ContextEvent/didSave(_:)`` after; a child's
    /// parent hears ``ContextEvent/objectsDidChange(_:)`` with the same change set.
    ///
    /// - Returns: The change set: inserted and deleted ids, and the changed keys of each updated object.
    /// - Throws: ``SaveErrors`` listing every required attribute without a value and every identity held by two
    ///   objects; over a store, ``StoreError`` of kind `conflict` or the store's own error (a `DatabaseError` for
    ///   SQLite). Nothing is saved then, and the unsaved changes stay for fixing or ``rollback()``.
    /// - Complexity: O(*n*) in the number of changed objects and their attributes.
    @discardableResult
    public func save() throws -> ChangeSet {
        if !observers.isEmpty { notify(.willSave) }
        try validate()
        guard let parent else {
            try persistChanges()
            return commit()
        }
        try pushChanges(into: parent)
        let changes = commit()
        if !parent.observers.isEmpty && !changes.isEmpty { parent.notify(.objectsDidChange(changes)) }
        return changes
    }

    /// The problems that would stop a save, in object order.
    ///
    /// - Complexity: O(*n*) in the number of changed objects and their attributes.
    public func validationErrors() -> [ObjectError] {
        var errors: [ObjectError] = []
        var identities: [IdentityKey: ManagedObject] = [:]
        for object in insertedObjects + updatedObjects {
            for (index, attribute) in object.entity.attributes.enumerated() {
                switch object.attributeValues[index] {
                case nil where !attribute.isOptional:
                    errors.append(
                        ObjectError(
                            .missingValue, object: object.description, key: attribute.name,
                            "required \(attribute.type) attribute has no value"))
                case .double(let value)? where !value.isFinite:
                    // Typed setters cannot throw, so a NaN or an infinity is caught here: SQLite would store NaN as
                    // NULL and JSON has no form for either.
                    errors.append(
                        ObjectError(
                            .typeMismatch, object: object.description, key: attribute.name,
                            "\(value) is not a finite number; doubles must be finite"))
                default:
                    break
                }
            }
            guard let identity = object.identityValues else { continue }
            // An object is recorded only once an identity has an object the index does not name: usually each
            // object is its identity's holder in the index, which then answers for it.
            let key = IdentityKey(root: object.entity.rootName, values: identity)
            let recorded = identities.isEmpty ? nil : identities[key]
            let holder = recorded ?? registeredObject(key)
            if let holder, holder !== object {
                errors.append(
                    ObjectError(
                        .identityConflict, object: object.description,
                        "two objects have this identity (\(object.entity.name)#\(object.objectID.number) and \(holder.entity.name)#\(holder.objectID.number)); identity must be unique among \(object.entity.rootName) objects"))
            }
            if recorded != nil || holder !== object { identities[key] = object }
        }
        return errors
    }

    private func validate() throws {
        let errors = validationErrors()
        guard errors.isEmpty else { throw SaveErrors(errors: errors) }
    }
}
