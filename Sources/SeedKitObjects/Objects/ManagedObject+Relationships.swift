extension ManagedObject {
    /// The object a to-one relationship points to.
    ///
    /// - Complexity: O(1).
    package func object(at index: Int) -> ManagedObject? {
        if let observation { observation.access(self, slot: entity.attributes.count + index) }
        fireFaultIfNeeded(index)
        guard case .toOne(let target) = relationshipValues[index] else { return nil }
        return target
    }

    /// The members of a to-many relationship, in order for ordered ones and in insertion order for the rest.
    ///
    /// - Complexity: O(1).
    package func objects(at index: Int) -> [ManagedObject] {
        if let observation { observation.access(self, slot: entity.attributes.count + index) }
        fireFaultIfNeeded(index)
        guard case .toMany(let related) = relationshipValues[index] else { return [] }
        return related.members
    }

    /// Points a to-one relationship at `target`, keeping the inverse consistent on every object involved.
    ///
    /// Setting `employee.department` removes the employee from the old department's `employees` and adds it to the new one's.
    ///
    /// - Complexity: O(1) for an unordered inverse, O(*n*) for an ordered one.
    @usableFromInline
    package func setObject(_ target: ManagedObject?, at index: Int) {
        let relationship = entity.relationships[index]
        let old = object(at: index)
        guard old !== target else { return }
        if let inverse = relationship.inverse {
            if let old { old.unlinkPrimitive(self, inverse: inverse) }
            if let target { target.linkPrimitive(self, inverse: inverse) }
        }
        willChange(relationship: index)
        willChange(slot: entity.attributes.count + index)
        relationshipValues[index] = .toOne(target)
        didChange(slot: entity.attributes.count + index)
    }

    /// Replaces the members of a to-many relationship, keeping inverses consistent.
    ///
    /// - Complexity: O(*n* + *m*) for *n* old and *m* new members.
    @usableFromInline
    package func setObjects(_ targets: [ManagedObject], at index: Int) {
        let relationship = entity.relationships[index]
        var incoming = RelatedObjects()
        for target in targets { incoming.append(target) }
        let current = objects(at: index)
        for old in current where !incoming.contains(old) { removeObject(old, at: index) }
        for target in incoming.members { addObject(target, at: index) }
        if relationship.isOrdered, objects(at: index).map(ObjectIdentifier.init) != incoming.members.map(ObjectIdentifier.init) {
            willChange(relationship: index)
            willChange(slot: entity.attributes.count + index)
            relationshipValues[index] = .toMany(incoming)
            didChange(slot: entity.attributes.count + index)
        }
    }

    /// Adds `target` to a to-many relationship (at the end of an ordered one), keeping the inverse consistent.
    ///
    /// - Complexity: O(1) amortized, plus the inverse's cost.
    package func addObject(_ target: ManagedObject, at index: Int) {
        fireFaultIfNeeded(index)
        guard case .toMany(let related) = relationshipValues[index], !related.contains(target) else { return }
        let relationship = entity.relationships[index]
        if let inverse = relationship.inverse { target.linkPrimitive(self, inverse: inverse) }
        appendPrimitive(target, at: index)
    }

    /// Removes `target` from a to-many relationship, keeping the inverse consistent.
    func removeObject(_ target: ManagedObject, at index: Int) {
        fireFaultIfNeeded(index)
        guard case .toMany(let related) = relationshipValues[index], related.contains(target) else { return }
        let relationship = entity.relationships[index]
        if let inverse = relationship.inverse { target.unlinkPrimitive(self, inverse: inverse) }
        removePrimitive(target, at: index)
    }

    /// Makes this object's relationship `inverse` include `source`, and detaches whatever a to-one `inverse` pointed to.
    private func linkPrimitive(_ source: ManagedObject, inverse: String) {
        let index = entity.relationshipIndex(named: inverse)!
        fireFaultIfNeeded(index)
        switch relationshipValues[index] {
        case .toOne(let previous):
            guard previous !== source else { return }
            // A to-one inverse holds one object: the object it held loses this one from its side of the pair.
            if let previous, let back = entity.relationships[index].inverse {
                previous.unlinkPrimitive(self, inverse: back)
            }
            willChange(relationship: index)
            willChange(slot: entity.attributes.count + index)
            relationshipValues[index] = .toOne(source)
            didChange(slot: entity.attributes.count + index)
        case .toMany:
            appendPrimitive(source, at: index)
        }
    }

    /// Makes this object's relationship `inverse` no longer include `source`, without touching `source`.
    private func unlinkPrimitive(_ source: ManagedObject, inverse: String) {
        let index = entity.relationshipIndex(named: inverse)!
        fireFaultIfNeeded(index)
        switch relationshipValues[index] {
        case .toOne(let previous):
            guard previous === source else { return }
            willChange(relationship: index)
            willChange(slot: entity.attributes.count + index)
            relationshipValues[index] = .toOne(nil)
            didChange(slot: entity.attributes.count + index)
        case .toMany:
            removePrimitive(source, at: index)
        }
    }

    private func appendPrimitive(_ target: ManagedObject, at index: Int) {
        fireFaultIfNeeded(index)
        guard case .toMany(var related) = relationshipValues[index], !related.contains(target) else { return }
        willChange(relationship: index)
        willChange(slot: entity.attributes.count + index)
        // Move the storage out first so the append mutates it in place instead of copying it.
        relationshipValues[index] = .toOne(nil)
        related.append(target)
        relationshipValues[index] = .toMany(related)
        didChange(slot: entity.attributes.count + index)
    }

    private func removePrimitive(_ target: ManagedObject, at index: Int) {
        fireFaultIfNeeded(index)
        guard case .toMany(var related) = relationshipValues[index], related.contains(target) else { return }
        willChange(relationship: index)
        willChange(slot: entity.attributes.count + index)
        relationshipValues[index] = .toOne(nil)
        related.remove(target, keepingOrder: entity.relationships[index].isOrdered)
        relationshipValues[index] = .toMany(related)
        didChange(slot: entity.attributes.count + index)
    }
}
