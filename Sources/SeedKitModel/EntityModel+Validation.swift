import SeedKitSupport

/// Checks declarations for every problem at once: names, duplicates, inheritance, destinations, inverses, identity,
/// defaults, delete rules and the template conventions (keys, date formats, references by identity).
package struct ModelValidator {
    let declarations: [EntityDescription]
    /// The model's key style, for entities that state none.
    private let keyStyle: KeyStyle
    private let byName: [String: EntityDescription]
    /// Entities, and properties as `Entity.property`, that a model file declares but that couldn't be read: what
    /// names them is not checked, since its problem is reported already.
    private let unreadable: Set<String>
    private var errors: [ModelError] = []

    init(_ declarations: [EntityDescription], keyStyle: KeyStyle = .propertyNames, unreadable: Set<String> = []) {
        self.declarations = declarations
        self.keyStyle = keyStyle
        self.unreadable = unreadable
        self.byName = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    consuming func validate() -> [ModelError] {
        checkEntityNames()
        for entity in declarations {
            checkInheritance(entity)
            checkProperties(entity)
            checkIdentity(entity)
            for relationship in entity.relationships { checkRelationship(relationship, of: entity) }
        }
        // Grouped by entity, in the order found within each, so a model file's problems read entity by entity.
        return errors.enumerated().sorted { ($0.element.entity ?? "", $0.offset) < ($1.element.entity ?? "", $1.offset) }
            .map(\.element)
    }

    /// Whether a name can be an entity or property name: an identifier, so it is also a safe SQL name.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (0x30...0x39).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    private mutating func checkName(_ name: String, entity: String?, property: String?, what: String) {
        if name == "class" || name.hasPrefix("$") {
            errors.append(
                ModelError(
                    .reservedName, entity: entity, property: property,
                    "\(what) '\(name)' is reserved: 'class' and names starting with '$' belong to the dictionary form"))
        } else if !Self.isValidName(name) {
            errors.append(
                ModelError(
                    .invalidName, entity: entity, property: property,
                    "\(what) '\(name)' is not a valid name: use letters, digits and '_', not starting with a digit"))
        }
    }

    private mutating func checkEntityNames() {
        var seen: [String: String] = [:]
        for entity in declarations {
            for name in [entity.name] + entity.aliases {
                checkName(name, entity: entity.name, property: nil, what: name == entity.name ? "entity name" : "alias")
                if let other = seen[name] {
                    errors.append(
                        ModelError(
                            .duplicateName, entity: entity.name,
                            "name '\(name)' is already used by entity \(other)"))
                }
                seen[name] = entity.name
            }
        }
    }

    private mutating func checkInheritance(_ entity: EntityDescription) {
        guard let parent = entity.parent, !unreadable.contains(parent) else { return }
        guard byName[parent] != nil else {
            errors.append(
                ModelError(
                    .unknownParent, entity: entity.name,
                    "parent '\(parent)' is not an entity\(Suggestion.didYouMean(parent, among: byName.keys.sorted())); "
                        + "entities are: \(byName.keys.sorted().joined(separator: ", "))"))
            return
        }
        var visited: [String] = [entity.name]
        var current = parent
        while true {
            if visited.contains(current) {
                if current == entity.name {
                    errors.append(
                        ModelError(
                            .inheritanceCycle, entity: entity.name,
                            "inheritance cycle: \((visited + [current]).joined(separator: " -> "))"))
                }
                return
            }
            visited.append(current)
            guard let next = byName[current]?.parent else { return }
            current = next
        }
    }

    /// The declarations from the root down to `entity`, or just `entity` when its chain is broken or cyclic.
    private func ancestry(of entity: EntityDescription) -> [EntityDescription] {
        var chain = [entity]
        while let parent = chain.last!.parent, let declaration = byName[parent] {
            if chain.contains(where: { $0.name == declaration.name }) { return [entity] }
            chain.append(declaration)
        }
        return chain.reversed()
    }

    private mutating func checkProperties(_ entity: EntityDescription) {
        var owners: [String: String] = [:]
        for ancestor in ancestry(of: entity).dropLast() {
            for name in ancestor.attributes.flatMap({ [$0.name] + $0.aliases })
                + ancestor.relationships.flatMap({ [$0.name] + $0.aliases })
            {
                owners[name] = ancestor.name
            }
        }
        let own =
            entity.attributes.map { ($0.name, $0.aliases) } + entity.relationships.map { ($0.name, $0.aliases) }
        for (property, aliases) in own {
            for name in [property] + aliases {
                checkName(name, entity: entity.name, property: property, what: name == property ? "property name" : "alias")
                if let owner = owners[name] {
                    let whose = owner == entity.name ? "another property of \(owner)" : "a property inherited from \(owner)"
                    errors.append(
                        ModelError(.duplicateName, entity: entity.name, property: property, "name '\(name)' is already \(whose)"))
                }
                owners[name] = entity.name
            }
        }
        for attribute in entity.attributes {
            if let value = attribute.defaultValue, value.type != attribute.type {
                errors.append(
                    ModelError(
                        .invalidDefault, entity: entity.name, property: attribute.name,
                        "default value is \(value.type) but the attribute is \(attribute.type)"))
            }
            if attribute.dateFormat != .iso8601 && attribute.type != .date {
                errors.append(
                    ModelError(
                        .invalidDateFormat, entity: entity.name, property: attribute.name,
                        "dateFormat '\(attribute.dateFormat.rawValue)' is for date attributes; this one is \(attribute.type)"))
            }
        }
        checkKeys(entity)
    }

    /// Under a key style other than the names', no two properties (inherited ones and aliases included) may share a
    /// key, and no key may be `class`.
    private mutating func checkKeys(_ entity: EntityDescription) {
        let ancestry = ancestry(of: entity)
        func keyStyle(of chain: ArraySlice<EntityDescription>) -> KeyStyle {
            chain.last { $0.keyStyle != nil }?.keyStyle ?? self.keyStyle
        }
        let style = keyStyle(of: ancestry[...])
        guard style != .propertyNames else { return }
        // What is inherited was checked at the parent, unless the parent writes its keys in another style.
        let checksInherited = ancestry.count == 1 || keyStyle(of: ancestry.dropLast()) != style
        var owners: [String: String] = [:]
        for ancestor in ancestry {
            let isChecked = ancestor.name == entity.name || checksInherited
            let properties =
                ancestor.attributes.map { ($0.name, $0.aliases) } + ancestor.relationships.map { ($0.name, $0.aliases) }
            for (property, aliases) in properties {
                for name in [property] + aliases {
                    let key = style.key(for: name)
                    if isChecked, let owner = owners[key], owner != name {
                        errors.append(
                            ModelError(
                                .duplicateName, entity: entity.name, property: property,
                                "'\(name)' and '\(owner)' are both written '\(key)' in keyStyle \(style.rawValue)"))
                    } else if isChecked, key == "class", name != key {
                        errors.append(
                            ModelError(
                                .reservedName, entity: entity.name, property: property,
                                "'\(name)' is written 'class' in keyStyle \(style.rawValue), the key that names the entity"))
                    }
                    if owners[key] == nil { owners[key] = name }
                }
            }
        }
    }

    private mutating func checkIdentity(_ entity: EntityDescription) {
        guard !entity.identity.isEmpty else { return }
        if let parent = entity.parent {
            errors.append(
                ModelError(
                    .invalidIdentity, entity: entity.name,
                    "identity is declared on the root entity only; \(entity.name) inherits it from \(parent)"))
            return
        }
        if Set(entity.identity).count != entity.identity.count {
            errors.append(ModelError(.invalidIdentity, entity: entity.name, "identity names an attribute twice"))
        }
        for name in entity.identity {
            guard let attribute = entity.attributes.first(where: { $0.name == name }) else {
                if unreadable.contains("\(entity.name).\(name)") { continue }
                let relationship = entity.relationships.contains { $0.name == name }
                errors.append(
                    ModelError(
                        .invalidIdentity, entity: entity.name, property: name,
                        relationship
                            ? "identity names a relationship; identity is made of attributes"
                            : "identity names a missing attribute; attributes are: \(entity.attributes.map(\.name).joined(separator: ", "))"))
                continue
            }
            if attribute.isOptional {
                errors.append(
                    ModelError(
                        .invalidIdentity, entity: entity.name, property: name,
                        "identity attribute must be required, not optional"))
            }
            if attribute.type == .json || attribute.type == .double {
                errors.append(
                    ModelError(
                        .invalidIdentity, entity: entity.name, property: name,
                        "a \(attribute.type) attribute cannot be part of an identity; use string, integer, decimal, date, uuid, url, bool or data"))
            }
        }
    }

    /// A relationship given by identity values needs a destination with a one-attribute identity, and members that
    /// exist on their own.
    private mutating func checkByIdentity(_ relationship: RelationshipDescription, of entity: EntityDescription) {
        guard let destination = byName[relationship.destination] else { return }
        let identity = ancestry(of: destination).first?.identity ?? []
        if relationship.owns {
            errors.append(
                ModelError(
                    .invalidByIdentity, entity: entity.name, property: relationship.name,
                    "byIdentity names objects that exist on their own; an owned relationship's members are written in full"))
        } else if identity.count != 1 {
            errors.append(
                ModelError(
                    .invalidByIdentity, entity: entity.name, property: relationship.name,
                    "byIdentity needs a destination identified by one attribute; \(relationship.destination)'s identity "
                        + (identity.isEmpty ? "is not declared" : "is \(identity.joined(separator: ", "))")))
        }
    }

    private func relationship(named name: String, in entityName: String) -> RelationshipDescription? {
        guard let entity = byName[entityName] else { return nil }
        return ancestry(of: entity).lazy.flatMap(\.relationships).first { $0.name == name }
    }

    private func isKind(_ entityName: String, of ancestor: String) -> Bool {
        guard let entity = byName[entityName] else { return false }
        return ancestry(of: entity).contains { $0.name == ancestor }
    }

    private mutating func checkRelationship(_ relationship: RelationshipDescription, of entity: EntityDescription) {
        let name = relationship.name
        if unreadable.contains(relationship.destination) { return }
        guard byName[relationship.destination] != nil else {
            errors.append(
                ModelError(
                    .unknownDestination, entity: entity.name, property: name,
                    "destination '\(relationship.destination)' is not an entity"
                        + "\(Suggestion.didYouMean(relationship.destination, among: byName.keys.sorted())); "
                        + "entities are: \(byName.keys.sorted().joined(separator: ", "))"))
            return
        }
        if relationship.owns && relationship.deleteRule != .cascade {
            errors.append(
                ModelError(
                    .invalidDeleteRule, entity: entity.name, property: name,
                    "an owned relationship cascades; deleteRule '\(relationship.deleteRule.rawValue)' contradicts owns"))
        }
        if relationship.isOrdered && !relationship.isToMany {
            errors.append(
                ModelError(.invalidInverse, entity: entity.name, property: name, "a to-one relationship cannot be ordered"))
        }
        if relationship.isByIdentity { checkByIdentity(relationship, of: entity) }
        guard let inverseName = relationship.inverse else { return }
        guard let inverse = self.relationship(named: inverseName, in: relationship.destination) else {
            if unreadable.contains("\(relationship.destination).\(inverseName)") { return }
            let names = byName[relationship.destination].map { ancestry(of: $0).flatMap(\.relationships).map(\.name) } ?? []
            errors.append(
                ModelError(
                    .invalidInverse, entity: entity.name, property: name,
                    "inverse '\(inverseName)' is not a relationship of \(relationship.destination)"
                        + "\(Suggestion.didYouMean(inverseName, among: names)); "
                        + (names.isEmpty ? "it has none" : "it has: \(names.joined(separator: ", "))")))
            return
        }
        if !isKind(entity.name, of: inverse.destination) {
            errors.append(
                ModelError(
                    .invalidInverse, entity: entity.name, property: name,
                    "inverse \(relationship.destination).\(inverseName) points to \(inverse.destination), not back to \(entity.name)"))
        } else if let back = inverse.inverse, back != name {
            errors.append(
                ModelError(
                    .invalidInverse, entity: entity.name, property: name,
                    "inverse \(relationship.destination).\(inverseName) names '\(back)' as its inverse, not '\(name)'"))
        }
        if relationship.owns && inverse.isToMany {
            errors.append(
                ModelError(
                    .invalidInverse, entity: entity.name, property: name,
                    "an owned object has one owner, so the inverse \(relationship.destination).\(inverseName) must be to-one"))
        }
        if relationship.owns && inverse.owns {
            errors.append(
                ModelError(
                    .invalidInverse, entity: entity.name, property: name,
                    "\(entity.name).\(name) and \(relationship.destination).\(inverseName) cannot both own each other"))
        }
    }
}
