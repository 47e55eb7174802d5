import SeedKitModel
import SeedKitObjects
import SeedKitStore

/// One application of decoded templates to a store's context: matches each template object with the stored object
/// it names, decides what to do with it from the ledger, and makes the changes (the caller saves).
///
///     let run = SeedRun(templates: decoded, context: store.newContext(), ledger: ledger, options: options)
///     try run.apply()
///     try run.context.save()
///     try run.ledgerAfterSave().write(to: store.connection)
///
/// Objects are named by a key: the root entity and identity values (`Employee["ann@example.com"]`), or for an
/// object without identity that an owner holds, the owner's key, the relationship and the position
/// (`Employee["ann@example.com"]/addresses/0`), else the entity and its order in the set (`Note#2`).
///
/// An object's value hash covers its attributes, its to-one relationships, and the to-many relationships whose
/// inverse is not a to-one (those are covered from the other side). A stored object whose hash still equals the
/// ledger's was not changed by the application and may be updated; otherwise it is kept.
///
/// - Complexity: O(*n*) in the number of template and seeded objects and their relationships, plus one fetch per
///   root entity that holds a seeded object without identity.
final class SeedRun {
    private enum IdentityLookup {
        /// The table has no rows: nothing to find.
        case empty
        /// The table's objects by identity values.
        case indexed([[AttributeValue]: ManagedObject])
        /// One query per lookup, through the context.
        case perObject
    }

    enum Action {
        case insert, update, unchanged, kept
        /// An update of an object the store had before it was ever seeded: the template adds to it (see `write`).
        case merge
    }

    let templates: ObjectContext
    let context: ObjectContext
    let ledger: SeedLedger
    let options: SeedOptions
    private(set) var counts: [String: SeedReport.Counts] = [:]
    private(set) var keptKeys: [String] = []

    /// The keys of template objects.
    private var templateKeys: SeedKeys
    /// The keys of stored objects: the template key each was matched with.
    private var storedKeys: [ObjectIdentifier: String] = [:]
    private var matches: [ObjectIdentifier: ManagedObject] = [:]
    private var matched: Set<ObjectIdentifier> = []
    private var rowsByRoot: [String: [Int64: ManagedObject]] = [:]
    private var fetchedByRoot: [String: [ManagedObject]] = [:]
    /// How stored objects are found by identity, per root entity; see `storedObject(rootEntity:identity:)`.
    private var identityLookups: [String: IdentityLookup] = [:]
    /// The number of template objects with identity, per root entity.
    private var identityCounts: [String: Int] = [:]
    private var plan: [(template: ManagedObject, key: String, action: Action)] = []
    /// The plan once applied, without the templates: the stored object of every step but the kept ones.
    private var outcomes: [(key: String, object: ManagedObject?)] = []
    private var stale: [(key: String, entry: SeedLedger.Entry, object: ManagedObject?, unchangedByApp: Bool)] = []
    private var valueText: SeedValueText

    init(templates: ObjectContext, context: ObjectContext, ledger: SeedLedger, options: SeedOptions) {
        self.templates = templates
        self.context = context
        self.ledger = ledger
        self.options = options
        self.valueText = SeedValueText(model: context.model)
        self.templateKeys = SeedKeys(model: context.model)
    }

    /// Decides every object's action, then changes the context accordingly; empties the templates' context.
    func apply() throws {
        let objects = templates.insertedObjects
        for object in objects {
            _ = templateKey(object)
            if object.identityValues != nil { identityCounts[object.entity.rootName, default: 0] += 1 }
        }
        for object in objects { _ = try storeObject(for: object) }
        // An empty ledger (a first seed) has no stale entries: no set of every key to build.
        let templateKeys = ledger.objects.isEmpty ? [] : Set(objects.map { templateKey($0) })
        for (key, entry) in ledger.objects.sorted(by: { $0.key < $1.key }) where !templateKeys.contains(key) {
            let object = try storedObject(entity: entry.entity, rowID: entry.rowID)
            if let object { storedKeys[ObjectIdentifier(object)] = key }
            stale.append((key, entry, object, false))
        }
        // Every hash is taken before anything changes: applying one object touches its neighbours' inverses.
        for index in stale.indices {
            if let object = stale[index].object { stale[index].unchangedByApp = valueHash(object, key: storeKey) == stale[index].entry.hash }
        }
        for object in objects {
            let key = templateKey(object)
            let action = classify(object, key: key)
            plan.append((object, key, action))
            count(object.entity.name, action)
            if action == .kept { keptKeys.append(key) }
        }
        for step in plan where step.action == .insert {
            // The template's values were checked in its own context, and no stored object has its identity (it
            // would have matched): the new object takes them as they are, without a setter's checks per value.
            let object = context.instantiate(try context.entity(named: step.template.entity.name))
            object.attributeValues = step.template.attributeValues
            context.register(inserted: object)
            matches[ObjectIdentifier(step.template)] = object
            storedKeys[ObjectIdentifier(object)] = step.key
        }
        for step in plan where step.action == .insert || step.action == .update || step.action == .merge {
            try write(step.template, to: matches[ObjectIdentifier(step.template)]!, merging: step.action == .merge)
        }
        for item in stale {
            guard let object = item.object, !object.isDeleted, options.prune else { continue }
            if item.unchangedByApp || options.force {
                try context.delete(object)
                counts[item.entry.entity, default: .init()].deleted += 1
            } else {
                counts[item.entry.entity, default: .init()].kept += 1
                keptKeys.append(item.key)
            }
        }
        keptKeys.sort()
        releaseTemplates()
    }

    /// Lets the templates go once they are copied, so that the save does not hold two object graphs: keeps each
    /// step's key and stored object for the ledger, and empties the templates' context.
    private func releaseTemplates() {
        outcomes = plan.map { step in
            (step.key, step.action == .kept ? nil : matches[ObjectIdentifier(step.template)])
        }
        // Their identifiers may name other objects once they are freed.
        templateKeys = SeedKeys(model: context.model)
        plan = []
        matches = [:]
        matched = []
        templates.rollback()
    }

    /// The ledger for the saved context: fresh entries for objects written or found equal, the old ones for objects
    /// kept or left in place. The caller adds the fingerprint and files.
    func ledgerAfterSave() -> SeedLedger {
        var result = SeedLedger()
        result.objects.reserveCapacity(outcomes.count + stale.count)
        for step in outcomes {
            guard let object = step.object else {
                if let entry = ledger.objects[step.key] { result.objects[step.key] = entry }
                continue
            }
            result.objects[step.key] = SeedLedger.Entry(
                entity: object.entity.name, rowID: object.objectID.number, hash: valueHash(object, key: storeKey))
        }
        for item in stale {
            guard let object = item.object, !object.isDeleted else { continue }
            // Unlinking it from the objects the templates still hold is the seeder's change, not the application's.
            result.objects[item.key] = item.unchangedByApp
                ? SeedLedger.Entry(entity: item.entry.entity, rowID: item.entry.rowID, hash: valueHash(object, key: storeKey))
                : item.entry
        }
        return result
    }

    // MARK: Deciding

    private func classify(_ template: ManagedObject, key: String) -> Action {
        let entry = ledger.objects[key]
        guard let stored = matches[ObjectIdentifier(template)] else {
            // Seeded once and deleted by the application since: its deletion is a change like any other.
            return entry != nil && !options.force ? .kept : .insert
        }
        guard stored.entity.name == template.entity.name else { return .kept }
        let storedHash = valueHash(stored, key: storeKey)
        if storedHash == valueHash(template, key: templateKey) { return .unchanged }
        // No entry: data the store had before seeding, which the templates upsert.
        if entry == nil && !options.force { return .merge }
        if entry == nil || entry?.hash == storedHash || options.force { return .update }
        return .kept
    }

    private func count(_ entity: String, _ action: Action) {
        switch action {
        case .insert: counts[entity, default: .init()].inserted += 1
        case .update, .merge: counts[entity, default: .init()].updated += 1
        case .unchanged: counts[entity, default: .init()].unchanged += 1
        case .kept: counts[entity, default: .init()].kept += 1
        }
    }

    // MARK: Writing

    /// Gives `stored` the template's attributes and relationships.
    ///
    /// When `merging` into data the store had before seeding, what the template leaves empty (a nil attribute, no
    /// to-one target) keeps its stored value and to-many members are added: the template's facts join the data, as
    /// the graph decoder's upserts do, instead of erasing what the application put there.
    private func write(_ template: ManagedObject, to stored: ManagedObject, merging: Bool) throws {
        for index in template.entity.attributes.indices where stored.attributeValue(at: index) != template.attributeValue(at: index) {
            if merging && template.attributeValue(at: index) == nil { continue }
            try stored.setAttributeValue(template.attributeValue(at: index), at: index)
        }
        for (index, relationship) in template.entity.relationships.enumerated() {
            guard relationship.isToMany else {
                let target = template.object(at: index).flatMap { matches[ObjectIdentifier($0)] }
                if stored.object(at: index) !== target && !(merging && target == nil) { stored.setObject(target, at: index) }
                continue
            }
            let targets = template.objects(at: index).compactMap { matches[ObjectIdentifier($0)] }
            if !merging && (isHashed(relationship) || relationship.owns) {
                let removed = stored.objects(at: index).filter { old in !targets.contains { $0 === old } }
                stored.setObjects(targets, at: index)
                if relationship.owns {
                    for object in removed where !object.isDeleted { try context.delete(object) }
                }
            } else {
                // Members the application added stay: this side is not in the hash, so its changes are not seen.
                for target in targets { stored.addObject(target, at: index) }
            }
        }
    }

    // MARK: Matching

    /// The stored object a template object names, or nil when the store has none.
    private func storeObject(for template: ManagedObject) throws -> ManagedObject? {
        let id = ObjectIdentifier(template)
        if matched.contains(id) { return matches[id] }
        matched.insert(id)
        var stored: ManagedObject?
        if let identity = template.identityValues {
            stored = try storedObject(rootEntity: template.entity.rootName, identity: identity)
        } else if let (owner, index) = SeedKeys.owner(of: template) {
            if let storedOwner = try storeObject(for: owner),
                let storedIndex = storedOwner.entity.relationshipIndex(named: owner.entity.relationships[index].name),
                let position = owner.objects(at: index).firstIndex(where: { $0 === template })
            {
                let members = storedOwner.objects(at: storedIndex)
                stored = position < members.count ? members[position] : nil
            }
        } else if let entry = ledger.objects[templateKey(template)] {
            stored = try storedObject(entity: entry.entity, rowID: entry.rowID)
        }
        if let stored {
            matches[id] = stored
            storedKeys[ObjectIdentifier(stored)] = templateKey(template)
        }
        return stored
    }

    /// The stored object of an entity's tree with this row id.
    private func storedObject(entity entityName: String, rowID: Int64) throws -> ManagedObject? {
        guard let root = context.model.entity(named: entityName)?.rootName else { return nil }
        if rowsByRoot[root] == nil {
            rowsByRoot[root] = Dictionary(try allStored(root).map { ($0.objectID.number, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return rowsByRoot[root]?[rowID]
    }

    /// The stored object of an entity's tree with these identity values.
    ///
    /// Asking the store once per template object costs a query each, so when the tree's table is not much larger
    /// than the templates' objects of that tree it is read whole, once; an empty table (a first seed) is not read.
    private func storedObject(rootEntity root: String, identity: [AttributeValue]) throws -> ManagedObject? {
        if identityLookups[root] == nil {
            let rows = try rowCount(root)
            if rows == 0 {
                identityLookups[root] = .empty
            } else if rows <= 2 * (identityCounts[root] ?? 0) + 1_000 {
                var index: [[AttributeValue]: ManagedObject] = [:]
                for object in try allStored(root) {
                    if let identity = object.identityValues { index[identity] = object }
                }
                identityLookups[root] = .indexed(index)
            } else {
                identityLookups[root] = .perObject
            }
        }
        switch identityLookups[root]! {
        case .empty: return nil
        case .indexed(let index): return index[identity]
        case .perObject: return context.registeredObject(rootEntity: root, identity: identity)
        }
    }

    /// Every stored object of an entity's tree, fetched once.
    private func allStored(_ root: String) throws -> [ManagedObject] {
        if let objects = fetchedByRoot[root] { return objects }
        let objects = try context.fetch(root)
        fetchedByRoot[root] = objects
        return objects
    }

    /// The number of rows in the table of an entity's tree.
    private func rowCount(_ root: String) throws -> Int64 {
        guard let store = context.store as? SQLiteStore, let table = store.schema.tables[root] else { return 0 }
        let statement = try store.connection.prepare(sql: "SELECT count(*) FROM \(table.quoted)")
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    // MARK: Keys and hashes

    private func templateKey(_ object: ManagedObject) -> String {
        templateKeys.key(of: object)
    }

    /// A stored object's key: the template key it was matched with, its identity, or its row.
    private func storeKey(_ object: ManagedObject) -> String {
        if let key = storedKeys[ObjectIdentifier(object)] { return key }
        if let identity = object.identityValues { return templateKeys.identityKey(object.entity, identity) }
        return "\(object.entity.rootName)@\(object.objectID.number)"
    }

    /// The hash of the object's value text (see ``SeedValueText``), related objects named by `key`.
    private func valueHash(_ object: ManagedObject, key: (ManagedObject) -> String) -> String {
        valueText.valueHash(of: object, key: key)
    }

    private func isHashed(_ relationship: RelationshipDescription) -> Bool {
        valueText.isHashed(relationship)
    }
}
