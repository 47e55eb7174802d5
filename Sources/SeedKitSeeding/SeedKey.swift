import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The name a template object goes by in every stage of seeding and in the ledger: its root entity and identity
/// values, else its `"$id"`, else where its statement is; compared as exact bytes, never Unicode-normalized.
///
///     let key = SeedKey(identityOf: employee, values: [.string("ann@example.com")])
///     key.text                       // ann@example.com
///     key.display(in: model)         // Employee[email=ann@example.com]
///
/// The text of an identity key is the value itself for a single string identity, else the canonical JSON of the
/// values (an array for several): one text per value, whatever spelling the template used (`1.50` and `1.5` of a
/// decimal are one key). Objects of a root entity and its subentities share the root's keys.
///
/// - Complexity: O(*n*) in the length of the text to make, compare or hash; the hash is taken once.
struct SeedKey: Hashable, Sendable {
    enum Kind: UInt8, Sendable {
        /// The root entity and identity values.
        case identity = 1
        /// A `"$id"`, unique across the set whatever the entity.
        case id = 2
        /// The file and JSON Pointer of an object that has neither.
        case location = 3
        /// Where an owner holds an object without identity: the owner's root entity, and its row id, relationship and
        /// place there.
        case owned = 4
    }

    /// The root entity's name for an identity key; empty for the others.
    let root: String
    let text: String
    private let hash: Int
    /// After the 8-byte fields: a key takes 41 bytes, and what holds one can lay a smaller field in the rest of 48.
    let kind: Kind

    init(kind: Kind, root: String, text: String) {
        self.kind = kind
        self.root = root
        self.text = text
        var hasher = Hasher()
        hasher.combine(kind.rawValue)
        root.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(0xff as UInt8)
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hash = hasher.finalize()
    }

    /// The key of an object without identity that an owner holds.
    init(ownedBy ownerRoot: String, row: Int64, relationship: String, position: Int32) {
        // `row/relationship/position`, written as bytes: one is made per owned object.
        var text: [UInt8] = []
        text.reserveCapacity(relationship.utf8.count + 24)
        NumberText.appendInteger(row, to: &text)
        text.append(UInt8(ascii: "/"))
        text.append(contentsOf: relationship.utf8)
        text.append(UInt8(ascii: "/"))
        NumberText.appendInteger(Int64(position), to: &text)
        self.init(kind: .owned, root: ownerRoot, text: String(decoding: text, as: UTF8.self))
    }

    /// The key of an object of `entity` with these identity values, in identity order.
    init(identityOf entity: Entity, values: [AttributeValue]) {
        self.init(kind: .identity, root: entity.rootName, text: Self.identityText(values))
    }

    /// The key of an object of `entity`, whose identity is one attribute, with that attribute's value: the key
    /// ``init(identityOf:values:)`` makes of the one value, without an array made for it.
    init(identityOf entity: Entity, value: AttributeValue) {
        self.init(kind: .identity, root: entity.rootName, text: Self.identityText(value))
    }

    /// The text of identity values: a single string as it is, else canonical JSON (an array for several values).
    static func identityText(_ values: [AttributeValue]) -> String {
        if values.count == 1 { return identityText(values[0]) }
        var text = CanonicalValueText()
        text.bytes.append(UInt8(ascii: "["))
        for (position, value) in values.enumerated() {
            if position > 0 { text.bytes.append(UInt8(ascii: ",")) }
            text.append(value)
        }
        text.bytes.append(UInt8(ascii: "]"))
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// The text of one identity value: a string as it is, else its canonical JSON.
    static func identityText(_ value: AttributeValue) -> String {
        if case .string(let text) = value { return text }
        var text = CanonicalValueText()
        text.append(value)
        return String(decoding: text.bytes, as: UTF8.self)
    }

    static func == (lhs: SeedKey, rhs: SeedKey) -> Bool {
        lhs.hash == rhs.hash && lhs.kind == rhs.kind && lhs.root.hasSameBytes(as: rhs.root)
            && lhs.text.hasSameBytes(as: rhs.text)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The hash taken when the key was made, for a table that places keys itself (``ElementIndex``).
    var storedHash: Int { hash }

    /// The key's place in a table: its hash, taken once with a per-process seed, mixed with the table's seed,
    /// rather than hashed again each time a table looks the key up or grows.
    func _rawHashValue(seed: Int) -> Int { hash ^ seed }

    /// The spelling reports and errors use: `Employee[email=ann@example.com]`, `Address[$id=home]`, or the place.
    func display(in model: EntityModel) -> String {
        switch kind {
        case .identity:
            guard let root = model.entity(named: root) else { return "\(self.root)[\(text)]" }
            return SeedKey.display(root, values: identityValues(of: root))
        case .id:
            return "[$id=\(JSON.string(text).keyText)]"
        case .location:
            return text
        case .owned:
            // Row, relationship, place: shown by what holds it.
            let parts = text.split(separator: "/", maxSplits: 2)
            guard parts.count == 3 else { return "\(root)#\(text)" }
            return "\(root)#\(parts[0]).\(parts[1])[\(parts[2])]"
        }
    }

    /// `Entity[a=1,b=x]`, the values of the entity's identity attributes in order.
    static func display(_ entity: Entity, values: [AttributeValue]) -> String {
        let pairs = zip(entity.identity, values).map { "\($0)=\($1.displayText)" }
        return "\(entity.rootName)[\(pairs.joined(separator: ","))]"
    }

    /// The identity values an identity key's text was made from, for an entity of the key's root.
    func identityValues(of entity: Entity) -> [AttributeValue] {
        let types = entity.identityIndices.map { entity.attributes[$0].type }
        if types == [.string] { return [.string(text)] }
        guard let json = try? JSONDocument(parsing: text).value else { return [.string(text)] }
        let elements = types.count == 1 ? [json] : (json.arrayValue ?? [])
        return zip(elements, types).map { (try? AttributeValue(json: $0, as: $1)) ?? .string($0.text(style: .canonical)) }
    }
}

extension AttributeValue {
    /// The value as keys and reports show it (``JSON/keyText``).
    var displayText: String { json.keyText }
}
