import SeedKitSupport
import SeedKitJSON
import SeedKitModel

/// Keys and names the objects of an export by entity and identity, the way a diff matches them.
///
/// - An object whose entity has identity, with every identity value present: its root entity and identity values,
///   shown as `Employee[email=ann@example.com]`. A subentity shares its root's key and name, so an employee promoted
///   to manager is the same object with a changed class.
/// - Else an object with `$id`: that id, shown as `Address[$id=Address-1]`.
/// - Else, at the top level only, its content, shown as `Note@` and a hash: a change is a removal and an addition, and
///   equal copies are counted (see ``ExportDocument``).
struct ObjectKeyer: Sendable {
    let model: EntityModel

    /// The key of a top-level object.
    ///
    /// - Throws: ``ExportError`` (pointer relative to the object) for a missing or unknown class.
    func key(ofTopLevel object: JSON) throws(ExportError) -> String {
        let entity = try self.entity(of: object, pointer: .root, default: nil)
        if let key = key(of: object, entity: entity) { return key }
        return "#" + object.text(style: .canonical)
    }

    /// The key of an object with identity or `$id`; nil for others. `identityKeys` are the keys the object writes its
    /// identity values at: the identity's names in an export.
    func key(of object: JSON, entity: Entity, identityKeys: [String]? = nil) -> String? {
        if let values = identityValues(of: object, keys: identityKeys ?? entity.identity) {
            var key = entity.rootName + "["
            for (index, value) in values.enumerated() {
                if index > 0 { key += "," }
                key += value.text(style: .canonical)
            }
            return key + "]"
        }
        if case .string(let id)? = object["$id"] { return "$" + id }
        return nil
    }

    /// Whether a key is an identity key (`Employee[…]`), rather than an `"$id"`'s or a top-level object's content.
    static func isIdentityKey(_ key: String) -> Bool { !key.hasPrefix("$") && !key.hasPrefix("#") }

    /// How a diff shows an object: `Employee[email=ann@example.com]`, `Address[$id=Address-1]`, `Note@1f2e3d4c`.
    func display(of object: JSON, entity: Entity) -> String {
        if let key = key(of: object, entity: entity), let display = display(ofKey: key) { return display }
        if case .string(let id)? = object["$id"] { return ObjectKeySpelling.text(entity: entity.name, id: id) }
        return "\(entity.name)@" + StableHash.hex(of: object.serialized(style: .canonical)).prefix(8)
    }

    /// How a diff shows the object of an identity key, `Employee[email=ann@example.com]`, from the key alone;
    /// nil for other keys.
    func display(ofKey key: String) -> String? {
        guard let open = key.firstIndex(of: "["), key.last == "]", let root = model.entity(named: String(key[..<open])),
            case .array(let values)? = try? JSONDocument(parsing: String(key[open...])).value, values.count == root.identity.count
        else { return nil }
        return ObjectKeySpelling.text(entity: root.name, identity: root.identity, values: values)
    }

    /// The entity an object names with `"class"`, or `fallback` when it has none.
    ///
    /// - Throws: ``ExportError`` at `pointer/class` for a class the model lacks or one that is not a string.
    func entity(of object: JSON, pointer: JSONPointer, default fallback: Entity?) throws(ExportError) -> Entity {
        guard case .object(let members) = object else {
            throw ExportError("expected an object with a \"class\"", pointer: pointer)
        }
        guard let classValue = members["class"] else {
            if let fallback { return fallback }
            throw ExportError("missing \"class\"; the model has \(model.entityNames.joined(separator: ", "))", pointer: pointer)
        }
        guard case .string(let name) = classValue, let entity = model.entity(named: name) else {
            let name = classValue.stringValue ?? classValue.text(style: .canonical)
            throw ExportError(
                "unknown class '\(name)'\(Suggestion.didYouMean(name, among: model.entityNames)); "
                    + "the model has \(model.entityNames.joined(separator: ", "))",
                pointer: pointer.appending("class"))
        }
        return entity
    }

    private func identityValues(of object: JSON, keys: [String]) -> [JSON]? {
        guard !keys.isEmpty else { return nil }
        var values: [JSON] = []
        for name in keys {
            guard let value = object[name], value != .null else { return nil }
            values.append(value)
        }
        return values
    }

    /// A value as a key shows it (``JSON/keyText``).
    static func plainText(_ value: JSON) -> String { value.keyText }
}
