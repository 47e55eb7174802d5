import SeedKitJSON
import SeedKitModel

/// A JSON Schema (draft 2020-12) of the `.template` files of a model, for editors: completion of class and property
/// names, and errors on unknown keys or values of the wrong type as one types.
///
///     let schema = TemplateSchema.json(for: model)
///     print(schema.text(style: .pretty))   // associate it with "*.template" in the editor's settings
///
/// A template is an object or an array of objects. Every top-level object needs `"class"`, one of the model's entity
/// names or aliases; an `if`/`then` per entity then applies that entity's definition, which lists its attributes,
/// relationships, `"$id"` and `"class"`, and forbids any other key (`additionalProperties: false`). No key is
/// required: a template may state only some facts of an object, and an object holding only its identity values is a
/// reference. A relationship's value is a nested object of the destination (its `"class"`, when given, one of the
/// destination's kinds), `{"$ref": "…"}`, or, for to-many, an array of these; a to-one may be null. The model's
/// template conventions apply: keys in each entity's key style, epoch dates as numbers, and the destination's identity
/// value where a relationship is given by identity.
///
/// The schema checks shape, not meaning: references resolving, identity values agreeing and required attributes
/// being present are the seeder's checks (`seed validate`).
///
/// - Complexity: O(*e* × *k*) for *e* entities of *k* kinds each, plus the number of properties.
package enum TemplateSchema {
    package static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema of templates of `model`; the same model always gives the same value.
    package static func json(for model: EntityModel) -> JSON {
        var definitions: JSONObject = [
            "reference": .object([
                "type": "object", "properties": ["$ref": ["type": "string"]], "required": ["$ref"],
                "additionalProperties": false,
            ]),
            "object": objectDispatch(model),
        ]
        for entity in model.entities {
            definitions["entity." + entity.name] = definition(of: entity, in: model)
            definitions["to." + entity.name] = nested(entity, in: model)
        }
        return .object([
            "$schema": .string(dialect),
            "title": "SeedKit template",
            "description": "A .template file: an object or an array of objects, each with a \"class\" naming an entity.",
            // if/then/else rather than anyOf, so that an editor reports the error inside the object, not "matches none".
            "if": ["type": "object"],
            "then": ["$ref": "#/$defs/object"],
            "else": ["type": "array", "items": ["$ref": "#/$defs/object"]],
            "$defs": .object(definitions),
        ])
    }

    /// An object with a `"class"` naming any entity, checked against that entity's definition.
    private static func objectDispatch(_ model: EntityModel) -> JSON {
        let rules: [JSON] = model.entities.map { entity in
            .object([
                "if": ["properties": ["class": ["enum": .array(names(of: entity).map(JSON.string))]], "required": ["class"]],
                "then": ["$ref": .string("#/$defs/entity.\(entity.name)")],
            ])
        }
        return .object([
            "type": "object",
            "properties": ["class": ["enum": .array(model.entities.flatMap(names(of:)).map(JSON.string))]],
            "required": ["class"],
            "allOf": .array(rules),
        ])
    }

    /// A nested object of a relationship to `entity`: `"class"`, when given, names one of its kinds; left out, the
    /// object is of `entity` itself.
    private static func nested(_ entity: Entity, in model: EntityModel) -> JSON {
        let kinds = entity.kinds.compactMap(model.entity(named:)).flatMap(names(of:))
        return .object([
            "anyOf": [
                ["$ref": "#/$defs/reference"],
                .object([
                    "type": "object",
                    "if": ["required": ["class"]],
                    "then": .object(["properties": ["class": ["enum": .array(kinds.map(JSON.string))]], "$ref": "#/$defs/object"]),
                    "else": ["$ref": .string("#/$defs/entity.\(entity.name)")],
                ]),
            ],
        ])
    }

    /// The keys an object of `entity` may have, and their values.
    private static func definition(of entity: Entity, in model: EntityModel) -> JSON {
        var properties: JSONObject = [
            "class": ["enum": .array(names(of: entity).map(JSON.string))],
            "$id": ["type": "string"],
        ]
        for attribute in entity.attributes {
            for name in [attribute.name] + attribute.aliases { properties[entity.keyStyle.key(for: name)] = schema(of: attribute) }
        }
        for relationship in entity.relationships {
            var member: JSON = ["$ref": .string("#/$defs/to.\(relationship.destination)")]
            if relationship.isByIdentity, case let destination = model.destination(of: relationship),
                case .object(var identity) = schema(of: destination.attributes[destination.identityIndices[0]])
            {
                // An identity attribute is required, so its schema has no null.
                identity["description"] = .string("a \(destination.name) by its \(destination.identity[0])")
                member = ["anyOf": [member, .object(identity)]]
            }
            let value: JSON = relationship.isToMany
                ? ["type": "array", "items": member]
                : ["anyOf": [["type": "null"], member]]
            for name in [relationship.name] + relationship.aliases { properties[entity.keyStyle.key(for: name)] = value }
        }
        return .object(["type": "object", "properties": .object(properties), "additionalProperties": false])
    }

    private static func schema(of attribute: AttributeDescription) -> JSON {
        var schema: JSONObject
        switch attribute.type {
        case .string: schema = ["type": ["string"]]
        case .integer: schema = ["type": ["integer"]]
        case .double: schema = ["type": ["number"]]
        case .bool: schema = ["type": ["boolean"]]
        // Decimals may be written as strings, so no digit is lost on the way through a double.
        case .decimal: schema = ["type": ["number", "string"]]
        case .date where attribute.dateFormat != .iso8601:
            schema = [
                "type": ["number"],
                "description": .string(attribute.dateFormat == .secondsSince1970 ? "seconds since 1970" : "milliseconds since 1970"),
            ]
        case .date: schema = ["type": ["string"], "format": "date-time"]
        case .data: schema = ["type": ["string"], "contentEncoding": "base64"]
        case .uuid: schema = ["type": ["string"], "format": "uuid"]
        case .url: schema = ["type": ["string"], "format": "uri"]
        case .json: return .object([:])
        }
        if attribute.isOptional, case .array(let types) = schema["type"] { schema["type"] = .array(types + ["null"]) }
        if case .array(let types) = schema["type"], types.count == 1 { schema["type"] = types[0] }
        return .object(schema)
    }

    private static func names(of entity: Entity) -> [String] {
        [entity.name] + entity.declaration.aliases
    }
}
