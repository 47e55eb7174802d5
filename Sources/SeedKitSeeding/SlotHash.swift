import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The hash of a slot's value, as the ledger records what was written and the plan compares the template's, the
/// ledger's and the store's: the 64-bit FNV-1a hash (``StableHash``) of the value's canonical form.
///
///     var hasher = SlotHasher()
///     hasher.attribute(.string("Ann"))                  // of the canonical JSON text "\"Ann\""
///     SlotHash.toOne(rowID: 7, position: nil)            // of the row id the column holds
///
/// An attribute hashes its canonical JSON text (one text per value: `1.50` and `1.5` of a decimal hash alike), a
/// to-one the row id it holds and its place in an ordered list, a join list its members' row ids, in order when the
/// list is ordered and sorted when not. What is hashed is what the store holds, so a stored row hashes as the
/// template that would write it.
enum SlotHash {
    /// The hash of a to-one's target row id (nil for none) and its place in the target's ordered list: of the bytes
    /// 1 or 0 for each present, then each (0 when absent) as eight bytes, the lowest first.
    static func toOne(rowID: Int64?, position: Int64?) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(rowID == nil ? 0 : 1)
        hasher.combine(position == nil ? 0 : 1)
        hasher.combine(littleEndian: UInt64(bitPattern: rowID ?? 0))
        hasher.combine(littleEndian: UInt64(bitPattern: position ?? 0))
        return hasher.value
    }

    /// The hash of a join list's members' row ids: in order when the list is ordered, sorted when not; of the byte 1
    /// or 0 for ordered, then each row id as eight bytes, the lowest first.
    static func join(_ rowIDs: [Int64], isOrdered: Bool) -> UInt64 {
        join(inHashOrder: isOrdered || rowIDs.count < 2 ? rowIDs : rowIDs.sorted(), isOrdered: isOrdered)
    }

    /// ``join(_:isOrdered:)`` of row ids already in the order hashed: as listed when ordered, sorted when not.
    static func join(inHashOrder rowIDs: [Int64], isOrdered: Bool) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(isOrdered ? 1 : 0)
        for word in rowIDs { hasher.combine(littleEndian: UInt64(bitPattern: word)) }
        return hasher.value
    }

    /// The hash of what a migration leaves in a slot the model gained: the attribute's default or null, no target,
    /// no members.
    static func migrated(slot: Int, of slots: EntitySlots) -> UInt64 {
        if slot < slots.attributeCount {
            var hasher = SlotHasher()
            return hasher.attribute(slots.entity.attributes[slot].defaultValue)
        }
        if slot < slots.attributeCount + slots.toOnes.count { return toOne(rowID: nil, position: nil) }
        return join([], isOrdered: slots.joins[slot - slots.attributeCount - slots.toOnes.count].isOrdered)
    }
}

/// Hashes slot values, reusing one buffer for attributes' texts and one for join lists' members.
struct SlotHasher {
    private var text = CanonicalValueText()
    /// The row ids of the join list being hashed.
    private var members: [Int64] = []

    /// The hash of the value's canonical JSON text; of `null` for none.
    mutating func attribute(_ value: AttributeValue?) -> UInt64 {
        text.bytes.removeAll(keepingCapacity: true)
        if let value { text.append(value) } else { text.bytes.append(contentsOf: "null".utf8) }
        return StableHash.value(of: text.bytes)
    }

    /// The hash of a join list whose members are the objects `members` lists, by the row ids they will have:
    /// those without one (-1 or 0) are not members.
    mutating func join(_ members: [Int32]?, rowIDs: [Int64], isOrdered: Bool) -> UInt64 {
        self.members.removeAll(keepingCapacity: true)
        for member in members ?? [] where rowIDs[Int(member)] > 0 { self.members.append(rowIDs[Int(member)]) }
        if !isOrdered { self.members.sort() }
        return SlotHash.join(inHashOrder: self.members, isOrdered: isOrdered)
    }
}
