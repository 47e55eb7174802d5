import SeedKitModel
import SeedKitObjects

// Last phase of a decoder run: the checked facts become objects and links in the context. Nothing here can fail:
// everything that could was checked before.

extension GraphReading {
    /// An object a relationship of an existing object will no longer hold.
    struct Removal {
        let owner: ManagedObject
        let index: Int
        let object: ManagedObject
        let place: Place
    }

    /// What replacing relationships will unlink: members of a replaced or `null` to-many relationship that the
    /// input does not list, and to-one targets the input changes, of objects the context already has.
    func plannedRemovals() -> [Removal] {
        var removals: [Removal] = []
        for pending in pendingObjects {
            guard let owner = pending.existing else { continue }
            // Places in the input: where the key is written.
            let keys = owner.entity.relationshipKeys
            for index in Set(pending.toMany.keys).union(pending.clearedToMany).sorted() where replaces(pending, at: index) {
                let kept = Set((pending.toMany[index]?.members ?? []).compactMap { $0.existing.map(ObjectIdentifier.init) })
                for member in owner.objects(at: index) where !kept.contains(ObjectIdentifier(member)) {
                    removals.append(
                        Removal(owner: owner, index: index, object: member, place: pending.firstPlace.appending(keys[index])))
                }
            }
            for index in pending.statedToOne.sorted() {
                guard let old = owner.object(at: index) else { continue }
                if let target = pending.toOne[index]?.value, target.existing === old { continue }
                removals.append(Removal(owner: owner, index: index, object: old, place: pending.firstPlace.appending(keys[index])))
            }
        }
        return removals
    }

    /// Whether a to-many relationship of `pending` is replaced by the listed members rather than added to.
    private func replaces(_ pending: PendingObject, at index: Int) -> Bool {
        if pending.clearedToMany.contains(index) { return true }
        guard let populated, pending.existing === populated.object else { return false }
        return populated.policy == .replace
    }

    /// The owned objects that unlinking deletes, with every object their delete rules cascade to.
    func doomedObjects(_ removals: [Removal]) -> [ManagedObject] {
        let referenced = Set(pendingObjects.compactMap { $0.existing.map(ObjectIdentifier.init) })
        var doomed = OrderedObjects()
        var queue = removals.filter { removal in
            removal.owner.entity.relationships[removal.index].owns && !referenced.contains(ObjectIdentifier(removal.object))
        }.map(\.object)
        while let next = queue.popLast() {
            guard !doomed.contains(next) else { continue }
            doomed.insert(next)
            for (index, relationship) in next.entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                queue += next.related(at: index)
            }
        }
        return doomed.objects
    }

    /// Deny delete rules that would refuse deleting the owned objects the input unlinks, checked before any change.
    func checkDeletions() {
        let removals = plannedRemovals()
        let doomed = doomedObjects(removals)
        guard !doomed.isEmpty else { return }
        let doomedIDs = Set(doomed.map(ObjectIdentifier.init))
        let owners = Set(removals.map { ObjectIdentifier($0.owner) })
        for candidate in doomed {
            for (index, relationship) in candidate.entity.relationships.enumerated() where relationship.deleteRule == .deny {
                guard let blocker = candidate.related(at: index).first(where: {
                    !doomedIDs.contains(ObjectIdentifier($0)) && !owners.contains(ObjectIdentifier($0))
                }) else { continue }
                let place = removals.first { $0.object === candidate }?.place ?? Place(input: 0)
                problem(
                    .deleteDenied, at: place,
                    "unlinking \(candidate) deletes it, as its owner owns it, but it has \(relationship.name) (\(blocker)) and that delete rule is deny")
            }
        }
    }

    /// Creates, changes and links the objects; returns what changed.
    func apply() -> PopulateChanges {
        var changes = PopulateChanges()
        let removals = plannedRemovals()
        let doomed = doomedObjects(removals)
        let before = ObjectStates(capturing: pendingObjects.compactMap(\.existing) + removals.map(\.object))

        context.reserveIdentities(pendingObjects.count { $0.existing == nil && $0.identity != nil })
        for pending in pendingObjects {
            if let existing = pending.existing {
                pending.object = existing
                continue
            }
            // A new object takes its values before it is registered, so it is indexed by its identity at once.
            let object = context.instantiate(pending.entity)
            for index in pending.attributes.indices { object.attributeValues[index] = pending.attributes[index]!.value }
            // Applied: the facts go now, rather than with the run, so that they and the new objects are not all held
            // at once.
            pending.attributes = FactsByIndex(count: 0)
            // A pending object's identity is the values it states for the identity attributes: the object's.
            context.register(inserted: object, identity: pending.identity)
            pending.object = object
            changes.inserted.append(object)
        }
        for pending in pendingObjects where pending.existing != nil {
            for index in pending.attributes.indices {
                pending.object!.setAttributeValueUnchecked(pending.attributes[index]!.value, at: index)
            }
        }
        // To-many first, in their stated order; a stated to-one that an inverse already set is then a no-op.
        for pending in pendingObjects {
            let object = pending.object!
            for index in Set(pending.toMany.keys).union(pending.clearedToMany).sorted() {
                let targets = (pending.toMany[index]?.members ?? []).map { $0.object! }
                if pending.existing != nil, replaces(pending, at: index) {
                    object.setObjects(targets, at: index)
                } else {
                    for target in targets { object.addObject(target, at: index) }
                }
            }
        }
        for pending in pendingObjects {
            for index in pending.statedToOne.sorted() {
                pending.object!.setObject(pending.toOne[index]!.value?.object, at: index)
            }
        }
        for object in doomed where object.context === context && !object.isDeleted {
            do {
                try context.delete(object)
            } catch {
                assertionFailure("deny rules were checked before applying: \(error)")
            }
        }

        let doomedIDs = Set(doomed.map(ObjectIdentifier.init))
        var unlinked = Set<ObjectIdentifier>()
        for removal in removals where !doomedIDs.contains(ObjectIdentifier(removal.object)) {
            if unlinked.insert(ObjectIdentifier(removal.object)).inserted { changes.unlinked.append(removal.object) }
        }
        changes.deleted = doomed
        changes.updated = before.changes(excluding: doomedIDs)
        return changes
    }
}

/// The values of some objects and of the objects they relate to, to tell afterwards which keys changed.
struct ObjectStates {
    private struct State {
        let object: ManagedObject
        let attributes: AttributeValues
        let relationships: [[ObjectIdentifier]]
    }

    private var states: [State] = []

    init(capturing objects: [ManagedObject]) {
        var seen = Set<ObjectIdentifier>()
        func capture(_ object: ManagedObject) {
            guard seen.insert(ObjectIdentifier(object)).inserted else { return }
            states.append(
                State(
                    object: object, attributes: object.attributeValues,
                    relationships: object.entity.relationships.indices.map { object.related(at: $0).map(ObjectIdentifier.init) }))
        }
        for object in objects {
            capture(object)
            // Neighbors change through inverses: the department an employee leaves loses a member.
            for index in object.entity.relationships.indices { object.related(at: index).forEach(capture) }
        }
    }

    /// The captured objects whose values differ now, with the names of the keys that differ.
    func changes(excluding excluded: Set<ObjectIdentifier>) -> [PopulateChanges.Update] {
        states.compactMap { state in
            let object = state.object
            guard !excluded.contains(ObjectIdentifier(object)), object.context != nil else { return nil }
            var keys: Set<String> = []
            for (index, attribute) in object.entity.attributes.enumerated() where object.attributeValues[index] != state.attributes[index] {
                keys.insert(attribute.name)
            }
            for (index, relationship) in object.entity.relationships.enumerated() {
                let now = object.related(at: index).map(ObjectIdentifier.init)
                let changed = relationship.isOrdered ? now != state.relationships[index] : Set(now) != Set(state.relationships[index])
                if changed { keys.insert(relationship.name) }
            }
            return keys.isEmpty ? nil : PopulateChanges.Update(object: object, keys: keys)
        }
    }
}
