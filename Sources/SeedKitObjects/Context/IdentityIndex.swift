import SeedKitModel

/// A context's registered objects by identity (root entity and identity values), indexed when first needed.
///
///     var index = IdentityIndex()
///     index.register(ann, identity: nil)       // queued: nothing hashed yet
///     index.object(for: annKey)                // indexes the queue, then looks up: ann
///
/// A fetch registers every row it reads, and most rows are never looked up by identity: hashing each one's identity
/// and growing the table as the rows arrive cost a fetch by identity nearly as much as its query. So registering only
/// queues an object; the next lookup or change indexes the queue in registration order, with room made for all of it
/// at once. That gives what indexing each object as it came would have: every change to a registered object's
/// identity, and every removal, goes through this index, which indexes the queue first. The first holder of an
/// identity keeps the entry; a second holder is an identity conflict that saving reports.
///
/// - Complexity: O(1) to register; O(*q*) for the first lookup or change after *q* registrations, then O(1) on average.
struct IdentityIndex {
    private var objects: [IdentityKey: ManagedObject] = [:]
    /// Registered objects not indexed yet, in registration order.
    ///
    /// An array of references alone, not of pairs with their values: a fetch queues every object it reads, and the
    /// context's end destroys the queue, which for pairs goes through the element type's generic destruction, an
    /// object at a time.
    private var queue: [ManagedObject] = []
    /// The identity values callers gave with queued objects, by position in ``queue``, in order; the others are
    /// indexed by the values they have when indexed.
    private var queuedIdentities: [(position: Int, values: [AttributeValue])] = []

    /// Queues a registered object, to be indexed by `identity` (its identity values) or, when nil, by the values it
    /// has when indexed.
    mutating func register(_ object: ManagedObject, identity: [AttributeValue]?) {
        guard !object.entity.identityIndices.isEmpty else { return }
        if let identity { queuedIdentities.append((queue.count, identity)) }
        queue.append(object)
    }

    /// The object indexed under `key`.
    mutating func object(for key: IdentityKey) -> ManagedObject? {
        indexQueue()
        return objects[key]
    }

    /// Makes room for `count` more objects registered with their identity values.
    mutating func reserve(_ count: Int) {
        queue.reserveCapacity(queue.count + count)
        queuedIdentities.reserveCapacity(queuedIdentities.count + count)
    }

    /// Moves `object` from its old identity values (when it held their entry) to its current ones.
    mutating func identityDidChange(_ object: ManagedObject, from old: [AttributeValue]?) {
        indexQueue()
        remove(object, identity: old)
        if let identity = object.identityValues { index(object, identity: identity) }
    }

    /// Removes `object`'s entry, when it holds the one of its identity values.
    mutating func remove(_ object: ManagedObject) {
        indexQueue()
        remove(object, identity: object.identityValues)
    }

    /// Forgets every entry, to index `objects` in their order when next needed.
    mutating func reset(to objects: [ManagedObject]) {
        self.objects = [:]
        queue = objects
        queuedIdentities = []
    }

    private mutating func remove(_ object: ManagedObject, identity: [AttributeValue]?) {
        guard let identity, case let key = IdentityKey(root: object.entity.rootName, values: identity),
            objects[key] === object
        else { return }
        objects[key] = nil
    }

    private mutating func indexQueue() {
        guard !queue.isEmpty else { return }
        objects.reserveCapacity(objects.count + queue.count)
        var given = queuedIdentities.makeIterator()
        var next = given.next()
        for (position, object) in queue.enumerated() {
            let identity: [AttributeValue]?
            if let (givenPosition, values) = next, givenPosition == position {
                identity = values
                next = given.next()
            } else {
                identity = object.identityValues
            }
            if let identity { index(object, identity: identity) }
        }
        queue.removeAll()
        queuedIdentities.removeAll()
    }

    private mutating func index(_ object: ManagedObject, identity: [AttributeValue]) {
        // One merge hashes the identity once, where a lookup then an insert hashed it twice.
        objects.merge(CollectionOfOne((IdentityKey(root: object.entity.rootName, values: identity), object))) {
            first, _ in first
        }
    }
}
