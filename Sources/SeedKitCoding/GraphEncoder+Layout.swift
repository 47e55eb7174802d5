import SeedKitModel
import SeedKitObjects

// What one export works out once and reuses for every object: per-entity keys, templates and inverses, and a
// table of the objects met. All of it belongs to the call; nothing is stored on the objects.

/// What an export needs to know about one entity, worked out the first time the export meets an object of it.
///
/// The properties of an object are numbered in slots: 0 for `"$id"`, 1 + *a* for attribute *a*, 1 + *A* + *r* for
/// relationship *r* of an entity with *A* attributes. Which slots an object writes is its *presence* bit mask.
final class ExportLayout<Output: GraphOutput> {
    /// A relationship as the walk reads it, without copying the description's strings for each object.
    struct Link {
        /// The relationship's key in the entity's key style.
        let key: String
        let isOrdered: Bool
        let owns: Bool
        let inverse: String?
        /// Whether a reference to a member is its identity value (``RelationshipDescription/isByIdentity``).
        let isByIdentity: Bool
    }

    let entity: Entity
    /// The number of the entity's root entity among the roots of this export: objects of one root entity have
    /// distinct object numbers within a context.
    let rootSlot: Int
    let classValue: Output.Value
    /// The attributes' keys in the entity's key style.
    let attributeKeys: [String]
    /// Each attribute's date format; nil when every one is ISO 8601, as for most entities.
    let dateFormats: [AttributeDescription.DateFormat]?
    let identityIndices: [Int]
    let links: [Link]
    /// Whether every slot fits in a presence mask; wider entities are written key by key.
    let usesTemplates: Bool
    private var templates: [ObjectTemplate<Output.Value>] = []
    /// Per link, the last member entity its inverse was looked up in, and the answer.
    private var inverseEntities: [ObjectIdentifier?]
    private var inverseIndices: [Int?]

    /// Objects of one entity rarely write more than a few different sets of keys; past this many, the others are
    /// written key by key rather than each getting a template.
    private static var templateLimit: Int { 16 }

    init(entity: Entity, rootSlot: Int) {
        self.entity = entity
        self.rootSlot = rootSlot
        classValue = Output.string(entity.name)
        attributeKeys = entity.attributeKeys
        dateFormats = entity.attributes.contains { $0.dateFormat != .iso8601 } ? entity.attributes.map { $0.dateFormat } : nil
        identityIndices = entity.identityIndices
        links = zip(entity.relationships, entity.relationshipKeys).map { relationship, key in
            Link(
                key: key, isOrdered: relationship.isOrdered, owns: relationship.owns, inverse: relationship.inverse,
                isByIdentity: relationship.isByIdentity)
        }
        usesTemplates = 1 + entity.attributes.count + entity.relationships.count <= UInt64.bitWidth
        inverseEntities = Array(repeating: nil, count: links.count)
        inverseIndices = Array(repeating: nil, count: links.count)
    }

    var slotCount: Int { 1 + attributeKeys.count + links.count }

    func attributeSlot(_ index: Int) -> Int { 1 + index }
    func linkSlot(_ index: Int) -> Int { 1 + attributeKeys.count + index }

    /// The key a slot writes.
    func key(ofSlot slot: Int) -> String {
        if slot == 0 { return "$id" }
        if slot <= attributeKeys.count { return attributeKeys[slot - 1] }
        return links[slot - 1 - attributeKeys.count].key
    }

    /// The output of the value of attribute `index`: a date in the attribute's date format.
    @inline(__always)
    func output(_ value: AttributeValue, ofAttribute index: Int) -> Output.Value {
        if let dateFormats, dateFormats[index] != .iso8601 { return Output.json(value.json(dateFormat: dateFormats[index])) }
        return Output.attribute(value)
    }

    /// Whether a stub can name the object with these attribute values: its entity has identity and every identity
    /// attribute has a value.
    func hasIdentity(_ attributeValues: AttributeValues) -> Bool {
        guard !identityIndices.isEmpty else { return false }
        for index in identityIndices {
            guard case .some = attributeValues[index] else { return false }
        }
        return true
    }

    /// The presence of the identity stub's slots.
    var identityPresence: UInt64 {
        var presence: UInt64 = 0
        for index in identityIndices { presence |= 1 << UInt64(attributeSlot(index)) }
        return presence
    }

    /// The members of a new object with `"class"` set and the slots of `presence` ready to be set.
    ///
    /// - Complexity: O(*k*) for *k* templates of the entity, then a copy of the template's storage.
    func builder(presence: UInt64) -> MembersBuilder<Output.Value> {
        guard usesTemplates else { return MembersBuilder(capacity: slotCount + 1, classValue: classValue) }
        for index in templates.indices where templates[index].presence == presence {
            return MembersBuilder(template: templates[index])
        }
        guard templates.count < Self.templateLimit else {
            return MembersBuilder(capacity: presence.nonzeroBitCount + 1, classValue: classValue)
        }
        let template = makeTemplate(presence: presence)
        templates.append(template)
        return MembersBuilder(template: template)
    }

    private func makeTemplate(presence: UInt64) -> ObjectTemplate<Output.Value> {
        // Exactly the capacity the keys need, which every copy inherits.
        var members = [String: Output.Value](minimumCapacity: presence.nonzeroBitCount + 1)
        members["class"] = classValue
        var remaining = presence
        while remaining != 0 {
            members[key(ofSlot: remaining.trailingZeroBitCount)] = Output.placeholder
            remaining &= remaining - 1
        }
        let positions = (0..<slotCount).map { slot in
            presence & (1 << UInt64(slot)) != 0 ? members.index(forKey: key(ofSlot: slot))! : members.startIndex
        }
        return ObjectTemplate(presence: presence, members: members, positions: positions)
    }

    /// The index, in `member`'s entity, of the relationship that points back along link `index`.
    ///
    /// - Complexity: O(1) when the member's entity is the one asked about last for this link.
    func inverseIndex(ofLink index: Int, in member: Entity) -> Int? {
        let memberID = ObjectIdentifier(member)
        if inverseEntities[index] == memberID { return inverseIndices[index] }
        let inverse = links[index].inverse.flatMap { member.relationshipIndex(named: $0) }
        inverseEntities[index] = memberID
        inverseIndices[index] = inverse
        return inverse
    }
}

/// The layouts of the entities one export meets, each worked out on first use.
final class ExportLayouts<Output: GraphOutput> {
    private var layouts: [ExportLayout<Output>] = []
    /// The index in `layouts` of each entity's layout.
    private var indices = IdentityTable()
    private var rootSlots: [String: Int] = [:]

    /// - Complexity: O(1) on average.
    func layout(for entity: Entity) -> ExportLayout<Output> {
        if let index = indices.value(for: entity) { return layouts[index] }
        let rootSlot = rootSlots[entity.rootName, default: rootSlots.count]
        rootSlots[entity.rootName] = rootSlot
        let layout = ExportLayout<Output>(entity: entity, rootSlot: rootSlot)
        _ = indices.insert(layouts.count, for: entity)
        layouts.append(layout)
        return layout
    }
}

/// The objects a one-pass export has met, for the duration of the call, found by their object number.
///
/// Within a context, the objects of one root entity have distinct numbers, and a graph created or fetched together
/// has them dense: an array indexed by number holds each object's address in a few bytes per object, and a walk
/// meets numbers close together, so it stays in cache. Nothing is stored on the objects. Numbers are not unique
/// across contexts, and may be negative or sparse, so an object whose number is out of range, or already claimed by
/// another object, is kept in an ``IdentityTable`` instead.
struct FirstMeetings {
    /// Per root entity (see ``ExportLayout/rootSlot``), the address of the object that claimed each number; 0 for none.
    private var claims: [[UInt]] = []
    /// Per root entity, the objects met so far: the array indexed by number grows to a few times this many entries.
    private var counts: [Int] = []
    private var others = IdentityTable()
    /// Per root entity, whether `others` holds any of its objects: when not, an empty claim needs no lookup there.
    private var hasOthers: [Bool] = []

    /// Records `object`, whose root entity has slot `root`; returns whether it had been met before.
    ///
    /// - Complexity: O(1) amortized.
    mutating func insert(_ object: ManagedObject, root: Int) -> Bool {
        while claims.count <= root {
            claims.append([])
            counts.append(0)
            hasOthers.append(false)
        }
        counts[root] += 1
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let number = object.objectID.number
        // The range grows with the objects met, so an object kept in `others` may later fall in range: an empty
        // claim is confirmed there before it is taken.
        if number > 0, number < 4 * counts[root] + 4096 {
            let index = Int(number)
            if index >= claims[root].count {
                claims[root].append(contentsOf: repeatElement(0, count: max(index + 1, 2 * claims[root].count) - claims[root].count))
            }
            let claim = claims[root][index]
            if claim == address { return true }
            if claim == 0, !hasOthers[root] || others.value(for: object) == nil {
                claims[root][index] = address
                return false
            }
        }
        hasOthers[root] = true
        return others.insert(0, for: object) != nil
    }
}

/// Small integers keyed by object identity, for the duration of one export.
///
/// Open addressing on the object's address: every object in the table is kept alive by the graph being exported, so
/// addresses are stable and unique for the call. The hash keeps neighbours together: objects allocated near each
/// other, as a graph created or fetched in order is, land in nearby entries, so a walk over such a graph stays in
/// cache where a uniform hash would miss on nearly every object.
struct IdentityTable {
    private struct Entry {
        /// The object's address; 0 for an empty entry.
        var key: UInt
        var value: Int
    }

    private var entries: [Entry]
    private var count = 0
    /// The base-2 logarithm of the capacity.
    private var bits: Int

    init(minimumCapacity: Int = 0) {
        var capacity = 16
        while capacity < minimumCapacity * 2 { capacity *= 2 }
        entries = Array(repeating: Entry(key: 0, value: 0), count: capacity)
        bits = capacity.trailingZeroBitCount
    }

    @inline(__always)
    private func home(of key: UInt) -> Int {
        // Objects are 16-byte aligned. Folding in the bits above the capacity's spreads objects whose addresses
        // differ by a multiple of it, which would otherwise share a run of entries.
        let granule = key >> 4
        return Int(truncatingIfNeeded: granule ^ (granule >> bits) ^ (granule >> (2 * bits))) & (entries.count - 1)
    }

    /// The value stored for `object`.
    ///
    /// - Complexity: O(1) on average.
    func value(for object: AnyObject) -> Int? {
        let key = UInt(bitPattern: ObjectIdentifier(object))
        let mask = entries.count - 1
        var index = home(of: key)
        while true {
            let entry = entries[index]
            if entry.key == key { return entry.value }
            if entry.key == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Stores `value` for `object` unless it has a value already; returns that earlier value, or nil after storing.
    ///
    /// - Complexity: O(1) amortized.
    mutating func insert(_ value: Int, for object: AnyObject) -> Int? {
        if (count + 1) * 2 > entries.count { grow() }
        let key = UInt(bitPattern: ObjectIdentifier(object))
        let mask = entries.count - 1
        var index = home(of: key)
        while true {
            let existing = entries[index].key
            if existing == key { return entries[index].value }
            if existing == 0 { break }
            index = (index + 1) & mask
        }
        entries[index] = Entry(key: key, value: value)
        count += 1
        return nil
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: Entry(key: 0, value: 0), count: old.count * 2)
        bits += 1
        let mask = entries.count - 1
        for entry in old where entry.key != 0 {
            var index = home(of: entry.key)
            while entries[index].key != 0 { index = (index + 1) & mask }
            entries[index] = entry
        }
    }
}
