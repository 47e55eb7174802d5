import Foundation
import SeedKitSupport
import SeedKitJSON

extension EntityModel {
    /// Reads a model from the JSON model file format (see <doc:TheEntityModel>).
    ///
    ///     try EntityModel(json: ["entities": ["Department": ["identity": ["name"], "attributes": ["name": "string"]]]])
    ///
    /// Attributes take a short form, `"type"` or `"type?"` (optional), or a long form with `type`, `optional`,
    /// `default`, `aliases` and, for dates, `dateFormat`. Relationships take `to`, `many`, `ordered`, `inverse`,
    /// `owns`, `deleteRule`, `aliases` and `byIdentity`; entities `parent`, `identity`, `attributes`,
    /// `relationships`, `aliases`, `createdByReference` and `keyStyle`; the model `entities` and `keyStyle`.
    ///
    /// - Throws: ``ModelErrors``: every problem of the file's shape, each with its JSON Pointer, and with them every
    ///   problem of the model in the declarations that could be read — all at once, so one pass fixes the file.
    /// - Complexity: O(*n*) in the size of the model.
    public init(json: JSON) throws {
        var reader = ModelFileReader()
        let declarations = reader.read(json)
        guard reader.errors.isEmpty else {
            // What only follows from a declaration that couldn't be read (a destination or identity attribute missing
            // because its declaration was malformed) is not a second problem.
            let validator = ModelValidator(
                declarations.sorted { $0.name < $1.name }, keyStyle: reader.keyStyle, unreadable: reader.unreadable)
            throw ModelErrors(errors: reader.errors + validator.validate())
        }
        try self.init(declarations, keyStyle: reader.keyStyle)
    }

    /// Reads a model file, locating every problem as `file:line:column`.
    ///
    ///     let model = try EntityModel(contentsOf: URL(fileURLWithPath: "Templates/model.json"))
    ///
    /// - Throws: ``JSONSyntaxError`` for text that is not JSON; ``ModelErrors`` for a JSON value that is not a valid
    ///   model, each error with its pointer and location. File system errors as thrown by `Data(contentsOf:)`.
    /// - Complexity: O(*n*) in the size of the file.
    public init(contentsOf url: URL) throws {
        try self.init(document: JSONDocument(contentsOf: url))
    }

    /// Reads a model file's parsed text, locating every problem in it.
    ///
    /// - Throws: ``ModelErrors``, each error with its pointer and location.
    package init(document: JSONDocument) throws {
        do {
            try self.init(json: document.value)
        } catch var errors as ModelErrors {
            for index in errors.errors.indices {
                var error = errors.errors[index]
                if error.pointer == nil { error.pointer = Self.pointer(entity: error.entity, property: error.property, in: document.value) }
                if let pointer = error.pointer {
                    error.location = error.kind == .unknownKey
                        ? document.locationOfKey(pointer) : document.location(of: pointer)
                }
                errors.errors[index] = error
            }
            errors.errors.sort { ($0.location?.line ?? .max, $0.location?.column ?? .max) < ($1.location?.line ?? .max, $1.location?.column ?? .max) }
            throw errors
        }
    }

    /// Where an entity or property is declared in a model file.
    private static func pointer(entity: String?, property: String?, in json: JSON) -> JSONPointer? {
        guard let entity else { return nil }
        let entityPointer = JSONPointer.root.appending("entities").appending(entity)
        guard let property else { return entityPointer }
        for section in ["attributes", "relationships"] where json["entities"]?[entity]?[section]?[property] != nil {
            return entityPointer.appending(section).appending(property)
        }
        return entityPointer
    }

    /// Writes the model file: pretty, keys sorted, so the same model always gives the same bytes.
    ///
    /// - Complexity: O(*n*) in the size of the model.
    public func write(to url: URL) throws {
        try Data(json.serialized(style: .pretty) + [UInt8(ascii: "\n")]).write(to: url, options: .atomic)
    }

    /// The ``fingerprint`` of the model of these declarations, in name order, and key style: the ``StableHash`` of
    /// its canonical JSON, in hex.
    ///
    /// - Complexity: O(*n*) in the size of the model.
    static func fingerprint(declarations: [EntityDescription], keyStyle: KeyStyle) -> String {
        StableHash.hex(of: json(declarations: declarations, keyStyle: keyStyle).serialized(style: .canonical))
    }

    /// The model in the JSON model file format; ``init(json:)`` reads it back as an equal model.
    ///
    /// - Complexity: O(*n*) in the size of the model.
    public var json: JSON {
        Self.json(declarations: declarations, keyStyle: keyStyle)
    }

    /// The JSON of a model of these declarations, in name order, and key style.
    private static func json(declarations: [EntityDescription], keyStyle: KeyStyle) -> JSON {
        var entities: JSONObject = [:]
        for declaration in declarations {
            var entity: JSONObject = [:]
            if let parent = declaration.parent { entity["parent"] = .string(parent) }
            if !declaration.identity.isEmpty { entity["identity"] = .array(declaration.identity.map(JSON.string)) }
            if !declaration.aliases.isEmpty { entity["aliases"] = .array(declaration.aliases.map(JSON.string)) }
            if declaration.isCreatedByReference { entity["createdByReference"] = true }
            if let style = declaration.keyStyle { entity["keyStyle"] = .string(style.rawValue) }
            if !declaration.attributes.isEmpty {
                entity["attributes"] = .object(
                    JSONObject(uniqueKeysWithValues: declaration.attributes.map { ($0.name, Self.json(for: $0)) }))
            }
            if !declaration.relationships.isEmpty {
                entity["relationships"] = .object(
                    JSONObject(uniqueKeysWithValues: declaration.relationships.map { ($0.name, Self.json(for: $0)) }))
            }
            entities[declaration.name] = .object(entity)
        }
        var model: JSONObject = ["entities": .object(entities)]
        if keyStyle != .propertyNames { model["keyStyle"] = .string(keyStyle.rawValue) }
        return .object(model)
    }

    private static func json(for attribute: AttributeDescription) -> JSON {
        let short = JSON.string(attribute.type.rawValue + (attribute.isOptional ? "?" : ""))
        guard attribute.defaultValue != nil || !attribute.aliases.isEmpty || attribute.dateFormat != .iso8601 else {
            return short
        }
        var long: JSONObject = ["type": .string(attribute.type.rawValue)]
        if attribute.isOptional { long["optional"] = true }
        if let value = attribute.defaultValue { long["default"] = value.json }
        if !attribute.aliases.isEmpty { long["aliases"] = .array(attribute.aliases.map(JSON.string)) }
        if attribute.dateFormat != .iso8601 { long["dateFormat"] = .string(attribute.dateFormat.rawValue) }
        return .object(long)
    }

    private static func json(for relationship: RelationshipDescription) -> JSON {
        var long: JSONObject = ["to": .string(relationship.destination)]
        if relationship.isToMany { long["many"] = true }
        if relationship.isOrdered { long["ordered"] = true }
        if let inverse = relationship.inverse { long["inverse"] = .string(inverse) }
        if relationship.owns { long["owns"] = true }
        if relationship.deleteRule != (relationship.owns ? .cascade : .nullify) {
            long["deleteRule"] = .string(relationship.deleteRule.rawValue)
        }
        if !relationship.aliases.isEmpty { long["aliases"] = .array(relationship.aliases.map(JSON.string)) }
        if relationship.isByIdentity { long["byIdentity"] = true }
        return .object(long)
    }
}

/// Reads declarations from a model file's JSON, collecting every shape error with its JSON Pointer.
private struct ModelFileReader {
    var errors: [ModelError] = []
    /// The model's `"keyStyle"`.
    var keyStyle = KeyStyle.propertyNames
    /// Entities, and properties as `Entity.property`, declared but not readable.
    var unreadable: Set<String> = []

    private mutating func fail(
        _ pointer: JSONPointer, kind: ModelError.Kind = .invalidFile, entity: String? = nil, property: String? = nil,
        _ message: String
    ) {
        var error = ModelError(kind, entity: entity, property: property, message)
        error.pointer = pointer
        errors.append(error)
    }

    mutating func read(_ json: JSON) -> [EntityDescription] {
        guard let root = object(json, at: .root, "the model file must be an object with an \"entities\" object") else {
            return []
        }
        checkKeys(root, allowed: ["entities", "keyStyle"], at: .root, entity: nil)
        if let style = root["keyStyle"] {
            keyStyle = option(style, at: JSONPointer.root.appending("keyStyle"), "key style") ?? .propertyNames
        }
        guard let entities = root["entities"] else {
            fail(.root, "missing \"entities\": an object of entity names to entity declarations")
            return []
        }
        let pointer = JSONPointer.root.appending("entities")
        guard let members = object(entities, at: pointer, "\"entities\" must be an object of entity names to declarations") else {
            return []
        }
        return members.keys.sorted().compactMap { name in
            let entity = entity(name, members[name]!, at: pointer.appending(name))
            if entity == nil { unreadable.insert(name) }
            return entity
        }
    }

    private mutating func entity(_ name: String, _ json: JSON, at pointer: JSONPointer) -> EntityDescription? {
        guard let members = object(json, at: pointer, "an entity must be an object", entity: name) else { return nil }
        checkKeys(
            members,
            allowed: ["parent", "identity", "attributes", "relationships", "aliases", "createdByReference", "keyStyle"],
            at: pointer, entity: name)
        var entity = EntityDescription(name)
        entity.parent = members["parent"].flatMap { string($0, at: pointer.appending("parent"), entity: name) }
        entity.identity = members["identity"].map { strings($0, at: pointer.appending("identity"), entity: name) } ?? []
        entity.aliases = members["aliases"].map { strings($0, at: pointer.appending("aliases"), entity: name) } ?? []
        entity.isCreatedByReference =
            members["createdByReference"].flatMap { bool($0, at: pointer.appending("createdByReference"), entity: name) } ?? false
        entity.keyStyle = members["keyStyle"].flatMap { option($0, at: pointer.appending("keyStyle"), "key style", entity: name) }
        if let attributes = members["attributes"] {
            let at = pointer.appending("attributes")
            if let properties = object(attributes, at: at, "\"attributes\" must be an object of names to types", entity: name) {
                entity.attributes = properties.keys.sorted().compactMap { property in
                    let attribute = attribute(property, properties[property]!, at: at.appending(property), entity: name)
                    if attribute == nil { unreadable.insert("\(name).\(property)") }
                    return attribute
                }
            }
        }
        if let relationships = members["relationships"] {
            let at = pointer.appending("relationships")
            if let properties = object(relationships, at: at, "\"relationships\" must be an object of names to declarations", entity: name) {
                entity.relationships = properties.keys.sorted().compactMap { property in
                    let relationship = relationship(property, properties[property]!, at: at.appending(property), entity: name)
                    if relationship == nil { unreadable.insert("\(name).\(property)") }
                    return relationship
                }
            }
        }
        return entity
    }

    private mutating func attribute(_ name: String, _ json: JSON, at pointer: JSONPointer, entity: String) -> AttributeDescription? {
        if case .string(let text) = json {
            let optional = text.hasSuffix("?")
            guard let type = attributeType(String(text.dropLast(optional ? 1 : 0)), at: pointer, entity: entity, property: name) else {
                return nil
            }
            return AttributeDescription(name, type, isOptional: optional)
        }
        guard let members = object(json, at: pointer, "an attribute is a type such as \"string\" or \"date?\", or an object with \"type\"", entity: entity, property: name) else {
            return nil
        }
        checkKeys(
            members, allowed: ["type", "optional", "default", "aliases", "dateFormat"], at: pointer, entity: entity, property: name)
        guard let typeJSON = members["type"] else {
            fail(pointer, entity: entity, property: name, "missing \"type\"; types are: \(Self.typeNames)")
            return nil
        }
        guard let typeName = string(typeJSON, at: pointer.appending("type"), entity: entity, property: name),
            let type = attributeType(typeName, at: pointer.appending("type"), entity: entity, property: name)
        else { return nil }
        var attribute = AttributeDescription(name, type)
        attribute.isOptional = members["optional"].flatMap { bool($0, at: pointer.appending("optional"), entity: entity, property: name) } ?? false
        attribute.aliases = members["aliases"].map { strings($0, at: pointer.appending("aliases"), entity: entity, property: name) } ?? []
        attribute.dateFormat = members["dateFormat"].flatMap {
            option($0, at: pointer.appending("dateFormat"), "date format", entity: entity, property: name)
        } ?? .iso8601
        if let value = members["default"], value != .null {
            do {
                attribute.defaultValue = try AttributeValue(json: value, as: type)
            } catch {
                fail(pointer.appending("default"), entity: entity, property: name, "invalid default: \(error.message)")
            }
        }
        return attribute
    }

    private mutating func relationship(_ name: String, _ json: JSON, at pointer: JSONPointer, entity: String) -> RelationshipDescription? {
        guard let members = object(json, at: pointer, "a relationship must be an object with \"to\"", entity: entity, property: name) else {
            return nil
        }
        checkKeys(
            members, allowed: ["to", "many", "ordered", "inverse", "owns", "deleteRule", "aliases", "byIdentity"], at: pointer,
            entity: entity, property: name)
        guard let toJSON = members["to"] else {
            fail(pointer, entity: entity, property: name, "missing \"to\": the destination entity's name")
            return nil
        }
        guard let destination = string(toJSON, at: pointer.appending("to"), entity: entity, property: name) else { return nil }
        func flag(_ key: String) -> Bool {
            members[key].flatMap { bool($0, at: pointer.appending(key), entity: entity, property: name) } ?? false
        }
        var deleteRule: DeleteRule?
        if let ruleJSON = members["deleteRule"], let text = string(ruleJSON, at: pointer.appending("deleteRule"), entity: entity, property: name) {
            deleteRule = DeleteRule(rawValue: text)
            if deleteRule == nil {
                fail(pointer.appending("deleteRule"), entity: entity, property: name, "unknown delete rule '\(text)'; rules are: nullify, cascade, deny")
            }
        }
        return RelationshipDescription(
            name, to: destination, isToMany: flag("many"), isOrdered: flag("ordered"),
            inverse: members["inverse"].flatMap { string($0, at: pointer.appending("inverse"), entity: entity, property: name) },
            owns: flag("owns"), deleteRule: deleteRule,
            aliases: members["aliases"].map { strings($0, at: pointer.appending("aliases"), entity: entity, property: name) } ?? [],
            isByIdentity: flag("byIdentity"))
    }

    private static let typeNames = AttributeType.allCases.map(\.rawValue).joined(separator: ", ")

    private mutating func attributeType(_ name: String, at pointer: JSONPointer, entity: String, property: String) -> AttributeType? {
        if let type = AttributeType(rawValue: name) { return type }
        fail(pointer, entity: entity, property: property,
             "unknown type '\(name)'\(Suggestion.didYouMean(name, among: AttributeType.allCases.map(\.rawValue))); types are: \(Self.typeNames), with '?' for optional")
        return nil
    }

    private mutating func checkKeys(_ members: JSONObject, allowed: [String], at pointer: JSONPointer, entity: String?, property: String? = nil) {
        for key in members.keys.sorted() where !allowed.contains(key) {
            fail(pointer.appending(key), kind: .unknownKey, entity: entity, property: property,
                 "unknown key '\(key)'\(Suggestion.didYouMean(key, among: allowed)); keys are: \(allowed.joined(separator: ", "))")
        }
    }

    private mutating func object(_ json: JSON, at pointer: JSONPointer, _ message: String, entity: String? = nil, property: String? = nil) -> JSONObject? {
        if case .object(let members) = json { return members }
        fail(pointer, entity: entity, property: property, "\(message), not \(json.kindDescription)")
        return nil
    }

    private mutating func string(_ json: JSON, at pointer: JSONPointer, entity: String? = nil, property: String? = nil) -> String? {
        if case .string(let text) = json { return text }
        fail(pointer, entity: entity, property: property, "expected a string, not \(json.kindDescription)")
        return nil
    }

    /// One of an option's values, by its raw value; anything else is an error listing them.
    private mutating func option<Option: RawRepresentable<String> & CaseIterable>(
        _ json: JSON, at pointer: JSONPointer, _ what: String, entity: String? = nil, property: String? = nil
    ) -> Option? {
        guard let text = string(json, at: pointer, entity: entity, property: property) else { return nil }
        if let value = Option(rawValue: text) { return value }
        let names = Option.allCases.map(\.rawValue)
        fail(pointer, entity: entity, property: property,
             "unknown \(what) '\(text)'\(Suggestion.didYouMean(text, among: names)); \(what)s are: \(names.joined(separator: ", "))")
        return nil
    }

    private mutating func bool(_ json: JSON, at pointer: JSONPointer, entity: String? = nil, property: String? = nil) -> Bool? {
        if case .bool(let value) = json { return value }
        fail(pointer, entity: entity, property: property, "expected true or false, not \(json.kindDescription)")
        return nil
    }

    private mutating func strings(_ json: JSON, at pointer: JSONPointer, entity: String? = nil, property: String? = nil) -> [String] {
        guard case .array(let items) = json else {
            fail(pointer, entity: entity, property: property, "expected an array of strings, not \(json.kindDescription)")
            return []
        }
        return items.enumerated().compactMap { string($1, at: pointer.appending($0), entity: entity, property: property) }
    }
}
