extension ObjectContext {
    /// Deletes an object, applying the delete rules of its relationships: cascade deletes the related objects too,
    /// nullify unlinks them, deny refuses while any related object remains.
    ///
    ///     try context.delete(sales)   // cascades to owned objects, unlinks employees
    ///
    /// - Throws: ``ObjectError`` of kind `deleteDenied`, naming the relationship and a related object; nothing is
    ///   deleted or changed then. `wrongContext` for an object of another context.
    /// - Complexity: O(*n*) in the number of objects reached through cascades, times their relationships.
    public func delete(_ object: ManagedObject) throws {
        guard object.context === self, !isDeleted(object) else {
            throw ObjectError(.wrongContext, object: object.description, "is not an object of this context")
        }
        // Collect everything the cascades reach first, so a deny anywhere refuses the whole deletion.
        var doomed = OrderedObjects()
        var pending = [object]
        while let next = pending.popLast() {
            guard !doomed.contains(next) else { continue }
            doomed.insert(next)
            for (index, relationship) in next.entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                pending += next.related(at: index)
            }
        }
        for candidate in doomed.objects {
            for (index, relationship) in candidate.entity.relationships.enumerated() where relationship.deleteRule == .deny {
                if let blocker = candidate.related(at: index).first(where: { !doomed.contains($0) }) {
                    throw ObjectError(
                        .deleteDenied, object: candidate.description, key: relationship.name,
                        "cannot be deleted while it has \(relationship.name) (\(blocker)); its delete rule is deny")
                }
            }
        }
        removeDeleted(doomed.objects)
    }

    /// Unlinks `objects` from everything they relate to and marks them deleted, with no delete rule: the caller has
    /// applied them already (a child context's save brings its deletions here with their cascades).
    func removeDeleted(_ objects: [ManagedObject]) {
        for candidate in objects {
            for index in candidate.entity.relationships.indices {
                if candidate.entity.relationships[index].isToMany {
                    candidate.setObjects([], at: index)
                } else {
                    candidate.setObject(nil, at: index)
                }
            }
        }
        for candidate in objects { markDeleted(candidate) }
    }
}

extension ManagedObject {
    /// The objects a relationship holds, whatever its cardinality.
    package func related(at index: Int) -> [ManagedObject] {
        fireFaultIfNeeded(index)
        return switch relationshipValues[index] {
        case .toOne(let object): object.map { [$0] } ?? []
        case .toMany(let related): related.members
        }
    }
}
