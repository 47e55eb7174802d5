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
    /// The hash of a to-one's target row id (nil for none) and its place in the target's ordered list.
    static func toOne(rowID: Int64?, position: Int64?) -> UInt64 {
        var bytes: [UInt8] = [rowID == nil ? 0 : 1, position == nil ? 0 : 1]
        for word in [rowID ?? 0, position ?? 0] {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> Int64(shift))) }
        }
        return StableHash.value(of: bytes)
    }

    /// The hash of a join list's members' row ids: in order when the list is ordered, sorted when not.
    static func join(_ rowIDs: [Int64], isOrdered: Bool) -> UInt64 {
        let members = isOrdered ? rowIDs : rowIDs.sorted()
        var bytes: [UInt8] = [isOrdered ? 1 : 0]
        bytes.reserveCapacity(1 + 8 * members.count)
        for word in members {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> Int64(shift))) }
        }
        return StableHash.value(of: bytes)
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

/// Hashes attribute values, reusing one buffer for their texts.
struct SlotHasher {
    private var text = CanonicalValueText()

    /// The hash of the value's canonical JSON text; of `null` for none.
    mutating func attribute(_ value: AttributeValue?) -> UInt64 {
        text.bytes.removeAll(keepingCapacity: true)
        if let value { text.append(value) } else { text.bytes.append(contentsOf: "null".utf8) }
        return StableHash.value(of: text.bytes)
    }
}
