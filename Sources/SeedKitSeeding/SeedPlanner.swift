import Dispatch
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The plan stage of seeding: each object of the templates compared with the ledger and the stored row, slot by
/// slot, into what to insert, update, leave and keep, and what the templates no longer hold (``SeedPlan``).
///
///     let plan = try SeedPlanner.plan(objects, schema: schema, ledger: ledger, store: store, options: options)
///     plan.counts["Employee"]?.updated
///
/// An object is matched to a row by identity (the store's identity index), else by the ledger's key (`"$id"`,
/// place, or for an owned object its owner's row and place there). Then, for each slot, three hashes: the
/// template's value (T), what the seeder last wrote (L, the ledger's) and what the row holds (S, read only where
/// T ≠ L):
///
/// - T = L: the templates did not change it; whatever the application did stays.
/// - T ≠ L, S = L: the application did not change it; the template's value is written.
/// - T ≠ L, S ≠ L, S ≠ T: both changed it: a conflict, kept unless `force`.
///
/// A row the templates meet but the ledger does not know (data the store had before seeding) takes the slots the
/// templates state and keeps the others. A row the ledger knows whose object the templates no longer hold is
/// reported; `prune` deletes it unless the application changed it (or `force`). An owned object its owner no longer
/// holds is deleted with the owner's statement, unless the application changed it.
///
/// - Complexity: O(*n*) in the objects and slots, plus the store reads: the row of each object with identity that the
///   ledger names (read by row id, and its identity checked), an identity look-up for the other objects with identity,
///   and the rows of objects whose template changed.
struct SeedPlanner {
    private let schema: SeedSchema
    private let resolved: SeedObjects
    private var objects: [SeedObject] { resolved.objects }
    private let ledger: SeedLedger
    private let store: RowStore?
    private let options: SeedOptions

    private var plan: SeedPlan
    /// The ledger entry each object was matched to, or -1.
    private var entries: [Int32]
    /// Each key's ledger entry.
    private var ledgerIndex = ElementIndex()
    /// Per root, the next row id for a new row.
    private var nextRowIDs: [Int64]
    /// Stored rows read so far, by root and row id.
    private var storedRows: [Int: [Int64: StoredRow]] = [:]
    /// Rows known to be gone, by root.
    private var goneRows: [Int: Set<Int64>] = [:]
    private var storedJoins: [String: [Int64: [Int64]]] = [:]
    private var hasher = SlotHasher()
    /// The templates' attribute hashes of the objects the ledger names with a row, made on another thread while their
    /// rows are read (``TemplateSlots/attributeHashes(of:)``); nil when there are none.
    private var attributeHashes: BackgroundValue<ObjectHashes>?
    /// The parts of the files not read, when the ledger was read without them
    /// (``SeedLedger/read(from:schema:carrying:)``).
    private let carried: SeedLedger.Carried?

    /// The plan of `objects` against `ledger`. When the ledger was read without the files not read (its
    /// ``SeedLedger/Origins/carried``), their objects stay as they are, as they would were their unchanged statements
    /// read (each slot's template hash is the ledger's): an object the files read only name that one of them bears on
    /// is left alone, and their entries are counted unchanged.
    ///
    /// - Throws: ``ReadEveryFile`` where leaving the files not read could differ from reading them.
    static func plan(
        _ objects: SeedObjects, schema: SeedSchema, ledger: SeedLedger, store: RowStore?, options: SeedOptions
    ) throws -> SeedPlan {
        var planner = try SeedPlanner(set: objects, schema: schema, ledger: ledger, store: store, options: options)
        try planner.match()
        try planner.decide()
        try planner.settleStaleEntries()
        planner.plan.keptObjects.sort()
        planner.releaseTablesInBackground()
        return planner.plan
    }

    /// Hands the rows read and the ledger's index, which the plan does not keep, to another thread to free: the
    /// writer need not wait for them (see ``releaseInBackground(_:)``).
    private mutating func releaseTablesInBackground() {
        var tables = (rows: [Int: [Int64: StoredRow]](), joins: [String: [Int64: [Int64]]]())
        swap(&tables.rows, &storedRows)
        swap(&tables.joins, &storedJoins)
        ledgerIndex = ElementIndex()
        releaseInBackground(tables)
    }

    private init(set: SeedObjects, schema: SeedSchema, ledger: SeedLedger, store: RowStore?, options: SeedOptions) throws {
        self.schema = schema
        self.resolved = set
        let objects = set.objects
        self.ledger = ledger
        self.store = store
        self.options = options
        plan = SeedPlan(objectCount: objects.count, entityNames: schema.entities.map(\.entity.name))
        entries = Array(repeating: -1, count: objects.count)
        carried = ledger.origins?.carried
        var ledgerIndex = ElementIndex(capacity: ledger.entries.count)
        for (index, entry) in ledger.entries.enumerated() {
            // As a dictionary's assignment: a later entry of a key stands for it.
            ledgerIndex.set(Int32(index), hash: entry.key.storedHash) { ledger.entries[$0].key == entry.key }
        }
        self.ledgerIndex = ledgerIndex
        nextRowIDs = try schema.roots.map { root in try (store?.largestRowID(root: root) ?? 0) + 1 }
    }

    // MARK: Matching

    /// Finds each object's row: by identity in the store, else through the ledger; owners come before what they own.
    private mutating func match() throws {
        var identities: [Int: [(object: Int, values: [AttributeValue])]] = [:]
        // Objects the ledger names with a row: that row, read whole now (deciding reads it anyway), is theirs while it
        // holds their identity — one look-up by row id where a look-up by identity and a read would be two.
        var seeded: [Int: [(object: Int, rowID: Int64)]] = [:]
        // Each object's ledger entry as found here (-1 for none), or nil where it is looked for below.
        var ledgerEntries = [Int32?](repeating: nil, count: objects.count)
        for index in objects.indices {
            // The object's fields read where they are, the key once it is needed: a copy of the object would retain
            // and release its key's strings, for every object of a new store.
            guard objects[index].key?.kind == .identity, resolved.storedRowID(of: index) == nil else { continue }
            let slots = schema.entities[Int(objects[index].entity)]
            // A table without rows has nothing to find.
            guard nextRowIDs[slots.root] > 1, let key = objects[index].key else { continue }
            if store != nil {
                let entry = ledgerEntry(for: key)
                ledgerEntries[index] = entry ?? -1
                if let entry {
                    seeded[slots.root, default: []].append((index, ledger.entries[Int(entry)].rowID))
                    continue
                }
            }
            identities[slots.root, default: []].append((index, identityValues(of: index, slots: slots)))
        }
        if !seeded.isEmpty {
            // Deciding hashes what the templates give these objects; their attributes depend on no row id, so they are
            // hashed on a free core while the rows are read.
            let templates = self.templates, named = ledgerEntries.map { ($0 ?? -1) >= 0 }
            attributeHashes = BackgroundValue { templates.attributeHashes(of: named) }
        }
        // Each object's row as found in the store by its identity.
        var foundRows = [Int64?](repeating: nil, count: objects.count)
        for (root, list) in seeded {
            try read([root: list.map(\.rowID)], recordingGoneRows: false)
            for (index, rowID) in list {
                let slots = schema.entities[Int(objects[index].entity)]
                let values = identityValues(of: index, slots: slots)
                // Compared as SQL compares them, by their exact bytes: the row another identity took is not this one's.
                if let row = storedRows[root]?[rowID], let rowEntity = schema.model.entity(named: row.entity),
                    ExactValues(rowEntity.identityIndices.compactMap { row.values[$0] }) == ExactValues(values)
                {
                    foundRows[index] = rowID
                } else {
                    identities[root, default: []].append((index, values))
                }
            }
        }
        if let store {
            for (root, asked) in identities {
                for (ask, row) in zip(asked, try store.lookUp(identities: asked.map(\.values), root: schema.roots[root])) {
                    if let row { foundRows[ask.object] = row.rowID }
                }
            }
        }
        for index in objects.indices {
            // The object's fields read where they are: a copy of it would retain and release its key's strings.
            let root = schema.entities[Int(objects[index].entity)].root
            var key = objects[index].key
            let storedRowID = resolved.storedRowID(of: index) ?? foundRows[index]
            // An owned object's key names its owner's row; an empty ledger has none to find (keys are decided later).
            if key == nil, objects[index].owner >= 0, !ledger.entries.isEmpty { key = ownedKey(index) }
            // Not `key.flatMap(ledgerEntry(for:))`: a method of a struct passed as a function takes a copy of the whole
            // planner each time, its tables retained and released (7 % of a 200,000-object first launch).
            var indexed = ledgerEntries[index] ?? -1
            if ledgerEntries[index] == nil, let key, let entry = ledgerEntry(for: key) { indexed = entry }
            // An `"$id"` or a place names another object once it is of another root entity: that one's row is in
            // another table, and its entry is left to what the templates no longer hold.
            let entry = indexed >= 0 && schema.entities[Int(ledger.entries[Int(indexed)].entity)].root != root
                ? -1 : indexed
            if indexed < 0, let carried, let key, carried.isBorneByCarriedFile(key) {
                // Named by the files read, borne by one not read: as that file left it, in the row the store has.
                guard let rowID = storedRowID else { throw ReadEveryFile() }
                plan.actions[index] = .unchanged
                plan.rowIDs[index] = rowID
                plan.carried.insert(index)
            } else if let rowID = storedRowID {
                plan.rowIDs[index] = rowID
                // An object the templates only reference takes only what they state about it.
                if entry >= 0, ledger.entries[Int(entry)].rowID == rowID, objects[index].definition != nil {
                    entries[index] = entry
                    plan.actions[index] = .update
                } else {
                    if entry >= 0 { plan.consumedEntries.insert(entry) }
                    plan.actions[index] = .merge
                }
            } else if entry >= 0, objects[index].key?.kind != .identity {
                // Known by its key in the ledger: its row, unless it turns out to be gone.
                entries[index] = entry
                plan.rowIDs[index] = ledger.entries[Int(entry)].rowID
                plan.actions[index] = .update
            } else if entry >= 0, !options.force {
                // Seeded once and deleted by the application since: its deletion is a change like any other.
                entries[index] = entry
                plan.actions[index] = .kept
                plan.rowIDs[index] = -1
                plan.deletedByApplication.insert(index)
            } else {
                if entry >= 0 { plan.consumedEntries.insert(entry) }
                plan.actions[index] = .insert
                plan.rowIDs[index] = nextRowIDs[root]
                nextRowIDs[root] += 1
            }
        }
    }

    /// The ledger entry of `key`.
    private func ledgerEntry(for key: SeedKey) -> Int32? {
        ledgerIndex.element(hash: key.storedHash) { ledger.entries[$0].key == key }
    }

    /// The identity values of an object with identity, as the templates state them.
    private func identityValues(of index: Int, slots: EntitySlots) -> [AttributeValue] {
        slots.entity.identityIndices.map { resolved.value(of: index, at: $0)! }
    }

    /// The key of an object without identity that an owner holds: the owner's row (or, for an owner the application
    /// deleted, the row it had), the relationship and the place.
    private func ownedKey(_ index: Int) -> SeedKey? {
        // The object's fields read where they are: a copy of it would retain and release its key's strings.
        let owner = Int(objects[index].owner)
        let ownerRow = plan.rowIDs[owner] > 0 ? plan.rowIDs[owner] : entries[owner] >= 0 ? ledger.entries[Int(entries[owner])].rowID : nil
        guard let ownerRow else { return nil }
        let ownerSlots = schema.entities[Int(objects[owner].entity)]
        return SeedKey(
            ownedBy: schema.roots[ownerSlots.root], row: ownerRow,
            relationship: ownerSlots.entity.relationships[Int(objects[index].ownerRelationship)].name,
            position: objects[index].ownerPosition)
    }

    // MARK: Deciding

    private mutating func decide() throws {
        // Rows found gone while deciding change the row ids others point to: decided again, until none is found.
        while true {
            var reads: [Int: [Int64]] = [:]
            let actions = plan.actions
            let hashes = templates.hashes(hashing: attributeHashes?.value) { actions[$0] == .update || actions[$0] == .merge }
            // The objects whose rows are compared: merged ones, and those the templates changed since the ledger.
            var compared = [Bool](repeating: false, count: objects.count)
            for index in objects.indices where plan.actions[index] == .update || plan.actions[index] == .merge {
                let root = schema.entities[Int(objects[index].entity)].root
                if plan.actions[index] == .merge || ledger.entries[Int(entries[index])].entity != objects[index].entity
                    || !hashes[index].elementsEqual(ledger.hashes(of: ledger.entries[Int(entries[index])]))
                {
                    compared[index] = true
                    if storedRows[root]?[plan.rowIDs[index]] == nil, goneRows[root]?.contains(plan.rowIDs[index]) != true {
                        reads[root, default: []].append(plan.rowIDs[index])
                    }
                }
            }
            try read(reads)
            var changed = false
            for index in objects.indices where plan.actions[index] == .update || plan.actions[index] == .merge {
                let root = schema.entities[Int(objects[index].entity)].root
                guard goneRows[root]?.contains(plan.rowIDs[index]) == true else { continue }
                changed = true
                if options.force || plan.actions[index] == .merge {
                    plan.actions[index] = .insert
                    plan.rowIDs[index] = nextRowIDs[root]
                    nextRowIDs[root] += 1
                } else {
                    plan.actions[index] = .kept
                    plan.rowIDs[index] = -1
                    plan.deletedByApplication.insert(index)
                }
            }
            if changed { continue }
            // Inserted objects join the ledger when it is packed.
            let inserted = plan.actions.lazy.filter { $0 == .insert }.count
            plan.ledger.reserveCapacity(
                entries: objects.count - inserted + ledger.entries.count, hashes: hashes.hashes.count + ledger.hashes.count)
            plan.insertions.objects.reserveCapacity(inserted)
            // An owned object without a key of its own is known by its owner's: room for those only.
            let owned = objects.count(where: { $0.key == nil && $0.owner >= 0 })
            if owned > 0 { plan.insertions.ownedKeys = SeedLedger.OwnedKeys(objectCount: objects.count, owned: owned) }
            let stored = storedHashesOfObjects(compared)
            for index in objects.indices {
                decide(index, hashes: hashes[index], storedHashes: compared[index] ? stored[index] : nil)
            }
            for (name, count) in carried?.counts ?? [:] {
                if let ordinal = schema.ordinal(of: name) { plan.entityCounts[ordinal].unchanged += count }
            }
            return
        }
    }

    /// Decides one object once every row id is settled, with its template's slot hashes and its stored row's (nil
    /// for a row not compared: the templates did not change the object).
    private mutating func decide(_ index: Int, hashes template: ArraySlice<UInt64>, storedHashes: ArraySlice<UInt64>?) {
        // The object's fields read where they are, and the hashes in their slices: copies cost more than deciding.
        let entity = objects[index].entity, statedKey = objects[index].key
        let slots = schema.entities[Int(entity)]
        let entityName = slots.entity.name
        // An owned object's key names its owner's row, settled by now.
        let key = statedKey ?? ownedKey(index)
        if statedKey == nil, let key { plan.insertions.ownedKeys.set(key, of: index) }
        switch plan.actions[index] {
        case .insert:
            plan.entityCounts[slots.ordinal].inserted += 1
            // Hashed when the ledger is packed, while the rows are written: nothing here depends on it.
            plan.insertions.objects.append(Int32(index))
        case .kept:
            plan.unsettled.insert(index)
            plan.entityCounts[slots.ordinal].kept += 1
            plan.keptObjects.append(describe(index))
            plan.ledger.append(ledger.entries[Int(entries[index])], of: ledger)
        case .update, .merge:
            let root = slots.root
            let entry = entries[index] >= 0 ? ledger.entries[Int(entries[index])] : nil
            guard let storedHashes, let stored = storedRows[root]?[plan.rowIDs[index]] else {
                // Not compared: the templates did not change it.
                plan.entityCounts[slots.ordinal].unchanged += 1
                plan.ledger.append(entry!, of: ledger)
                return
            }
            let isMerge = plan.actions[index] == .merge
            var written: [Int] = []
            // What the seeder last wrote, slot by slot as the template's class lays them out (a slot that class has
            // and the seeded one did not: what the row holds).
            var recorded = entry.map { hashes(of: $0, laidOutAs: slots, else: storedHashes) } ?? Array(storedHashes)
            var conflicts = 0
            var classChanges = false, classConflicts = false
            if stored.entity != entityName {
                // Another class than the row's: applied unless the application changed the class itself.
                let seededClass = entry.map { schema.entities[Int($0.entity)].entity.name }
                if isMerge || options.force || seededClass == stored.entity {
                    classChanges = true
                    plan.entityChanges.insert(index)
                } else {
                    // The application made it another kind of object: kept whole.
                    classConflicts = true
                    conflicts += 1
                    plan.conflicts.append(
                        SeedConflict(object: describe(index), property: "class", templateValue: entityName, storeValue: stored.entity))
                }
            }
            for slot in 0..<slots.slotCount where !classConflicts {
                let templateHash = template[template.startIndex + slot]
                let storedHash = storedHashes[storedHashes.startIndex + slot]
                if isMerge {
                    // Data the store had: the slots the templates state join it, the others stay.
                    guard options.force || isStated(slot, of: index, slots: slots) else {
                        recorded[slot] = storedHash
                        continue
                    }
                    if templateHash != storedHash { written.append(slot) }
                    recorded[slot] = templateHash
                } else if templateHash == recorded[slot] {
                    // The templates did not change it: whatever the application did stays.
                } else if storedHash == templateHash {
                    recorded[slot] = templateHash
                } else if storedHash == recorded[slot] || options.force {
                    written.append(slot)
                    recorded[slot] = templateHash
                } else {
                    conflicts += 1
                    plan.conflicts.append(conflict(index, slot: slot, stored: stored))
                }
            }
            plan.ledger.append(key: key!, entity: entity, rowID: plan.rowIDs[index], hashes: recorded)
            if conflicts > 0 || !recorded.elementsEqual(template) { plan.unsettled.insert(index) }
            if !written.isEmpty || classChanges {
                plan.written[Int32(index)] = written
                plan.actions[index] = .update
                plan.entityCounts[slots.ordinal].updated += 1
            } else if conflicts > 0 {
                plan.actions[index] = .kept
                plan.entityCounts[slots.ordinal].kept += 1
            } else {
                plan.actions[index] = .unchanged
                plan.entityCounts[slots.ordinal].unchanged += 1
            }
            if conflicts > 0 { plan.keptObjects.append(describe(index)) }
        case .unchanged:
            break
        }
    }

    /// A ledger entry's slot hashes laid out as `slots` lays out an entity's, by slot name: for an object whose
    /// class the templates changed; a slot the entry's class has not takes `fallback`'s hash.
    private func hashes(of entry: SeedLedger.Entry, laidOutAs slots: EntitySlots, else fallback: ArraySlice<UInt64>) -> [UInt64] {
        let recorded = Array(ledger.hashes(of: entry))
        guard Int(entry.entity) != slots.ordinal else { return recorded }
        let seeded = schema.entities[Int(entry.entity)]
        return (0..<slots.slotCount).map { slot in
            seeded.slot(named: slots.name(ofSlot: slot)).map { recorded[$0] } ?? fallback[fallback.startIndex + slot]
        }
    }

    /// Whether any statement of the templates states the slot.
    private func isStated(_ slot: Int, of object: Int, slots: EntitySlots) -> Bool {
        if slot < slots.attributeCount { return objects[object].stated.contains(slot) }
        if slot < slots.attributeCount + slots.toOnes.count { return resolved.toOne(of: object, at: slot - slots.attributeCount) != nil }
        return resolved.join(of: object, at: slot - slots.attributeCount - slots.toOnes.count) != nil
    }

    // MARK: Stale entries

    /// The ledger's objects the templates no longer hold: reported, deleted when owned by an object the templates
    /// still hold or when `prune` says so — unless the application changed them since — and dropped from the ledger
    /// when their row is gone.
    private mutating func settleStaleEntries() throws {
        var matched = Set(entries.lazy.filter { $0 >= 0 })
        matched.formUnion(plan.consumedEntries)
        let stale = ledger.entries.indices.filter { !matched.contains(Int32($0)) }
        guard !stale.isEmpty else { return }
        var reads: [Int: [Int64]] = [:]
        for index in stale {
            let entry = ledger.entries[index]
            reads[schema.entities[Int(entry.entity)].root, default: []].append(entry.rowID)
        }
        try read(reads)
        // What becomes of each row, by root: an owned entry follows its owner.
        enum Fate { case restated, kept, deleted }
        var fates: [String: [Int64: Fate]] = [:]
        for (index, object) in objects.enumerated() where plan.rowIDs[index] > 0 {
            fates[schema.roots[schema.entities[Int(object.entity)].root], default: [:]][plan.rowIDs[index]] = .restated
        }
        var staleRows: [String: Set<Int64>] = [:]
        for index in stale {
            let entry = ledger.entries[index]
            staleRows[schema.roots[schema.entities[Int(entry.entity)].root], default: []].insert(entry.rowID)
        }
        var removed: [String] = []
        // Owners before what they own, however deep: an entry waits while its owner's fate is undecided.
        var pending = stale
        while !pending.isEmpty {
            var waiting: [Int] = []
            for index in pending {
                let entry = ledger.entries[index]
                let slots = schema.entities[Int(entry.entity)]
                let root = schema.roots[slots.root]
                var ownerFate: Fate?
                if entry.key.kind == .owned, let owner = ownerRow(of: entry.key) {
                    ownerFate = fates[owner.root]?[owner.row]
                    if ownerFate == nil {
                        // An owner still to decide waits; one gone with the application's deletion takes its objects.
                        if staleRows[owner.root]?.contains(owner.row) == true {
                            waiting.append(index)
                            continue
                        }
                        // An owner neither read nor stale may be one of the files not read.
                        if carried != nil { throw ReadEveryFile() }
                        ownerFate = .deleted
                    }
                }
                guard let stored = storedRows[slots.root]?[entry.rowID] else {
                    fates[root, default: [:]][entry.rowID] = .deleted
                    if entry.key.kind != .owned { plan.losesNamedObjects = true }
                    continue
                }
                let changedByApplication = !storedHashes(stored, slots: slots).elementsEqual(ledger.hashes(of: entry))
                let deletes: Bool
                switch ownerFate {
                case .restated?:
                    // Its owner's statement no longer holds it.
                    deletes = !changedByApplication || options.force
                case .deleted?:
                    deletes = true
                case .kept?:
                    // It stays with its owner.
                    deletes = false
                case nil:
                    deletes = options.prune && (!changedByApplication || options.force)
                }
                fates[root, default: [:]][entry.rowID] = deletes ? .deleted : .kept
                if deletes {
                    if entry.key.kind != .owned { plan.losesNamedObjects = true }
                    plan.deletions.append((slots.root, entry.rowID))
                    plan.entityCounts[slots.ordinal].deleted += 1
                    continue
                }
                plan.ledger.append(entry, of: ledger)
                if ownerFate == .restated || (ownerFate == nil && options.prune) {
                    plan.entityCounts[slots.ordinal].kept += 1
                    plan.keptObjects.append(entry.key.display(in: schema.model))
                } else if ownerFate == nil {
                    removed.append(entry.key.display(in: schema.model))
                }
            }
            // Owners that own each other are a cycle no template states: what is left goes with them.
            if waiting.count == pending.count {
                for index in waiting {
                    let entry = ledger.entries[index]
                    fates[schema.roots[schema.entities[Int(entry.entity)].root], default: [:]][entry.rowID] = .kept
                    plan.ledger.append(entry, of: ledger)
                }
                break
            }
            pending = waiting
        }
        plan.removedFromTemplates = removed.sorted()
    }

    private func ownerRow(of key: SeedKey) -> (root: String, row: Int64)? {
        guard let row = key.text.split(separator: "/").first.flatMap({ Int64($0) }) else { return nil }
        return (key.root, row)
    }

    // MARK: Hashes

    /// What the templates give each slot, with the row ids settled so far.
    private var templates: TemplateSlots { TemplateSlots(objects: resolved, schema: schema, rowIDs: plan.rowIDs) }

    /// The hash of each slot of a stored row, laid out as `slots`.
    private mutating func storedHashes(_ row: StoredRow, slots: EntitySlots) -> [UInt64] {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(slots.slotCount)
        Self.appendHashes(of: row, slots: slots, model: schema.model, joins: storedJoins, hasher: &hasher, to: &hashes)
        return hashes
    }

    /// Appends the hash of each slot of a stored row, laid out as `slots`, to `hashes`.
    ///
    /// A row of the slots' own entity, the usual one, has its values where the slots are; a row of another kind is
    /// matched to them by name.
    private static func appendHashes(
        of row: StoredRow, slots: EntitySlots, model: EntityModel, joins: [String: [Int64: [Int64]]],
        hasher: inout SlotHasher, to hashes: inout [UInt64]
    ) {
        let stored = row.entity == slots.entity.name ? slots.entity : model.entity(named: row.entity)
        let isSlotsEntity = stored === slots.entity
        for attribute in 0..<slots.attributeCount {
            let index = isSlotsEntity ? attribute : stored?.attributeIndex(named: slots.entity.attributes[attribute].name)
            hashes.append(hasher.attribute(index.flatMap { row.values[$0] }))
        }
        for slot in slots.toOnes {
            let index = isSlotsEntity ? slot.relationship : stored?.relationshipIndex(named: slot.name)
            hashes.append(
                SlotHash.toOne(
                    rowID: index.flatMap { row.targets[$0] }, position: slot.isPositioned ? index.flatMap { row.positions[$0] } : nil))
        }
        for slot in slots.joins {
            hashes.append(SlotHash.join(joins[slot.table]?[row.rowID] ?? [], isOrdered: slot.isOrdered))
        }
    }

    /// The slot hashes of the stored row of each object `compared` selects, on all cores; none for the other objects.
    /// Indexed by object.
    private func storedHashesOfObjects(_ compared: [Bool]) -> ObjectHashes {
        // A first launch compares no row: no tasks to start, whose threads' allocations would stay in their arenas.
        guard compared.contains(true) else { return ObjectHashes() }
        let rowIDs = plan.rowIDs, objects = self.objects, schema = self.schema
        let storedRows = self.storedRows, storedJoins = self.storedJoins
        return ObjectHashes(count: objects.count) { index, hasher, hashes in
            guard compared[index] else { return }
            let slots = schema.entities[Int(objects[index].entity)]
            guard let row = storedRows[slots.root]?[rowIDs[index]] else { return }
            Self.appendHashes(of: row, slots: slots, model: schema.model, joins: storedJoins, hasher: &hasher, to: &hashes)
        }
    }

    /// Reads the rows not read yet, and the join lists their entities own; a row not found is gone, unless it was
    /// only looked for (`recordingGoneRows` false).
    private mutating func read(_ rows: [Int: [Int64]], recordingGoneRows: Bool = true) throws {
        guard let store else {
            if recordingGoneRows { for (root, rowIDs) in rows { goneRows[root, default: []].formUnion(rowIDs) } }
            return
        }
        for (root, rowIDs) in rows where !rowIDs.isEmpty {
            let found = try store.rows(root: schema.roots[root], rowIDs: rowIDs)
            for (rowID, row) in zip(rowIDs, found) {
                if let row {
                    storedRows[root, default: [:]][rowID] = row
                } else if recordingGoneRows {
                    goneRows[root, default: []].insert(rowID)
                }
            }
            var tables: [String: Bool] = [:]
            for slots in schema.entities where slots.root == root {
                for join in slots.joins { tables[join.table] = join.isOrdered }
            }
            for (table, isOrdered) in tables {
                for (source, members) in try store.joinMembers(table: table, sources: rowIDs, isOrdered: isOrdered) {
                    storedJoins[table, default: [:]][source] = members
                }
            }
        }
    }

    // MARK: Reports

    private func describe(_ index: Int) -> String {
        let object = objects[index]
        if let key = object.key, key.kind == .identity { return key.display(in: schema.model) }
        if object.owner >= 0 {
            let owner = objects[Int(object.owner)]
            let relationship = schema.entities[Int(owner.entity)].entity.relationships[Int(object.ownerRelationship)]
            return "\(describe(Int(object.owner))).\(relationship.name)" + (relationship.isToMany ? "[\(object.ownerPosition)]" : "")
        }
        let entity = schema.entities[Int(object.entity)].entity.name
        guard let key = object.key else { return entity }
        return key.kind == .id ? "\(entity)[$id=\(JSON.string(key.text).keyText)]" : "\(entity) at \(TerminalText.escaped(key.text))"
    }

    private mutating func conflict(_ index: Int, slot: Int, stored: StoredRow) -> SeedConflict {
        let object = objects[index]
        let slots = schema.entities[Int(object.entity)]
        let name = slots.name(ofSlot: slot)
        let template: String, store: String
        if slot < slots.attributeCount {
            template = templates.value(slot, of: index, slots: slots).map(\.displayText) ?? "null"
            let storedIndex = schema.model.entity(named: stored.entity)?.attributeIndex(named: name)
            store = storedIndex.flatMap { stored.values[$0] }.map(\.displayText) ?? "null"
        } else if slot < slots.attributeCount + slots.toOnes.count {
            let toOne = slot - slots.attributeCount
            template = resolved.toOne(of: index, at: toOne).flatMap { $0.target >= 0 ? describe(Int($0.target)) : nil } ?? "null"
            let relationship = schema.model.entity(named: stored.entity)?.relationshipIndex(named: name)
            store = relationship.flatMap { stored.targets[$0] }.map { "row \($0)" } ?? "null"
        } else {
            let join = slot - slots.attributeCount - slots.toOnes.count
            template = "[" + (resolved.join(of: index, at: join) ?? []).map { describe(Int($0)) }.joined(separator: ", ") + "]"
            store = "[" + (storedJoins[slots.joins[join].table]?[stored.rowID] ?? []).map { "row \($0)" }.joined(separator: ", ") + "]"
        }
        return SeedConflict(object: describe(index), property: name, templateValue: template, storeValue: store)
    }
}

/// What the plan stage decided: per object its row and action, what to delete, and the ledger to write.
struct SeedPlan {
    enum Action: UInt8 {
        case insert, update, unchanged, kept
        /// Data the store had before seeding, which the templates meet (decided into update or unchanged).
        case merge
    }

    /// Per object: its row id, or -1 for an object that will have none (deleted by the application, kept so).
    var rowIDs: [Int64]
    var actions: [Action]
    /// The slots to write of updated objects.
    var written: [Int32: [Int]] = [:]
    /// Updated objects whose entity changes (to a subentity or back).
    var entityChanges: Set<Int> = []
    var deletions: [(root: Int, rowID: Int64)] = []
    /// The ledger's objects after the run, but the inserted ones (``insertions``).
    var ledger = SeedLedger()
    /// The inserted objects, whose ledger entries are the templates' hashes, made while the ledger is packed
    /// (``SeedLedger/sections(schema:adding:templates:)``).
    var insertions = SeedLedger.Insertions()
    /// The report's counts by entity ordinal, as ``counts`` names them.
    var entityCounts: [SeedReport.Counts]
    private let entityNames: [String]
    var conflicts: [SeedConflict] = []
    var keptObjects: [String] = []
    var removedFromTemplates: [String] = []
    /// Ledger entries whose object the templates hold under another row: not stale.
    var consumedEntries: Set<Int32> = []
    var deletedByApplication: Set<Int> = []
    /// Objects whose ledger entry differs from what the templates state (kept, in conflict, or data the store had):
    /// a later run must read their files again to decide them again.
    var unsettled: Set<Int> = []
    /// Objects the files read only name that a file not read bears on: left as they are, in no origins of the files
    /// read (``SeedLedger/Carried``).
    var carried: Set<Int> = []
    /// Whether the plan deletes, or finds gone, an object of the ledger that a key names (an identity, `"$id"`):
    /// files the run did not read may name it.
    var losesNamedObjects = false

    init(objectCount: Int, entityNames: [String]) {
        self.entityNames = entityNames
        entityCounts = Array(repeating: SeedReport.Counts(), count: entityNames.count)
        rowIDs = Array(repeating: 0, count: objectCount)
        actions = Array(repeating: .insert, count: objectCount)
    }

    /// The report's counts by entity name, of the entities the plan counts anything of.
    var counts: [String: SeedReport.Counts] {
        var counts: [String: SeedReport.Counts] = [:]
        for (name, count) in zip(entityNames, entityCounts) where count != SeedReport.Counts() { counts[name] = count }
        return counts
    }

    /// An object's ledger key once decided: its own, or for an owned object one naming its owner's row
    /// (``SeedLedger/Insertions/ownedKeys``).
    func key(of object: Int, in objects: SeedObjects) -> SeedKey? {
        insertions.ownedKeys.key(of: object, in: objects.objects)
    }

    /// Whether the plan writes any row.
    var writesRows: Bool {
        actions.contains(.insert) || !written.isEmpty || !deletions.isEmpty
    }
}

/// What the templates give each slot of an object, once row ids are settled: the rules the plan hashes and the
/// writer writes by.
///
///     let templates = TemplateSlots(objects: objects, schema: schema, rowIDs: plan.rowIDs)
///     templates.value(0, of: 3, slots: slots)         // the stated value, else the attribute's default
struct TemplateSlots: Sendable {
    let objects: SeedObjects
    let schema: SeedSchema
    /// Per object: its row id, or -1 for an object that will have none.
    let rowIDs: [Int64]

    /// The value the templates give an attribute: the stated one, else its default.
    func value(_ attribute: Int, of object: Int, slots: EntitySlots) -> AttributeValue? {
        objects.objects[object].stated.contains(attribute) ? objects.value(of: object, at: attribute) : slots.entity.attributes[attribute].defaultValue
    }

    /// The row a to-one names and the place in its ordered list; nil for none, or a target that will have no row.
    func target(_ slot: Int, of object: Int, slots: EntitySlots) -> (Int64?, Int64?) {
        guard let fact = objects.toOne(of: object, at: slot), fact.target >= 0, rowIDs[Int(fact.target)] > 0 else { return (nil, nil) }
        return (rowIDs[Int(fact.target)], slots.toOnes[slot].isPositioned ? Int64(max(fact.position, 0)) : nil)
    }

    /// The rows of a join list's members that will have one.
    func members(_ slot: Int, of object: Int) -> [Int64] {
        (objects.join(of: object, at: slot) ?? []).compactMap { member in rowIDs[Int(member)] > 0 ? rowIDs[Int(member)] : nil }
    }

    /// Calls `body` with the hash of each slot of an object as the templates would write it, in slot order; the
    /// attributes' taken from `attributeHashes` where it holds the object's.
    func forEachHash(
        of object: Int, hasher: inout SlotHasher, attributeHashes: ObjectHashes? = nil, _ body: (UInt64) -> Void
    ) {
        let slots = schema.entities[Int(objects.objects[object].entity)]
        // An object not hashed ahead has none there (and one without attributes needs none).
        if let attributeHashes, attributeHashes[object].count == slots.attributeCount {
            for hash in attributeHashes[object] { body(hash) }
        } else {
            for attribute in 0..<slots.attributeCount { body(hasher.attribute(value(attribute, of: object, slots: slots))) }
        }
        for slot in slots.toOnes.indices {
            let (target, position) = target(slot, of: object, slots: slots)
            body(SlotHash.toOne(rowID: target, position: position))
        }
        for slot in slots.joins.indices {
            let members = objects.join(of: object, at: slot)
            body(hasher.join(members, rowIDs: rowIDs, isOrdered: slots.joins[slot].isOrdered))
        }
    }

    /// The slot hashes of the objects `included` selects (none for the others), on all cores; indexed by object.
    /// The attributes' are taken from `attributeHashes` where it holds them.
    func hashes(hashing attributeHashes: ObjectHashes? = nil, of included: @Sendable (Int) -> Bool) -> ObjectHashes {
        ObjectHashes(count: objects.objects.count) { object, hasher, hashes in
            if included(object) {
                forEachHash(of: object, hasher: &hasher, attributeHashes: attributeHashes) { hashes.append($0) }
            }
        }
    }

    /// The hashes of the attributes of the objects `selected` marks (indexed by object; none for the others), which
    /// depend on no row id, on this thread alone: made while another does other work.
    func attributeHashes(of selected: [Bool]) -> ObjectHashes {
        var hasher = SlotHasher()
        var hashes = ObjectHashes()
        hashes.starts.reserveCapacity(selected.count + 1)
        for object in selected.indices {
            hashes.starts.append(Int32(hashes.hashes.count))
            guard selected[object] else { continue }
            let slots = schema.entities[Int(objects.objects[object].entity)]
            for attribute in 0..<slots.attributeCount {
                hashes.hashes.append(hasher.attribute(value(attribute, of: object, slots: slots)))
            }
        }
        hashes.starts.append(Int32(hashes.hashes.count))
        return hashes
    }
}

/// The slot hashes of many objects in one array: each object's from its start to the next object's.
struct ObjectHashes: Sendable {
    var hashes: [UInt64] = []
    /// Per object, where its hashes start; one more at the end.
    var starts: [Int32] = []

    init() {}

    /// The hashes `append` gives each of `count` objects (by position), made on all cores, a few thousand objects a
    /// task, each task with its own hasher.
    ///
    /// - Complexity: O(*n*) calls of `append`, spread over the cores.
    init(count: Int, _ append: @Sendable (Int, inout SlotHasher, inout [UInt64]) -> Void) {
        let chunk = 2048
        let parts = Locked([ObjectHashes](repeating: ObjectHashes(), count: (count + chunk - 1) / chunk))
        DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { part in
            var hasher = SlotHasher()
            var hashes = ObjectHashes()
            for position in part * chunk..<min(count, (part + 1) * chunk) {
                hashes.starts.append(Int32(hashes.hashes.count))
                append(position, &hasher, &hashes.hashes)
            }
            parts.withLock { $0[part] = hashes }
        }
        starts.reserveCapacity(count + 1)
        for part in parts.withLock({ $0 }) {
            let offset = Int32(hashes.count)
            starts += part.starts.map { $0 + offset }
            hashes += part.hashes
        }
        starts.append(Int32(hashes.count))
    }

    subscript(object: Int) -> ArraySlice<UInt64> { hashes[Int(starts[object])..<Int(starts[object + 1])] }
}
