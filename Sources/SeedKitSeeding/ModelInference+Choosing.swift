import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

// From evidence to a model: property types, identity, subentities, ownership and inverses, each choice explained.

/// What the values of one key make of its property.
enum InferredShape: Equatable {
    case attribute(AttributeType)
    case toOne
    case toMany
    /// Only nulls or empty arrays: an optional `json` attribute.
    case unknown
}

/// The identity of an entity tree, or why there is none.
private struct IdentityFinding {
    var keys: [String] = []
    var reason: String
}

/// Attribute names that usually identify, most telling first.
private let identifierNames = [
    "id", "uuid", "key", "code", "slug", "email", "username", "login", "handle", "sku", "isbn", "name", "title",
]

extension Inference {
    mutating func result() -> ModelInference.Result {
        var shapes: [String: [String: InferredShape]] = [:]
        for entity in entityOrder {
            for (key, known) in evidence[entity]! {
                if let shape = shape(of: known, entity: entity, key: key) { shapes[entity, default: [:]][key] = shape }
            }
        }
        guard issues.isEmpty else { return ModelInference.Result(model: nil, issues: issues.sorted(), choices: []) }
        var choosing = Choosing(inference: self, shapes: shapes)
        choosing.chooseParents()
        choosing.chooseIdentities()
        choosing.chooseOwnership()
        guard var relationships = choosing.resolveRelationships() else {
            return ModelInference.Result(model: nil, issues: choosing.issues.sorted(), choices: [])
        }
        choosing.chooseInverses(&relationships)
        return choosing.build(relationships)
    }

    /// The property the kinds of `known` make, or nil after noting the contradiction as an issue.
    private mutating func shape(of known: KeyEvidence, entity: String, key: String) -> InferredShape? {
        let kinds = Set(known.kinds.keys)
        if let shape = Self.shape(of: kinds) {
            if (shape == .toOne || shape == .toMany) && known.classes.isEmpty, let place = known.unresolved {
                issue(
                    at: place, "\(entity).\(key): no related object names its class, so its entity cannot be inferred")
                return nil
            }
            return shape
        }
        // The pair that contradicts, read first: said at the later place, pointing at the earlier.
        let ordered = known.kinds.sorted { $0.value.order < $1.value.order }
        var conflict: (earlier: (InferredKind, InferencePlace), later: (InferredKind, InferencePlace))?
        for (index, later) in ordered.enumerated() {
            if let earlier = ordered[..<index].first(where: { Self.shape(of: [$0.key, later.key]) == nil }) {
                conflict = ((earlier.key, earlier.value), (later.key, later.value))
                break
            }
        }
        let (earlier, later) =
            conflict ?? ((ordered[0].key, ordered[0].value), (ordered.last!.key, ordered.last!.value))
        issue(
            at: later.1,
            "\(entity).\(key) is \(later.0.description) here but \(earlier.0.description) at "
                + "\(location(earlier.1)): the model cannot be inferred")
        return nil
    }

    /// The property a set of kinds of value makes, or nil when they contradict each other.
    static func shape(of kinds: Set<InferredKind>) -> InferredShape? {
        var kinds = kinds
        if kinds.count > 1 && kinds.contains(.emptyArray) {
            guard kinds.isSubset(of: [.emptyArray, .toMany, .json]) else { return nil }
            kinds.remove(.emptyArray)
        }
        let strings: Set<InferredKind> = [.string, .date, .uuid, .decimal]
        switch kinds {
        case []: return .unknown
        case [.emptyArray]: return .unknown
        case [.toOne]: return .toOne
        case [.toMany]: return .toMany
        case [.integer]: return .attribute(.integer)
        case [.bool]: return .attribute(.bool)
        case [.json]: return .attribute(.json)
        case [.string]: return .attribute(.string)
        case [.date]: return .attribute(.date)
        case [.uuid]: return .attribute(.uuid)
        case [.decimal]: return .attribute(.decimal)
        case _ where kinds.isSubset(of: [.integer, .double]): return .attribute(.double)
        case _ where kinds.contains(.decimal) && kinds.isSubset(of: [.decimal, .integer, .double]):
            return .attribute(.decimal)
        case _ where kinds.isSubset(of: strings): return .attribute(.string)
        default: return nil
        }
    }
}

/// The choices, made in order: parents first (they decide which statements an identity covers), then identity,
/// ownership, destinations and inverses.
private struct Choosing {
    var inference: Inference
    var shapes: [String: [String: InferredShape]]
    var issues: [Diagnostic] = []
    var choices: [ModelInference.Choice] = []
    var parents: [String: String] = [:]
    var identities: [String: [String]] = [:]
    var owned: Set<String> = []
    /// The statements of each entity, by index.
    let statementsOf: [String: [Int]]

    init(inference: Inference, shapes: [String: [String: InferredShape]]) {
        self.inference = inference
        self.shapes = shapes
        var statementsOf: [String: [Int]] = [:]
        for (index, statement) in inference.statements.enumerated() {
            statementsOf[statement.entity, default: []].append(index)
        }
        self.statementsOf = statementsOf
    }

    var entities: [String] { inference.entityOrder.sorted() }

    func keys(of entity: String) -> Set<String> { Set(inference.evidence[entity]!.keys) }

    func root(of entity: String) -> String {
        var entity = entity
        while let parent = parents[entity] { entity = parent }
        return entity
    }

    /// The entity and its subentities, at every depth.
    func tree(of entity: String) -> [String] {
        [entity] + entities.filter { $0 != entity && ancestors(of: $0).contains(entity) }
    }

    func ancestors(of entity: String) -> [String] {
        var chain: [String] = []
        var current = entity
        while let parent = parents[current] {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    mutating func choose(_ kind: ModelInference.Choice.Kind, _ subject: String, _ reason: String) {
        choices.append(ModelInference.Choice(kind: kind, subject: subject, reason: reason))
    }

    // MARK: Identity

    /// The identity of the objects of `members`, per the rule in ``ModelInference``, or why there is none (nil when
    /// there was nothing to try).
    func findIdentity(of members: [String]) -> IdentityFinding? {
        let indices = members.flatMap { statementsOf[$0] ?? [] }.sorted()
        let statements = indices.map { inference.statements[$0] }
        guard !statements.isEmpty else { return nil }
        var failures: [String] = []
        // References: nested objects holding nothing but some of their entity's scalar values.
        let references = statements.filter {
            $0.isNested && $0.isScalarOnly && $0.valued.count < keys(of: $0.entity).count
        }
        if let first = references.first, !first.valued.isEmpty, references.allSatisfy({ $0.valued == first.valued }) {
            let candidate = first.valued.sorted()
            switch check(candidate, statements) {
            case .success(let agreement):
                return IdentityFinding(
                    keys: candidate,
                    reason: "references name objects by \(candidate.joined(separator: " and ")) alone "
                        + "(\(inference.location(first.place))); \(tellsApart(agreement))")
            case .failure(let refusal):
                failures.append(refusal.reason)
            }
        }
        let scalarKeys = members.flatMap { member in
            (shapes[member] ?? [:]).filter { key, shape in
                shape == .attribute(.string) || shape == .attribute(.integer) || shape == .attribute(.uuid)
            }.keys
        }
        let named = Set(scalarKeys).sorted { rank($0) < rank($1) || (rank($0) == rank($1) && $0 < $1) }
        for key in named {
            switch check([key], statements) {
            case .success(let agreement) where agreement.statedTwice > 0 || rank(key) < Int.max:
                let why =
                    rank(key) < Int.max
                    ? "named like an identifier and stated by every object; " : "stated by every object; "
                return IdentityFinding(keys: [key], reason: why + tellsApart(agreement))
            case .success:
                continue
            case .failure(let refusal):
                if rank(key) < Int.max { failures.append(refusal.reason) }
            }
        }
        guard let why = failures.first else { return nil }
        return IdentityFinding(reason: why)
    }

    /// "its values differ in every object", or which object is stated more than once, alike.
    private func tellsApart(_ agreement: Agreement) -> String {
        guard let (values, times, places) = agreement.example else { return "its values differ in every object" }
        let shown = places.map(inference.location).joined(separator: ", ") + (times > 2 ? ", …" : "")
        let more = agreement.statedTwice - 1
        let others = more > 0 ? "; \(more) more object\(more > 1 ? "s" : "") likewise" : ""
        return "its values differ but where one object is stated more than once, alike (\(values) \(times) times: "
            + "\(shown)\(others))"
    }

    /// Where `key` stands among identifier names; `Int.max` for other names.
    private func rank(_ key: String) -> Int {
        if let index = identifierNames.firstIndex(of: key) { return index }
        if key.hasSuffix("Id") || key.hasSuffix("_id") || key.hasSuffix("ID") || key.hasSuffix("Code")
            || key.hasSuffix("_code")
        {
            return identifierNames.count
        }
        return Int.max
    }

    /// Whether `keys` identify `statements`: every one states them (not null, not empty), and statements with the
    /// same values agree on every value both state. Success carries the objects stated more than once.
    ///
    /// - Complexity: O(*n*) in the number of values the statements hold.
    private func check(_ keys: [String], _ statements: [StatedObject]) -> Result<Agreement, IdentityRefusal> {
        struct Object {
            var values: [String: (value: [UInt8], place: InferencePlace)] = [:]
            /// The identity values as JSON, for the example.
            var text: [String: String] = [:]
            var count = 0
            /// The first two statements, for the example.
            var places: [InferencePlace] = []
        }
        var objects: [Object] = []
        var objectOf: [[[UInt8]]: Int] = [:]
        let named = keys.joined(separator: ", ")
        for statement in statements {
            var identity: [[UInt8]] = []
            for key in keys {
                guard let value = statement.scalars[key], value != .null, value != .string("") else {
                    return .failure(
                        IdentityRefusal(
                            "\(named) is not stated by every object (\(inference.location(statement.place)))"))
                }
                identity.append(Self.bytes(of: value))
            }
            let index = objectOf[identity] ?? objects.count
            if index == objects.count {
                objectOf[identity] = index
                objects.append(Object())
            }
            objects[index].count += 1
            if objects[index].places.count < 2 { objects[index].places.append(statement.place) }
            if objects[index].count == 2 {
                for key in keys { objects[index].text[key] = statement.scalars[key]!.text(style: .canonical) }
            }
            for (key, value) in statement.scalars {
                let bytes = Self.bytes(of: value)
                guard let known = objects[index].values[key] else {
                    objects[index].values[key] = (bytes, statement.place)
                    continue
                }
                if known.value != bytes {
                    let stated = keys.map { statement.scalars[$0]!.text(style: .canonical) }.joined(separator: ", ")
                    return .failure(
                        IdentityRefusal(
                            "\(named) \(TerminalText.escaped(stated)) is stated twice with different \(key) "
                                + "(\(inference.location(known.place)) and \(inference.location(statement.place)))"))
                }
            }
        }
        let repeated = objects.filter { $0.count > 1 }
        let example = repeated.min { $0.places[0].order < $1.places[0].order }.map { object in
            (keys.map { object.text[$0]! }.joined(separator: ", "), object.count, object.places)
        }
        return .success(Agreement(statedTwice: repeated.count, example: example))
    }

    /// A scalar's exact bytes, tagged with its kind: identity values compare as bytes, never by Unicode equivalence.
    static func bytes(of value: JSON) -> [UInt8] {
        switch value {
        case .string(let text): [UInt8(ascii: "s")] + Array(text.utf8)
        case .number(let number): [UInt8(ascii: "n")] + Array(number.description.utf8)
        case .bool(let flag): [flag ? UInt8(ascii: "t") : UInt8(ascii: "f")]
        default: [UInt8(ascii: "z")]
        }
    }

    mutating func chooseIdentities() {
        // An entity named after a key is written without "class": nothing can refer to its objects by identity.
        for entity in entities where parents[entity] == nil && inference.keyNamed[entity] == nil {
            let members = tree(of: entity)
            guard let finding = findIdentity(of: members) else { continue }
            if finding.keys.isEmpty {
                if members.contains(where: { member in
                    statementsOf[member]!.contains { !inference.statements[$0].isNested }
                }) {
                    choose(.identity, "\(entity) without identity", finding.reason)
                }
            } else {
                identities[entity] = finding.keys
                choose(.identity, "\(entity) identity(\(finding.keys.joined(separator: ", ")))", finding.reason)
            }
        }
    }

    // MARK: Subentities

    /// The keys every object of `entity` states, objects stated twice counted once when `identity` names them.
    private func requiredKeys(of entity: String, identity: [String]) -> Set<String> {
        var objects: [[[UInt8]]: Set<String>] = [:]
        for (position, index) in (statementsOf[entity] ?? []).enumerated() {
            let statement = inference.statements[index]
            let key =
                identity.isEmpty
                ? [Array(String(position).utf8)] : identity.map { statement.scalars[$0].map(Self.bytes) ?? [] }
            objects[key, default: []].formUnion(statement.valued)
        }
        return objects.values.reduce(into: keys(of: entity)) { $0.formIntersection($1) }
    }

    /// Whether the values of `key` in `a` and in `b` can be one property.
    private func isCompatible(_ key: String, _ a: String, _ b: String) -> Bool {
        let kinds = Set(inference.evidence[a]![key]!.kinds.keys).union(inference.evidence[b]![key]!.kinds.keys)
        return Inference.shape(of: kinds) != nil
    }

    /// Makes each entity the subentity of the nearest other entity it extends, per the rule in ``ModelInference``.
    /// A parent's objects always have fewer keys than its subentity's, so parents never form a loop.
    mutating func chooseParents() {
        let classed = entities.filter { inference.keyNamed[$0] == nil }
        var identity: [String: [String]] = [:]
        var required: [String: Set<String>] = [:]
        for entity in classed {
            identity[entity] = findIdentity(of: [entity])?.keys ?? []
            required[entity] = requiredKeys(of: entity, identity: identity[entity]!)
        }
        // The classes the values of one relationship name together.
        let together = inference.evidence.values.flatMap { $0.values.map { Set($0.classes.keys) } }
            .filter { $0.count > 1 }
        let nearestFirst = classed.sorted { a, b in
            keys(of: a).count != keys(of: b).count ? keys(of: a).count > keys(of: b).count : a < b
        }
        for child in classed {
            for parent in nearestFirst where parent != child {
                let parentRequired = required[parent]!, childRequired = required[child]!
                guard !parentRequired.isEmpty, parentRequired.isSubset(of: childRequired),
                    !childRequired.isSubset(of: keys(of: parent)),
                    keys(of: child).intersection(keys(of: parent)).allSatisfy({ isCompatible($0, child, parent) })
                else { continue }
                let evidence: String
                let both = (statementsOf[child]! + statementsOf[parent]!).map { inference.statements[$0] }
                if together.contains(where: { $0.contains(child) && $0.contains(parent) }) {
                    evidence = "they are referred to where \(parent) is expected"
                } else if let keys = identity[parent], !keys.isEmpty, parentRequired.count >= 3,
                    case .success = check(keys, both)
                {
                    evidence = "they carry \(parent)'s identity (\(keys.joined(separator: ", "))), unique among both"
                } else {
                    continue
                }
                let shared = parentRequired.sorted().joined(separator: ", ")
                let extra = childRequired.subtracting(keys(of: parent)).sorted().joined(separator: ", ")
                parents[child] = parent
                choose(
                    .subentity, "\(child) : \(parent)",
                    "its objects have every key each \(parent) has (\(shared)) and more (\(extra)), and \(evidence)")
                break
            }
        }
    }

    // MARK: Ownership

    mutating func chooseOwnership() {
        for entity in entities where parents[entity] == nil {
            if let (owner, key) = inference.keyNamed[entity] {
                owned.insert(entity)
                choose(
                    .ownership, "\(entity) owned",
                    "written without \"class\" in the list \(owner).\(key): an entity named "
                        + "after the key, whose objects belong to the object they are written in, in order")
                continue
            }
            let members = tree(of: entity)
            let isTopLevel = members.contains { member in
                statementsOf[member]!.contains { !inference.statements[$0].isNested }
            }
            guard !isTopLevel, identities[entity] == nil else { continue }
            owned.insert(entity)
            choose(
                .ownership, "\(entity) owned",
                "never at the top level and without identity: its objects belong to the "
                    + "object they are written in, in order")
        }
    }

    // MARK: Relationships

    /// A relationship as inferred: where it is declared and what it points to.
    struct Relationship {
        var entity: String
        var key: String
        var destination: String
        var isToMany: Bool
        var owns: Bool
        var inverse: String?
    }

    /// The keys each entity declares: its own, less those of its ancestors, which it inherits.
    func declaredKeys(of entity: String) -> [String] {
        let inherited = ancestors(of: entity).reduce(into: Set<String>()) { $0.formUnion(keys(of: $1)) }
        return keys(of: entity).subtracting(inherited).sorted()
    }

    /// The evidence of `key` over `entity` and its subentities, which inherit the property.
    func mergedEvidence(_ key: String, of entity: String) -> KeyEvidence {
        var merged = KeyEvidence()
        for member in tree(of: entity) {
            guard let known = inference.evidence[member]![key] else { continue }
            merged.kinds.merge(known.kinds) { $0.order <= $1.order ? $0 : $1 }
            merged.classes.merge(known.classes) { $0.order <= $1.order ? $0 : $1 }
            merged.holdsReferences = merged.holdsReferences || known.holdsReferences
            merged.example = merged.example ?? known.example
        }
        return merged
    }

    /// Every relationship with its destination, the nearest entity all its related objects are kinds of; nil after
    /// noting the relationships whose objects share no such entity.
    mutating func resolveRelationships() -> [Relationship]? {
        var relationships: [Relationship] = []
        for entity in entities {
            for key in declaredKeys(of: entity) {
                let known = mergedEvidence(key, of: entity)
                guard let shape = Inference.shape(of: Set(known.kinds.keys)), shape == .toOne || shape == .toMany else {
                    continue
                }
                // Never empty: a relationship naming no class is an issue of `shape(of:entity:key:)`.
                let classes = known.classes.sorted { $0.value.order < $1.value.order }
                var destination = classes[0].key
                for (name, place) in classes.dropFirst() {
                    guard let common = nearestCommon(destination, name) else {
                        let message =
                            "\(entity).\(key) names objects of classes \(destination) and \(name), which are not "
                            + "kinds of one entity: the model cannot be inferred"
                        let location = inference.documents[place.file]?.location(of: place.pointer)
                        issues.append(
                            Diagnostic(
                                .inference, file: inference.displayPaths[place.file], line: location?.line,
                                column: location?.column, pointer: place.pointer, message: message))
                        break
                    }
                    destination = common
                }
                let owns = owned.contains(destination) && !known.holdsReferences
                relationships.append(
                    Relationship(
                        entity: entity, key: key, destination: destination, isToMany: shape == .toMany, owns: owns))
            }
        }
        return issues.isEmpty ? relationships : nil
    }

    private func nearestCommon(_ a: String, _ b: String) -> String? {
        let chain = [a] + ancestors(of: a)
        return ([b] + ancestors(of: b)).first { chain.contains($0) }
    }

    /// Pairs the relationships between two entities, one each way and the only ones between them, as inverses.
    mutating func chooseInverses(_ relationships: inout [Relationship]) {
        for (index, relationship) in relationships.enumerated() where relationship.entity < relationship.destination {
            let there = relationships.indices.filter {
                relationships[$0].entity == relationship.destination
                    && relationships[$0].destination == relationship.entity
            }
            let here = relationships.indices.filter {
                relationships[$0].entity == relationship.entity
                    && relationships[$0].destination == relationship.destination
            }
            guard here.count == 1, there.count == 1 else { continue }
            let back = relationships[there[0]]
            // An owned object has one owner: the inverse of an owning relationship is to-one, and does not own back.
            if relationship.owns && (back.isToMany || back.owns) || back.owns && relationship.isToMany { continue }
            relationships[index].inverse = back.key
            relationships[there[0]].inverse = relationship.key
            choose(
                .inverse, "\(relationship.entity).\(relationship.key) and \(back.entity).\(back.key) inverses",
                "the only relationships between \(relationship.entity) and \(back.entity), one each way")
        }
    }
}

/// How the objects of an entity agree with an identity: how many are stated more than once, and the first of those
/// (its identity values and where it is stated).
private struct Agreement {
    var statedTwice: Int
    /// The identity values of the first object stated more than once, how many times, and its first two places.
    var example: (values: String, times: Int, places: [InferencePlace])?
}

/// Why a set of keys does not identify an entity's objects.
private struct IdentityRefusal: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension Choosing {
    /// The declarations, with the type choices explained, validated as a model.
    mutating func build(_ relationships: [Relationship]) -> ModelInference.Result {
        var declarations: [EntityDescription] = []
        for entity in entities {
            var declaration = EntityDescription(entity, parent: parents[entity], identity: identities[entity] ?? [])
            let objects = objectsByEntity(under: root(of: entity))
            for key in declaredKeys(of: entity) {
                let known = mergedEvidence(key, of: entity)
                let shape = Inference.shape(of: Set(known.kinds.keys))!
                switch shape {
                case .toOne, .toMany:
                    let relationship = relationships.first { $0.entity == entity && $0.key == key }!
                    declaration.relationships.append(
                        RelationshipDescription(
                            key, to: relationship.destination, isToMany: relationship.isToMany,
                            isOrdered: relationship.owns && relationship.isToMany, inverse: relationship.inverse,
                            owns: relationship.owns))
                case .unknown:
                    declaration.attributes.append(AttributeDescription(key, .json, isOptional: true))
                case .attribute(let type):
                    let subtree = Set(tree(of: entity))
                    let isOptional = objects.contains { subtree.contains($0.entity) && !$0.valued.contains(key) }
                    declaration.attributes.append(AttributeDescription(key, type, isOptional: isOptional))
                    explainType(type, of: "\(entity).\(key)", example: known.example)
                }
            }
            // Objects only ever named by identity, never stated beyond it: the names are how the templates create
            // them, so the model says so (a reference must otherwise name an object that exists).
            let identity = identities[entity] ?? []
            let statements = tree(of: entity).flatMap { statementsOf[$0] ?? [] }
            if parents[entity] == nil, !identity.isEmpty, !statements.isEmpty,
                statements.allSatisfy({ index in
                    let statement = inference.statements[index]
                    return statement.isNested && statement.isScalarOnly && statement.valued.isSubset(of: identity)
                })
            {
                declaration.isCreatedByReference = true
                choose(
                    .identity, "\(entity) createdByReference",
                    "its objects are only ever named by \(identity.joined(separator: ", ")), never stated beyond it: the "
                        + "names create them")
            }
            declarations.append(declaration)
        }
        let choices = self.choices.sorted { ($0.subject, $0.kind.rawValue) < ($1.subject, $1.kind.rawValue) }
        do {
            return ModelInference.Result(model: try EntityModel(declarations), issues: [], choices: choices)
        } catch let errors as ModelErrors {
            return ModelInference.Result(model: nil, issues: errors.errors.map(located).sorted(), choices: choices)
        } catch {
            return ModelInference.Result(
                model: nil, issues: [Diagnostic(.inference, message: "inferred model: \(error)")], choices: choices)
        }
    }

    /// A problem of the inferred model, located where the templates say what it is about: a property's first value,
    /// or an entity's first `"class"`.
    private func located(_ error: ModelError) -> Diagnostic {
        let message = "inferred model: \(error.description)"
        let place = error.entity.flatMap { entity -> InferencePlace? in
            if let property = error.property {
                return inference.evidence[entity]?[property]?.kinds.values.min { $0.order < $1.order }
            }
            return statementsOf[entity]?.first.map { index in
                var place = inference.statements[index].place
                place.pointer = place.pointer.appending("class")
                return place
            }
        }
        let code = Diagnostic.Code(error.kind)
        guard let place else { return Diagnostic(code, message: message) }
        let location = inference.documents[place.file]?.location(of: place.pointer)
        return Diagnostic(
            code, file: inference.displayPaths[place.file], line: location?.line, column: location?.column,
            pointer: place.pointer, message: message)
    }

    private mutating func explainType(_ type: AttributeType, of subject: String, example: JSON?) {
        let kind: String
        switch type {
        case .date: kind = "an ISO 8601 date"
        case .uuid: kind = "a UUID"
        case .decimal: kind = "an exact decimal number"
        default: return
        }
        let shown = example.map { ", such as \($0.text(style: .canonical))" } ?? ""
        choose(.type, "\(subject) \(type)", "every value is \(kind)\(shown)")
    }

    /// The objects of the tree under `root`: statements with the same identity are one object, whose entity is the
    /// most specific one its statements name and whose keys are all the keys they state.
    private func objectsByEntity(under root: String) -> [(entity: String, valued: Set<String>)] {
        let identity = identities[root] ?? []
        var objects: [[[UInt8]]: (entity: String, valued: Set<String>)] = [:]
        var order = 0
        for member in tree(of: root) {
            for index in statementsOf[member] ?? [] {
                let statement = inference.statements[index]
                order += 1
                let key =
                    identity.isEmpty
                    ? [Array(String(order).utf8)] : identity.map { statement.scalars[$0].map(Choosing.bytes) ?? [] }
                var object = objects[key] ?? (statement.entity, [])
                if ancestors(of: statement.entity).contains(object.entity) { object.entity = statement.entity }
                object.valued.formUnion(statement.valued)
                objects[key] = object
            }
        }
        return Array(objects.values)
    }
}
