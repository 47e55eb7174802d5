import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

// Reading a template set into evidence: every object stated (top-level or nested) and what each key's values are.

/// Where a value was seen: a file, a pointer, and the order of reading, located lazily since only issues and
/// choices need line and column.
struct InferencePlace {
    var file: Int
    var pointer: JSONPointer
    var order: Int
}

/// What one value says about the property its key names.
enum InferredKind: Hashable {
    case integer, double, bool, string, date, uuid, decimal, json
    case toOne, toMany
    /// `[]`: a to-many relationship or a `json` array, as the other values say.
    case emptyArray

    var description: String {
        switch self {
        case .toOne: "a related object"
        case .toMany: "an array of related objects"
        case .emptyArray: "an empty array"
        default: "a value of type \(self)"
        }
    }
}

/// What the values of one key of one entity say.
struct KeyEvidence {
    /// The first place of each kind of value the key holds (nulls aside).
    var kinds: [InferredKind: InferencePlace] = [:]
    /// The classes of the related objects, with the first place of each.
    var classes: [String: InferencePlace] = [:]
    /// Whether some value names its object by `{"$ref": …}`, rather than stating it.
    var holdsReferences = false
    /// A `$ref` that names no `$id` of the set.
    var unresolved: InferencePlace?
    /// The first scalar value, as an example for the choices.
    var example: JSON?
}

/// One object as a template states it, top-level or nested.
struct StatedObject {
    var entity: String
    var place: InferencePlace
    var isNested: Bool
    /// Scalar values (nulls included) by key.
    var scalars: [String: JSON] = [:]
    /// The keys with a value other than null.
    var valued: Set<String> = []
    /// Whether every value is a scalar: a nested object like this may be a reference to an object stated elsewhere.
    var isScalarOnly = true
}

struct Inference {
    var documents: [JSONDocument?] = []
    var displayPaths: [String] = []
    var issues: [Diagnostic] = []
    var entityOrder: [String] = []
    var evidence: [String: [String: KeyEvidence]] = [:]
    var statements: [StatedObject] = []
    var classOfID: [String: String] = [:]
    /// Every value of `"class"` in the set.
    var classNames: Set<String> = []
    /// Entities named after the key of a list of objects without `"class"`: the first owner entity and key.
    var keyNamed: [String: (owner: String, key: String)] = [:]
    private var order = 0

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
        // `$ref` may point forward, into a later file: every `$id` and class is collected before anything is judged.
        for document in documents.compactMap({ $0 }) { collectNames(document.value) }
        for (index, document) in documents.enumerated() {
            guard let value = document?.value else { continue }
            if case .array(let elements) = value {
                for (position, element) in elements.enumerated() {
                    visitTopLevel(element, place(index, JSONPointer.root.appending(position)))
                }
            } else {
                visitTopLevel(value, place(index, .root))
            }
        }
    }

    private mutating func place(_ file: Int, _ pointer: JSONPointer) -> InferencePlace {
        order += 1
        return InferencePlace(file: file, pointer: pointer, order: order)
    }

    private mutating func collectNames(_ value: JSON) {
        switch value {
        case .object(let members):
            if let name = members["class"]?.stringValue {
                classNames.insert(name)
                if let id = members["$id"]?.stringValue { classOfID[id] = name }
            }
            for member in members.values { collectNames(member) }
        case .array(let elements):
            for element in elements { collectNames(element) }
        default:
            break
        }
    }

    private mutating func visitTopLevel(_ value: JSON, _ place: InferencePlace) {
        guard case .object(let members) = value, let name = members["class"]?.stringValue else {
            issue(at: place, "a template object needs a \"class\" naming its entity")
            return
        }
        visit(members, entity: name, place, isNested: false)
    }

    /// Records one object of `entity` and its keys' evidence, and visits the objects nested in it.
    private mutating func visit(_ members: JSONObject, entity: String, _ place: InferencePlace, isNested: Bool) {
        if evidence[entity] == nil {
            evidence[entity] = [:]
            entityOrder.append(entity)
        }
        let index = statements.count
        statements.append(StatedObject(entity: entity, place: place, isNested: isNested))
        var statement = StatedObject(entity: entity, place: place, isNested: isNested)
        for key in members.keys.sorted() where key != "class" && key != "$id" {
            let value = members[key]!
            let keyPlace = self.place(place.file, place.pointer.appending(key))
            switch value {
            case .null:
                statement.scalars[key] = .null
                if evidence[entity]![key] == nil { evidence[entity]![key] = KeyEvidence() }
                continue
            case .bool, .number, .string:
                statement.scalars[key] = value
                note(Self.kind(of: value), entity: entity, key: key, keyPlace)
                if evidence[entity]![key]!.example == nil { evidence[entity]![key]!.example = value }
            case .object(let nested):
                statement.isScalarOnly = false
                if let nestedClass = nested["class"]?.stringValue {
                    visit(nested, entity: nestedClass, keyPlace, isNested: true)
                    note(.toOne, entity: entity, key: key, keyPlace, destination: nestedClass)
                } else if let id = nested["$ref"]?.stringValue {
                    note(.toOne, entity: entity, key: key, keyPlace, reference: id)
                } else {
                    note(.json, entity: entity, key: key, keyPlace)
                }
            case .array(let elements):
                statement.isScalarOnly = false
                visitArray(elements, entity: entity, key: key, keyPlace)
            }
            statement.valued.insert(key)
        }
        statements[index] = statement
    }

    /// An array of related objects is a to-many relationship; an array of objects without `"class"`, a list of
    /// objects of the entity its key names; any other array, a `json` value.
    private mutating func visitArray(_ elements: [JSON], entity: String, key: String, _ place: InferencePlace) {
        guard !elements.isEmpty else { return note(.emptyArray, entity: entity, key: key, place) }
        let objects = elements.compactMap { element -> JSONObject? in
            if case .object(let members) = element { return members }
            return nil
        }
        guard objects.count == elements.count else { return note(.json, entity: entity, key: key, place) }
        // Objects without "class" beside related objects are of the class those name.
        let classOfID = self.classOfID
        var destination = objects.lazy.compactMap {
            $0["class"]?.stringValue ?? $0["$ref"]?.stringValue.flatMap { classOfID[$0] }
        }
        .first
        if destination == nil && !objects.contains(where: { $0["$ref"] != nil }) {
            // A list of objects without "class": objects of the entity named after the key, when they look like it.
            guard let name = Self.entityName(forKey: key),
                objects.allSatisfy({ $0.keys.allSatisfy { ModelValidator.isValidName($0) } && !$0.isEmpty })
            else { return note(.json, entity: entity, key: key, place) }
            if !classNames.contains(name) && keyNamed[name] == nil { keyNamed[name] = (entity, key) }
            destination = name
        }
        for (position, object) in objects.enumerated() {
            let elementPlace = self.place(place.file, place.pointer.appending(position))
            if let id = object["$ref"]?.stringValue {
                note(.toMany, entity: entity, key: key, elementPlace, reference: id)
            } else {
                let name = object["class"]?.stringValue ?? destination
                if let name { visit(object, entity: name, elementPlace, isNested: true) }
                note(.toMany, entity: entity, key: key, elementPlace, destination: name)
            }
        }
    }

    /// Notes a value of `key`: its kind, and for a relationship the class it names or the `$id` it refers to.
    private mutating func note(
        _ kind: InferredKind, entity: String, key: String, _ place: InferencePlace, destination: String? = nil,
        reference: String? = nil
    ) {
        var known = evidence[entity]![key] ?? KeyEvidence()
        if known.kinds[kind] == nil { known.kinds[kind] = place }
        if let reference {
            known.holdsReferences = true
            if let name = classOfID[reference] {
                if known.classes[name] == nil { known.classes[name] = place }
            } else if known.unresolved == nil {
                known.unresolved = place
            }
        }
        if let destination, known.classes[destination] == nil { known.classes[destination] = place }
        evidence[entity]![key] = known
    }

    static func kind(of value: JSON) -> InferredKind {
        switch value {
        case .bool: return .bool
        case .number(let number): return number.int64Value != nil ? .integer : .double
        case .string(let text):
            if Timestamp(iso8601: text) != nil { return .date }
            if UUID(uuidString: text) != nil { return .uuid }
            if isExactDecimal(text) { return .decimal }
            return .string
        default: return .json
        }
    }

    /// `1250000.00`, `-0.5`: digits, a point and digits, as money is written; not `7`, `1e3` or `.5`, which are
    /// more likely codes or numbers written as text.
    static func isExactDecimal(_ text: String) -> Bool {
        let unsigned = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        guard let point = unsigned.firstIndex(of: UInt8(ascii: ".")) else { return false }
        let whole = unsigned[..<point]
        let fraction = unsigned[unsigned.index(after: point)...]
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        return !whole.isEmpty && !fraction.isEmpty && whole.allSatisfy(isDigit) && fraction.allSatisfy(isDigit)
            && ScaledDecimal(exactly: text) != nil
    }

    /// The entity a list's key names: `addresses` → `Address`, `line_items` → `LineItem`, `staff` → `Staff`; nil
    /// when that is not a valid entity name.
    static func entityName(forKey key: String) -> String? {
        let words = key.split(separator: "_")
        guard let last = words.last else { return nil }
        let singular: Substring
        if last.hasSuffix("ies") && last.count > 3 {
            singular = last.dropLast(3) + "y"
        } else if ["sses", "shes", "ches", "xes", "zes"].contains(where: { last.hasSuffix($0) }) {
            singular = last.dropLast(2)
        } else if last.hasSuffix("s") && !["ss", "us", "is"].contains(where: { last.hasSuffix($0) }) {
            singular = last.dropLast()
        } else {
            singular = last
        }
        let name = (words.dropLast() + [singular]).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return ModelValidator.isValidName(name) ? name : nil
    }

    /// `file:line:column`, the file quoted when its name holds control characters.
    func location(_ place: InferencePlace) -> String {
        let file = TerminalText.quoted(displayPaths[place.file])
        guard let location = documents[place.file]?.location(of: place.pointer) else { return file }
        return "\(file):\(location.line):\(location.column)"
    }

    mutating func issue(at place: InferencePlace, _ message: String) {
        let location = documents[place.file]?.location(of: place.pointer)
        issues.append(
            Diagnostic(
                .inference, file: displayPaths[place.file], line: location?.line, column: location?.column,
                pointer: place.pointer, message: message))
    }
}
