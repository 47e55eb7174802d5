import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitObjects

/// The rules by which a dictionary with a `"class"` key states an object of a model, shared by the graph decoder
/// (``GraphDecoder``, `fromDictionary`, `populate`) and the seeding pipeline's template reader, so that both accept
/// the same input and say the same about what they refuse.
///
///     switch DictionaryRules.entity(classValue: members["class"], expected: destination, model: model) {
///     case .success(let entity): …
///     case .failure(let problem): report(problem.message, atClassKey: problem.isAtClassKey)
///     }
package enum DictionaryRules {
    /// What is wrong with part of a dictionary.
    package struct Problem: Error {
        package let kind: GraphDecodingError.Kind
        package let message: String
        /// Whether the problem is at the `"class"` key rather than the dictionary itself.
        package var isAtClassKey = false
    }

    /// The entity `"class"` names, a kind of `expected` when a relationship expects one; the destination itself when
    /// `"class"` is left out where it has no subentities.
    package static func entity(classValue value: JSON?, expected: Entity?, model: EntityModel) -> Result<Entity, Problem> {
        let valid = expected?.kinds ?? model.entityNames
        guard let value else {
            if let expected, expected.kinds.count == 1 { return .success(expected) }
            return .failure(
                Problem(
                    kind: .missingValue,
                    message: expected.map { "missing \"class\": \($0.name) has subentities, so name one of \(valid.joined(separator: ", "))" }
                        ?? "missing \"class\"; valid classes: \(valid.joined(separator: ", "))"))
        }
        guard case .string(let name) = value else {
            return .failure(
                Problem(kind: .typeMismatch, message: "\"class\" must be an entity name, got \(value.kindDescription)", isAtClassKey: true))
        }
        guard let entity = model.entity(named: name), expected.map({ entity.isKind(of: $0.name) }) ?? true else {
            let known = model.entity(named: name) != nil
            return .failure(
                Problem(
                    kind: .unknownClass,
                    message: (known ? "class '\(TerminalText.escaped(name))' is not a kind of \(expected!.name)" : "unknown class '\(TerminalText.escaped(name))'")
                        + (known ? "" : Suggestion.didYouMean(name, among: valid))
                        + "; valid classes\(expected.map { " for a \($0.name)" } ?? ""): \(valid.joined(separator: ", "))",
                    isAtClassKey: true))
        }
        return .success(entity)
    }

    /// The value a dictionary states for an attribute: nil for `null` where the attribute is optional.
    package static func attribute(_ value: JSON, of entity: Entity, at index: Int) -> Result<AttributeValue?, Problem> {
        // The attribute's fields are read where they are: a copy of the attribute costs a retain and a release for
        // each of its strings and arrays, once per value read.
        if case .null = value {
            guard entity.attributes[index].isOptional else {
                let attribute = entity.attributes[index]
                return .failure(
                    Problem(
                        kind: .missingValue,
                        message: "null for required attribute '\(attribute.name)' of \(entity.name); expected \(AttributeValue.jsonExpectation(for: attribute.type, dateFormat: attribute.dateFormat))"))
            }
            return .success(nil)
        }
        do {
            // The check here, not in the value's reader: the usual format costs a comparison, not another call.
            let type = entity.attributes[index].type, dateFormat = entity.attributes[index].dateFormat
            return .success(
                dateFormat == .iso8601
                    ? try AttributeValue(json: value, as: type) : try AttributeValue(json: value, as: type, dateFormat: dateFormat))
        } catch {
            return .failure(problem(error, "attribute '\(entity.attributes[index].name)' of \(entity.name)"))
        }
    }

    /// The value the ``JSONTape``'s `entry` states for an attribute, as ``attribute(_:of:at:)`` reads the value
    /// there; a string, number or boolean of the attribute's type is read where it lies, without the value made.
    package static func attribute(at entry: Int, of tape: JSONTape, of entity: Entity, at index: Int) -> Result<AttributeValue?, Problem> {
        let type = entity.attributes[index].type, dateFormat = entity.attributes[index].dateFormat
        if let value = AttributeValue(tape: tape, entry: entry, as: type, dateFormat: dateFormat) { return .success(value) }
        return attribute(tape.json(at: entry), of: entity, at: index)
    }

    /// The problem of a value an attribute's reader refused, its message after `subject`.
    private static func problem(_ error: AttributeValueError, _ subject: String) -> Problem {
        Problem(kind: error.isOutOfRange ? .outOfRange : .typeMismatch, message: "\(subject): \(error.message)")
    }

    /// A key that names no property of the entity, with a did-you-mean or the entity's keys.
    package static func unknownKey(_ key: String, value: JSON, of entity: Entity) -> Problem {
        let kind: String
        switch value {
        case .object, .array: kind = "relationship"
        default: kind = "attribute"
        }
        let keys = entity.propertyKeys
        // A property's own name where the entity's key style spells it otherwise: say how it is written.
        if entity.keyStyle != .propertyNames {
            let index = entity.attributeIndex(named: key).map { entity.attributeKeys[$0] }
                ?? entity.relationshipIndex(named: key).map { entity.relationshipKeys[$0] }
            if let written = index {
                return Problem(
                    kind: .unknownKey,
                    message: "\(entity.name) writes '\(TerminalText.escaped(key))' as '\(written)' (keyStyle \(entity.keyStyle.rawValue))")
            }
        }
        let suggestion = Suggestion.didYouMean(key, among: keys)
        return Problem(
            kind: .unknownKey,
            message: "unknown \(kind) '\(TerminalText.escaped(key))' of \(entity.name)"
                + (suggestion.isEmpty ? "; \(entity.name) has: \(keys.joined(separator: ", "))" : suggestion))
    }

    /// Whether a relationship's value, or a to-many's element, is an identity value rather than an object: a string,
    /// number or boolean where the relationship is given by identity (``RelationshipDescription/isByIdentity``).
    package static func isIdentityValue(_ value: JSON, for relationship: RelationshipDescription) -> Bool {
        relationship.isByIdentity && isIdentityValue(value)
    }

    /// Whether a value is of a kind that states an identity (a string, number or boolean), where the relationship is
    /// given by identity.
    package static func isIdentityValue(_ value: JSON) -> Bool {
        isIdentityValue(value.kind)
    }

    /// Whether a value of this kind states an identity (a string, number or boolean), where the relationship is given
    /// by identity.
    @inline(__always)
    package static func isIdentityValue(_ kind: JSONKind) -> Bool {
        switch kind {
        case .string, .number, .bool: return true
        default: return false
        }
    }

    /// Whether a relationship's value has the relationship's shape: what ``shape(of:for:of:destination:)`` finds no
    /// problem with, decided from the relationship's two flags alone.
    package static func hasShape(_ value: JSON, isToMany: Bool, isByIdentity: Bool) -> Bool {
        hasShape(value.kind, isToMany: isToMany, isByIdentity: isByIdentity)
    }

    /// Whether a relationship's value of this kind has the relationship's shape, by the rule above.
    @inline(__always)
    package static func hasShape(_ kind: JSONKind, isToMany: Bool, isByIdentity: Bool) -> Bool {
        switch kind {
        case .null: true
        case .array: isToMany
        case .object: !isToMany
        case .string, .number, .bool: !isToMany && isByIdentity
        }
    }

    /// The identity value a relationship given by identity states for a member of `destination`, whose identity is
    /// one attribute (`null` is never one: the caller passes strings, numbers and booleans only).
    package static func identityValue(_ value: JSON, destination: Entity) -> Result<AttributeValue, Problem> {
        let attribute = destination.attributes[destination.identityIndices[0]]
        do {
            return .success(try AttributeValue(json: value, as: attribute.type, dateFormat: attribute.dateFormat))
        } catch {
            return .failure(problem(error, "reference to \(destination.name) by \(attribute.name)"))
        }
    }

    /// The problem of a relationship's value that is neither null nor of the relationship's shape (an array of
    /// objects for a to-many, an object for a to-one, or identity values for a relationship given by identity); nil
    /// when the shape is right.
    package static func shape(of value: JSON, for relationship: RelationshipDescription, of entity: Entity, destination: Entity) -> Problem? {
        if hasShape(value, isToMany: relationship.isToMany, isByIdentity: relationship.isByIdentity) { return nil }
        var byIdentity: String { relationship.isByIdentity ? " or their \(destination.identity[0]) values" : "" }
        // How the model could take an identity value it does not: worked out for a problem only.
        var optIn: String { relationship.isByIdentity || relationship.owns ? "" : identityOptIn(value, destination: destination) }
        if relationship.isToMany {
            // Not an array nor null.
            if case .object = value {
                return Problem(
                    kind: .cardinalityMismatch,
                    message: "an object for to-many relationship '\(relationship.name)' of \(entity.name); expected an array of \(destination.name) objects\(byIdentity)")
            }
            return Problem(
                kind: isIdentityValue(value, for: relationship) ? .cardinalityMismatch : .typeMismatch,
                message: "to-many relationship '\(relationship.name)' of \(entity.name): expected an array of \(destination.name) objects\(byIdentity), got \(value.kindDescription)\(optIn)")
        }
        // Not an object, null, nor an identity value the relationship takes.
        if case .array = value {
            return Problem(
                kind: .cardinalityMismatch,
                message: "an array for to-one relationship '\(relationship.name)' of \(entity.name); expected one \(destination.name) object\(byIdentity.isEmpty ? "" : " or its \(destination.identity[0])") or null")
        }
        return Problem(
            kind: .typeMismatch,
            message: "to-one relationship '\(relationship.name)' of \(entity.name): expected a \(destination.name) object or null, got \(value.kindDescription)\(optIn)")
    }

    /// The `"$ref"` of a reference object: the id it names, or what is wrong with it.
    package static func reference(_ reference: JSON, members: JSONObject) -> Result<String, Problem> {
        guard case .string(let id) = reference else {
            return .failure(
                Problem(kind: .typeMismatch, message: "\"$ref\" names an \"$id\" and must be a string, got \(reference.kindDescription)"))
        }
        let extra = members.keys.filter { $0 != "$ref" }.sorted()
        guard extra.isEmpty else {
            return .failure(
                Problem(
                    kind: .unresolvedReference,
                    message: "a \"$ref\" object has no other keys; found \(extra.map { "'\(TerminalText.escaped($0))'" }.joined(separator: ", "))"))
        }
        return .success(id)
    }

    /// The message of a value that is not an object where one is expected.
    package static func notAnObject(_ json: JSON, expected: Entity?) -> Problem {
        Problem(
            kind: .typeMismatch,
            message: "expected an object with \"class\"\(expected.map { " (a \($0.name))" } ?? ""), got \(json.kindDescription)"
                + (expected.map { identityOptIn(json, destination: $0) } ?? ""))
    }

    /// Where a relationship met an identity value it does not take, how the model could take it; else empty.
    private static func identityOptIn(_ value: JSON, destination: Entity) -> String {
        switch value {
        case .string, .number, .bool:
            guard destination.identity.count == 1 else { return "" }
            return "; \"byIdentity\": true on the relationship in the model file lets a \(destination.name) be named by "
                + "its \(destination.identity[0]) alone"
        default:
            return ""
        }
    }

    /// The problem of an `"$id"` that is not a string.
    package static func idProblem(_ value: JSON) -> Problem? {
        if case .string = value { return nil }
        return Problem(kind: .typeMismatch, message: "\"$id\" must be a string, got \(value.kindDescription)")
    }
}
