import Foundation
import SeedKitJSON
import SeedKitModel

/// Infers an entity model from a template set, for a set that comes without a model file.
///
///     let set = try TemplateSet(directory: URL(fileURLWithPath: "Templates"))
///     let inferred = ModelInference.infer(from: set)
///     if let model = inferred.model { try model.write(to: modelURL) } else { print(inferred.issues) }
///
/// The rules, each chosen so that an inferred model never claims more than the templates show:
/// - Entities are the values of `"class"`. No entity gets a parent: nothing in a template says one class extends
///   another.
/// - An attribute's type comes from its values: strings (dates when every one parses as ISO 8601, uuids when every
///   one is UUID-shaped), integers (doubles when any has a fraction), bools; arrays and objects that are not related
///   objects are `json`. Integers widen to doubles and dates or uuids to strings; any other mix is an issue located
///   at both places. A key that is null, or missing from an object of its entity, makes the attribute optional.
/// - A relationship comes from a nested object with `"class"` or `{"$ref": …}` (to-one) or an array of them
///   (to-many); its destination is the nested class, or the class of the object the `$ref` names. Objects without
///   `"class"` in such an array belong to that destination. Inverses are never inferred: nesting alone cannot tell a
///   pair of relationships from two independent ones.
/// - Identity is inferred only when it is evident: every nested object of the entity that holds nothing but scalar
///   values (a reference, such as `{"class": "Department", "name": "Sales"}`) uses the same keys; every top-level
///   object of the entity has those keys, with values unique among them; and every reference names one of them.
///   Those keys are the identity, and references do not count as objects lacking the entity's other keys.
///   Otherwise the entity has no identity.
///
/// - Complexity: O(*n*) in the total size of the templates.
public enum ModelInference {
    /// The inferred model, or nil with the issues that prevent it.
    public static func infer(from set: TemplateSet) -> (model: EntityModel?, issues: [Diagnostic]) {
        var inference = Inference()
        inference.read(set)
        return inference.result()
    }
}

/// Where a value was seen: a file and a pointer, located lazily since only issues need line and column.
private struct Place {
    var file: Int
    var pointer: JSONPointer
}

/// What one key's values say about the property it names.
private enum Shape: Equatable {
    case attribute(AttributeType)
    case toOne(String?)
    case toMany(String?)
    /// Only nulls or empty arrays so far: no type yet.
    case unknown

    var description: String {
        switch self {
        case .attribute(let type): "a value of type \(type)"
        case .toOne: "a related object"
        case .toMany: "an array of related objects"
        case .unknown: "no value"
        }
    }
}

private struct KeyEvidence {
    var shape: Shape
    var place: Place
    /// Objects of the entity (references excluded once identity is known) that have a non-null value.
    var valuedObjects: Set<Int> = []
}

/// One object of an entity, as far as identity inference needs it.
private struct ObjectRecord {
    var entity: String
    var isNested: Bool
    /// The object's keys besides `class` and `$id`, and whether all of their values are scalars.
    var keys: Set<String>
    var isScalarOnly: Bool
    var scalars: [String: JSON]
}

private struct Inference {
    var documents: [JSONDocument?] = []
    var displayPaths: [String] = []
    var issues: [Diagnostic] = []
    var entityOrder: [String] = []
    var evidence: [String: [String: KeyEvidence]] = [:]
    var objects: [ObjectRecord] = []
    var classOfID: [String: String] = [:]

    mutating func read(_ set: TemplateSet) {
        issues = set.issues
        for file in set.files {
            displayPaths.append(file.displayPath)
            do {
                documents.append(try JSONDocument(parsing: file.bytes, file: file.displayPath))
            } catch {
                documents.append(nil)
                issues.append(error.diagnostic)
            }
        }
        // `$ref` may point forward, into a later file: every `$id` is collected before any reference is judged.
        for document in documents.compactMap({ $0 }) { collectIDs(document.value) }
        for (index, document) in documents.enumerated() {
            guard let value = document?.value else { continue }
            let root = Place(file: index, pointer: .root)
            switch value {
            case .array(let elements):
                for (position, element) in elements.enumerated() {
                    visitTopLevel(element, Place(file: index, pointer: root.pointer.appending(position)))
                }
            default:
                visitTopLevel(value, root)
            }
        }
    }

    mutating func collectIDs(_ value: JSON) {
        switch value {
        case .object(let members):
            if let id = members["$id"]?.stringValue, let name = members["class"]?.stringValue { classOfID[id] = name }
            for member in members.values { collectIDs(member) }
        case .array(let elements):
            for element in elements { collectIDs(element) }
        default:
            break
        }
    }

    mutating func visitTopLevel(_ value: JSON, _ place: Place) {
        guard case .object(let members) = value, let name = members["class"]?.stringValue else {
            issue(at: place, "a template object needs a \"class\" naming its entity")
            return
        }
        visit(members, entity: name, place, isNested: false)
    }

    /// Records the evidence of one object of `entity`, and of the objects nested in it.
    mutating func visit(_ members: JSONObject, entity: String, _ place: Place, isNested: Bool) {
        if evidence[entity] == nil {
            evidence[entity] = [:]
            entityOrder.append(entity)
        }
        let objectIndex = objects.count
        var record = ObjectRecord(entity: entity, isNested: isNested, keys: [], isScalarOnly: true, scalars: [:])
        objects.append(record)
        for key in members.keys.sorted() where key != "class" && key != "$id" {
            let value = members[key]!
            let keyPlace = Place(file: place.file, pointer: place.pointer.appending(key))
            record.keys.insert(key)
            let shape: Shape
            switch value {
            case .null:
                record.isScalarOnly = false
                shape = .unknown
            case .bool, .number, .string:
                record.scalars[key] = value
                shape = .attribute(Self.type(of: value))
            case .object(let nested):
                record.isScalarOnly = false
                if let nestedClass = nested["class"]?.stringValue {
                    visit(nested, entity: nestedClass, keyPlace, isNested: true)
                    shape = .toOne(nestedClass)
                } else if let id = nested["$ref"]?.stringValue {
                    shape = .toOne(classOfID[id])
                } else {
                    shape = .attribute(.json)
                }
            case .array(let elements):
                record.isScalarOnly = false
                shape = visitArray(elements, keyPlace)
            }
            note(shape, entity: entity, key: key, keyPlace, object: objectIndex, isNull: value == .null)
        }
        objects[objectIndex] = record
    }

    /// An array of related objects is a to-many relationship; any other array is a `json` value.
    mutating func visitArray(_ elements: [JSON], _ place: Place) -> Shape {
        guard !elements.isEmpty else { return .unknown }
        var destination: String?
        for element in elements {
            guard case .object(let nested) = element else { return .attribute(.json) }
            let named = nested["class"]?.stringValue ?? nested["$ref"]?.stringValue.flatMap { classOfID[$0] }
            if let named, let known = destination, known != named {
                issue(at: place, "related objects of classes \(known) and \(named) in one array: the model cannot be inferred")
                return .toMany(nil)
            }
            destination = destination ?? named
        }
        guard elements.contains(where: { $0["class"] != nil || $0["$ref"] != nil }) else { return .attribute(.json) }
        for (position, element) in elements.enumerated() {
            guard case .object(let nested) = element, nested["$ref"] == nil, let destination else { continue }
            visit(nested, entity: destination, Place(file: place.file, pointer: place.pointer.appending(position)), isNested: true)
        }
        return .toMany(destination)
    }

    static func type(of value: JSON) -> AttributeType {
        switch value {
        case .bool: return .bool
        case .number(let number): return number.int64Value != nil ? .integer : .double
        case .string(let text):
            if Timestamp(iso8601: text) != nil { return .date }
            if UUID(uuidString: text) != nil { return .uuid }
            return .string
        default: return .json
        }
    }

    mutating func note(_ shape: Shape, entity: String, key: String, _ place: Place, object: Int, isNull: Bool) {
        guard var known = evidence[entity]![key] else {
            var new = KeyEvidence(shape: shape, place: place)
            if !isNull { new.valuedObjects.insert(object) }
            evidence[entity]![key] = new
            return
        }
        if !isNull { known.valuedObjects.insert(object) }
        if let merged = Self.merge(known.shape, shape) {
            if known.shape == .unknown { known.place = place }
            known.shape = merged
        } else {
            issue(at: place, "\(entity).\(key) is \(shape.description) here but \(known.shape.description) at \(location(known.place)): the model cannot be inferred")
        }
        evidence[entity]![key] = known
    }

    /// The shape both pieces of evidence allow, or nil when they contradict each other.
    static func merge(_ a: Shape, _ b: Shape) -> Shape? {
        switch (a, b) {
        case _ where a == b: return a
        case (.unknown, _): return b
        case (_, .unknown): return a
        case (.attribute(let x), .attribute(let y)):
            let pair: Set = [x, y]
            if pair == [.integer, .double] { return .attribute(.double) }
            if pair.isSubset(of: [.string, .date, .uuid]) { return .attribute(.string) }
            return nil
        case (.toOne(let x), .toOne(let y)): return x == nil || y == nil || x == y ? .toOne(x ?? y) : nil
        case (.toMany(let x), .toMany(let y)): return x == nil || y == nil || x == y ? .toMany(x ?? y) : nil
        default: return nil
        }
    }

    func location(_ place: Place) -> String {
        let file = displayPaths[place.file]
        guard let location = documents[place.file]?.location(of: place.pointer) else { return file }
        return "\(file):\(location.line):\(location.column)"
    }

    mutating func issue(at place: Place, _ message: String) {
        let location = documents[place.file]?.location(of: place.pointer)
        issues.append(
            Diagnostic(
                .inference, file: displayPaths[place.file], line: location?.line, column: location?.column,
                pointer: place.pointer, message: message))
    }

    /// The identity the entity's references make evident, per the rule in ``ModelInference``; empty otherwise.
    func identity(of entity: String) -> [String] {
        let mine = objects.filter { $0.entity == entity }
        let references = mine.filter { $0.isNested && $0.isScalarOnly }
        let topLevel = mine.filter { !$0.isNested }
        guard let keys = references.first?.keys, !keys.isEmpty, !topLevel.isEmpty,
              references.allSatisfy({ $0.keys == keys }) else { return [] }
        let sortedKeys = keys.sorted()
        var seen: Set<[JSON]> = []
        for object in topLevel {
            let values = sortedKeys.compactMap { object.scalars[$0] }
            guard values.count == keys.count, seen.insert(values).inserted else { return [] }
        }
        guard references.allSatisfy({ reference in seen.contains(sortedKeys.map { reference.scalars[$0]! }) }) else { return [] }
        return sortedKeys
    }

    mutating func result() -> (model: EntityModel?, issues: [Diagnostic]) {
        for (entity, keys) in evidence {
            for (key, known) in keys {
                guard known.shape == .toOne(nil) || known.shape == .toMany(nil) else { continue }
                issue(at: known.place, "\(entity).\(key): no related object names its class, so its entity cannot be inferred")
            }
        }
        guard issues.isEmpty else { return (nil, issues.sorted()) }
        var declarations: [EntityDescription] = []
        for entity in entityOrder.sorted() {
            let identity = identity(of: entity)
            // Once identity is known, references are names of objects, not objects lacking the other keys.
            let counted = Set(objects.indices.filter { index in
                let object = objects[index]
                return object.entity == entity && !(identity.count > 0 && object.isNested && object.isScalarOnly
                    && object.keys == Set(identity))
            })
            var declaration = EntityDescription(entity, identity: identity)
            for (key, known) in evidence[entity]!.sorted(by: { $0.key < $1.key }) {
                let isOptional = !counted.isSubset(of: known.valuedObjects)
                switch known.shape {
                case .attribute(let type):
                    declaration.attributes.append(AttributeDescription(key, type, isOptional: isOptional))
                case .unknown:
                    declaration.attributes.append(AttributeDescription(key, .json, isOptional: true))
                case .toOne(let destination):
                    declaration.relationships.append(RelationshipDescription(key, to: destination!))
                case .toMany(let destination):
                    declaration.relationships.append(RelationshipDescription(key, to: destination!, isToMany: true))
                }
            }
            declarations.append(declaration)
        }
        do {
            return (try EntityModel(declarations), [])
        } catch let errors as ModelErrors {
            return (nil, errors.errors.map { Diagnostic(Diagnostic.Code($0.kind), message: "inferred model: \($0)") })
        } catch {
            return (nil, [Diagnostic(.inference, message: "inferred model: \(error)")])
        }
    }
}
