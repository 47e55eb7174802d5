import SeedKitModel
import SeedKitObjects

/// Names template objects by the keys the ledger records them under.
///
///     var keys = SeedKeys(model: model)
///     keys.key(of: ann)               // Employee["ann@example.com"]
///     keys.key(of: annHome)           // Employee["ann@example.com"]/addresses/0
///     keys.key(of: note)              // Note#2
///
/// An object with identity is named by its root entity and identity values; an object without identity that an
/// owner holds, by the owner's key, the relationship and its position there; any other object, by its entity and
/// its order among that entity's unnamed objects — so the objects must be named in the templates' order.
///
/// - Complexity: O(1) per object once its owner is named, plus the owner's list to find its position.
struct SeedKeys {
    private var keys: [ObjectIdentifier: String] = [:]
    private var ordinals: [String: Int] = [:]
    private var text: SeedValueText

    init(model: EntityModel) {
        text = SeedValueText(model: model)
    }

    /// The object's key, named once and then remembered.
    mutating func key(of object: ManagedObject) -> String {
        if let key = keys[ObjectIdentifier(object)] { return key }
        let key: String
        if let identity = object.identityValues {
            key = text.identityKey(object.entity, identity)
        } else if let (owner, index) = Self.owner(of: object) {
            let position = owner.objects(at: index).firstIndex { $0 === object } ?? 0
            key = "\(self.key(of: owner))/\(owner.entity.relationships[index].name)/\(position)"
        } else {
            ordinals[object.entity.name, default: 0] += 1
            key = "\(object.entity.name)#\(ordinals[object.entity.name]!)"
        }
        keys[ObjectIdentifier(object)] = key
        return key
    }

    /// The key of an object with these identity values.
    mutating func identityKey(_ entity: Entity, _ identity: [AttributeValue]) -> String {
        text.identityKey(entity, identity)
    }

    /// The object holding `object` through an owning to-many, and that relationship's index in the owner.
    static func owner(of object: ManagedObject) -> (ManagedObject, Int)? {
        for (index, relationship) in object.entity.relationships.enumerated() where !relationship.isToMany {
            guard let owner = object.object(at: index), let inverse = relationship.inverse,
                let ownerIndex = owner.entity.relationshipIndex(named: inverse),
                owner.entity.relationships[ownerIndex].owns
            else { continue }
            return (owner, ownerIndex)
        }
        return nil
    }
}
