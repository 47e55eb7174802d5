import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitObjects

/// One run of a ``GraphDecoder``: reads every input into pending objects, resolves and checks them, then applies them
/// to the context only when no problem was found.
///
/// Pending objects are the facts the input states about each object, merged by identity and by `"$id"`; nothing
/// touches the context before ``apply()``, so a failed run leaves it as it was.
final class GraphReading {
    /// A place in the input: which input, and where in it.
    ///
    /// A place is its container's node and its own key or index, so that the places of an object's members share
    /// the object's node instead of each copying a pointer: reading stores a place per fact, and most are never
    /// shown. A node is one small object per dictionary read (its parent and its step); a pointer is built from the
    /// nodes only for a place that is shown.
    struct Place {
        fileprivate enum Step {
            case key(String)
            case index(Int)
        }

        /// A container's place: the node of its own container, and its step there.
        fileprivate final class Node {
            let parent: Node?
            let step: Step

            init(parent: Node?, step: Step) {
                self.parent = parent
                self.step = step
            }
        }

        // The input's number last and 32 bits wide: a place is then 32 bytes, not 40, and reading keeps one per fact.
        private let container: Node?
        private let step: Step?
        private let inputNumber: Int32

        /// The index of the input the place is in.
        var input: Int { Int(inputNumber) }

        /// The top of an input.
        init(input: Int) {
            self.init(input: input, container: nil, step: nil)
        }

        private init(input: Int, container: Node?, step: Step?) {
            self.container = container
            self.step = step
            self.inputNumber = Int32(input)
        }

        var pointer: JSONPointer {
            var tokens: [String] = []
            if let step { tokens.append(step.token) }
            var node = container
            while let current = node {
                tokens.append(current.step.token)
                node = current.parent
            }
            return JSONPointer(tokens: tokens.reversed())
        }

        var isRoot: Bool { step == nil && container == nil }

        /// The same place as a container: for a place whose members' places are made next.
        var resolved: Place {
            guard let step else { return self }
            return Place(input: input, container: Node(parent: container, step: step), step: nil)
        }

        func appending(_ key: String) -> Place { Place(input: input, container: resolved.container, step: .key(key)) }
        func appending(_ index: Int) -> Place { Place(input: input, container: resolved.container, step: .index(index)) }
    }

    /// A value the input states, and where it first does.
    struct Fact<Value> {
        var value: Value
        var place: Place
    }

    /// A value one dictionary states for the property at `index`, while the dictionary is read.
    struct StatedValue<Value> {
        let index: Int
        let value: Value
        let place: Place
    }

    /// Facts about an object's properties by property index: an array, as indices are small and dense.
    struct FactsByIndex<Value> {
        private var facts: [Fact<Value>?]

        init(count: Int) {
            facts = Array(repeating: nil, count: count)
        }

        /// The fact at `index`; setting one beyond the end grows the storage, as a refined entity has more properties.
        subscript(index: Int) -> Fact<Value>? {
            get { index < facts.count ? facts[index] : nil }
            set {
                if index >= facts.count { facts += repeatElement(nil, count: index + 1 - facts.count) }
                facts[index] = newValue
            }
        }

        /// The indices that have a fact, in ascending order.
        var indices: [Int] { facts.indices.filter { facts[$0] != nil } }
    }

    /// A related object as written: a dictionary read into a pending object, or a `"$ref"` resolved after reading.
    enum Link {
        case object(PendingObject)
        case reference(String)
    }

    /// The value of one relationship key, stated at `place`.
    struct RelationshipFact {
        /// What a relationship key holds.
        enum Value {
            case null
            /// A to-one's target, written at the fact's place: no array for the common case.
            case target(Link)
            /// A to-many's members, each with its place.
            case members([(link: Link, place: Place)])
        }

        let source: PendingObject
        let index: Int
        let value: Value
        let place: Place
    }

    struct Problem {
        let kind: GraphDecodingError.Kind
        let place: Place
        /// Whether the problem is the member's key rather than its value (an unknown key).
        let isAtKey: Bool
        let message: String
        let related: Place?
    }

    /// Everything the input says about one object.
    final class PendingObject {
        var entity: Entity
        let identity: [AttributeValue]?
        let firstPlace: Place
        /// The first dictionary that states more than the identity; nil while only stubs name the object.
        var definitionPlace: Place?
        var attributes: FactsByIndex<AttributeValue?>
        /// To-one targets, stated or implied by the inverse of another object's relationship.
        var toOne: FactsByIndex<PendingObject?>
        /// The to-one relationships the input states on this object itself, the ones applied.
        var statedToOne = SmallIndexSet()
        var toMany: [Int: MemberList] = [:]
        /// To-many relationships given as `null`.
        var clearedToMany: Set<Int> = []
        /// Attributes given a value that could not be read: already reported, so not reported missing too.
        var unreadableAttributes: Set<Int> = []
        /// The context's object with this identity, or the object being populated.
        var existing: ManagedObject?
        /// The object the pending object became: existing or inserted.
        var object: ManagedObject?

        init(entity: Entity, identity: [AttributeValue]?, place: Place) {
            self.entity = entity
            self.identity = identity
            self.firstPlace = place
            attributes = FactsByIndex(count: entity.attributes.count)
            toOne = FactsByIndex(count: entity.relationships.count)
        }
    }

    /// To-many members in first-stated order, without repeats.
    struct MemberList {
        var members: [PendingObject] = []
        var memberIDs: Set<ObjectIdentifier> = []
        mutating func append(_ member: PendingObject) {
            if memberIDs.insert(ObjectIdentifier(member)).inserted { members.append(member) }
        }
    }

    let context: ObjectContext
    let model: EntityModel
    /// The inputs; their texts go once everything is checked (see ``run()``).
    private(set) var inputs: [DecoderInput]
    var problems: [Problem] = []
    var pendingObjects: [PendingObject] = []
    var pendingByIdentity: [IdentityKey: PendingObject] = [:]
    var pendingByID: [String: Fact<PendingObject>] = [:]
    var relationshipFacts: [RelationshipFact] = []
    var rootLinks: [(link: Link, place: Place)] = []
    /// Syntax errors of text inputs, by input index, found as they are read.
    var syntaxErrors: [Int: JSONSyntaxError] = [:]
    /// Text inputs parsed again to locate problems, by input index.
    var reparsed: [Int: JSONDocument] = [:]
    /// Called with the number of inputs read so far, after each one.
    var inputsRead: ((Int) -> Void)?
    /// The object ``ManagedObject/populate(fromDictionary:policy:)`` fills, and how it treats to-many relationships.
    let populated: (object: ManagedObject, policy: PopulatePolicy)?

    init(context: ObjectContext, inputs: [DecoderInput], populating populated: (ManagedObject, PopulatePolicy)? = nil) {
        self.context = context
        self.model = context.model
        self.inputs = inputs
        self.populated = populated
    }

    deinit {
        // Pending objects point at each other (to-one targets, to-many members, and back through inverses), so they
        // form cycles in almost every input: unlink them, or every run would leak them all.
        for pending in pendingObjects {
            pending.toOne = FactsByIndex(count: 0)
            pending.toMany = [:]
        }
    }

    /// Reads, resolves, checks and, without problems, applies.
    func run() throws(GraphDecodingErrors) -> (roots: [ManagedObject], changes: PopulateChanges) {
        // Several files: the next is parsed on another thread while one is read.
        let ahead = inputs.count(where: { $0.text != nil }) > 1
            ? ParseAhead(texts: inputs.map { input in input.text.map { ($0, input.file) } }) : nil
        for index in inputs.indices {
            read(inputs[index], at: index, ahead: ahead)
            if inputs[index].reload != nil { inputs[index].text = nil }
            inputsRead?(index + 1)
        }
        resolve()
        let rootObjects = rootLinks.map { entry -> PendingObject? in
            switch entry.link {
            case .object(let pending): pending
            case .reference(let id): pendingByID[id]?.value
            }
        }
        // What only reading and resolving need goes before the objects are made: a run holds every pending object and
        // every new object at once, and that is its peak.
        relationshipFacts = []
        pendingByIdentity = [:]
        rootLinks = []
        check()
        checkDeletions()
        // A text that does not parse is a problem of its own, even when it is the only one.
        guard problems.isEmpty && syntaxErrors.isEmpty else { throw decodingErrors() }
        // The texts locate problems only, and there are none.
        for index in inputs.indices { inputs[index].text = nil }
        let changes = apply()
        return (rootObjects.compactMap { $0?.object }, changes)
    }

    func problem(
        _ kind: GraphDecodingError.Kind, at place: Place, _ message: String, isAtKey: Bool = false, related: Place? = nil
    ) {
        problems.append(Problem(kind: kind, place: place, isAtKey: isAtKey, message: message, related: related))
    }

    // MARK: Reading

    private func read(_ input: DecoderInput, at index: Int, ahead: ParseAhead?) {
        var parsed = input.value
        if let text = input.text {
            // The value goes when this returns: locations, needed only for problems, parse the text again.
            let result = ahead?.value(at: index)
                ?? Result { () throws(JSONSyntaxError) in try JSONDocument(parsing: text, file: input.file).value }
            switch result {
            case .success(let value):
                parsed = value
            case .failure(let error):
                syntaxErrors[index] = error
                return
            }
        }
        guard let value = parsed else { return }
        defer { if input.text != nil { ahead?.release(value) } }
        let place = Place(input: index)
        if populated != nil {
            if let link = readObject(value, at: place, expected: nil) { rootLinks.append((link, place)) }
            return
        }
        switch value {
        case .array(let elements):
            for (position, element) in elements.enumerated() {
                if let link = readObject(element, at: place.appending(position), expected: nil) {
                    rootLinks.append((link, place.appending(position)))
                }
            }
        default:
            if let link = readObject(value, at: place, expected: nil) { rootLinks.append((link, place)) }
        }
    }

    /// Reads one dictionary and the dictionaries it nests into pending objects.
    private func readObject(_ json: JSON, at objectPlace: Place, expected: Entity?) -> Link? {
        let place = objectPlace.resolved
        guard case .object(let members) = json else {
            report(DictionaryRules.notAnObject(json, expected: expected), at: place)
            return nil
        }
        if let reference = members["$ref"] {
            return readReference(reference, members: members, at: place)
        }
        let isPopulatedRoot = populated != nil && place.isRoot
        guard let entity = isPopulatedRoot ? populatedEntity(members["class"], at: place)
            : resolveClass(members["class"], at: place, expected: expected)
        else { return nil }

        var attributeFacts: [StatedValue<AttributeValue?>] = []
        var relationshipValues: [StatedValue<JSON>] = []
        var unreadable: [Int] = []
        var isStub = true
        for (key, value) in members.sorted(by: { $0.key < $1.key }) where key != "class" && key != "$id" {
            let keyPlace = place.appending(key)
            if let index = entity.attributeIndex(forKey: key) {
                if !entity.identityIndices.contains(index) { isStub = false }
                if let fact = readAttribute(value, of: entity, at: index, place: keyPlace) {
                    attributeFacts.append(StatedValue(index: index, value: fact, place: keyPlace))
                } else {
                    unreadable.append(index)
                }
            } else if let index = entity.relationshipIndex(forKey: key) {
                isStub = false
                relationshipValues.append(StatedValue(index: index, value: value, place: keyPlace))
            } else {
                isStub = false
                report(DictionaryRules.unknownKey(key, value: value, of: entity), at: keyPlace, isAtKey: true)
            }
        }

        let pending: PendingObject
        if isPopulatedRoot, let object = populated?.object {
            pending = PendingObject(entity: object.entity, identity: object.identityValues, place: place)
            pending.existing = object
            pendingObjects.append(pending)
            if let identity = pending.identity {
                pendingByIdentity[IdentityKey(root: entity.rootName, values: identity)] = pending
            }
        } else {
            pending = pendingObject(of: entity, identity: identity(in: attributeFacts, of: entity), at: place)
        }
        if !isStub || pending.identity == nil, pending.definitionPlace == nil { pending.definitionPlace = place }
        pending.unreadableAttributes.formUnion(unreadable)
        if let idValue = members["$id"] { register(id: idValue, for: pending, at: place.appending("$id")) }

        for fact in attributeFacts {
            if let stated = pending.attributes[fact.index] {
                if stated.value != fact.value {
                    let name = pending.entity.attributes[fact.index].name
                    problem(
                        .identityConflict, at: fact.place,
                        "\(describe(pending)).\(name) is \(text(of: fact.value)) here but \(text(of: stated.value)) at \(describe(stated.place))",
                        related: stated.place)
                }
            } else {
                pending.attributes[fact.index] = Fact(value: fact.value, place: fact.place)
            }
        }
        for entry in relationshipValues {
            readRelationship(entry.value, of: pending, entity: entity, at: entry.index, place: entry.place)
        }
        return .object(pending)
    }

    private func readReference(_ reference: JSON, members: JSONObject, at place: Place) -> Link? {
        switch DictionaryRules.reference(reference, members: members) {
        case .success(let id):
            return .reference(id)
        case .failure(let failure):
            report(failure, at: failure.kind == .typeMismatch ? place.appending("$ref") : place)
            return nil
        }
    }

    func report(_ failure: DictionaryRules.Problem, at place: Place, isAtKey: Bool = false) {
        problem(failure.kind, at: failure.isAtClassKey ? place.appending("class") : place, failure.message, isAtKey: isAtKey)
    }

    /// The entity `"class"` names, checked against what the relationship holds.
    private func resolveClass(_ value: JSON?, at place: Place, expected: Entity?) -> Entity? {
        switch DictionaryRules.entity(classValue: value, expected: expected, model: model) {
        case .success(let entity):
            return entity
        case .failure(let failure):
            report(failure, at: place)
            return nil
        }
    }

    /// The entity of the populated object; `"class"`, when given, must be it or one of its ancestors.
    private func populatedEntity(_ value: JSON?, at place: Place) -> Entity? {
        guard let object = populated?.object else { return nil }
        if let value {
            guard case .string(let name) = value, let named = model.entity(named: name), object.entity.isKind(of: named.name) else {
                problem(
                    .unknownClass, at: place.appending("class"),
                    "\"class\" must name the populated object's entity \(object.entity.name) or one of its ancestors (\(object.entity.lineage.joined(separator: ", "))), got \(value.stringValue.map { "'\($0)'" } ?? value.kindDescription)")
                return nil
            }
        }
        return object.entity
    }

    private func readAttribute(_ value: JSON, of entity: Entity, at index: Int, place: Place) -> AttributeValue?? {
        switch DictionaryRules.attribute(value, of: entity, at: index) {
        case .success(let read):
            return .some(read)
        case .failure(let failure):
            report(failure, at: place)
            return nil
        }
    }

    /// The identity values the dictionary states, when it states all of them.
    private func identity(in facts: [StatedValue<AttributeValue?>], of entity: Entity) -> [AttributeValue]? {
        guard !entity.identityIndices.isEmpty else { return nil }
        var values: [AttributeValue] = []
        for index in entity.identityIndices {
            guard let fact = facts.first(where: { $0.index == index }), let value = fact.value else { return nil }
            values.append(value)
        }
        return values
    }

    /// The pending object with this identity, refined to `entity` when that is a subentity of what it was; a new
    /// pending object for a dictionary without identity.
    private func pendingObject(of entity: Entity, identity: [AttributeValue]?, at place: Place) -> PendingObject {
        guard let identity else {
            let pending = PendingObject(entity: entity, identity: nil, place: place)
            pendingObjects.append(pending)
            return pending
        }
        let key = IdentityKey(root: entity.rootName, values: identity)
        if let pending = pendingByIdentity[key] {
            if entity.isKind(of: pending.entity.name) {
                pending.entity = entity
            } else if !pending.entity.isKind(of: entity.name) {
                problem(
                    .identityConflict, at: place.appending("class"),
                    "\(describe(pending)) is a \(pending.entity.name) at \(describe(pending.firstPlace)), so it cannot be a \(entity.name)",
                    related: pending.firstPlace)
            }
            return pending
        }
        let pending = PendingObject(entity: entity, identity: identity, place: place)
        pendingObjects.append(pending)
        pendingByIdentity[key] = pending
        return pending
    }

    private func register(id value: JSON, for pending: PendingObject, at place: Place) {
        if let failure = DictionaryRules.idProblem(value) { return report(failure, at: place) }
        guard case .string(let id) = value else { return }
        if let other = pendingByID[id] {
            guard other.value !== pending else { return }
            problem(
                .duplicateID, at: place,
                "duplicate \"$id\" '\(id)': \(describe(other.value)) at \(describe(other.place)) has it already",
                related: other.place)
            return
        }
        pendingByID[id] = Fact(value: pending, place: place)
    }

    private func readRelationship(_ value: JSON, of pending: PendingObject, entity: Entity, at index: Int, place: Place) {
        let relationship = entity.relationships[index]
        let destination = model.destination(of: relationship)
        if value == .null {
            relationshipFacts.append(RelationshipFact(source: pending, index: index, value: .null, place: place))
            return
        }
        if let failure = DictionaryRules.shape(of: value, for: relationship, of: entity, destination: destination) {
            return report(failure, at: place)
        }
        if relationship.isToMany {
            guard case .array(let elements) = value else { return }
            var links: [(link: Link, place: Place)] = []
            let listPlace = place.resolved
            for (position, element) in elements.enumerated() {
                let elementPlace = listPlace.appending(position)
                let link = relationship.isByIdentity && DictionaryRules.isIdentityValue(element, for: relationship)
                    ? readIdentityValue(element, destination: destination, at: elementPlace)
                    : readObject(element, at: elementPlace, expected: destination)
                if let link { links.append((link, elementPlace)) }
            }
            relationshipFacts.append(RelationshipFact(source: pending, index: index, value: .members(links), place: place))
        } else {
            let link = relationship.isByIdentity && DictionaryRules.isIdentityValue(value, for: relationship)
                ? readIdentityValue(value, destination: destination, at: place)
                : readObject(value, at: place, expected: destination)
            guard let link else { return }
            relationshipFacts.append(RelationshipFact(source: pending, index: index, value: .target(link), place: place))
        }
    }

    /// A member named by its identity value alone: read as its identity stub would be.
    private func readIdentityValue(_ value: JSON, destination: Entity, at place: Place) -> Link? {
        switch DictionaryRules.identityValue(value, destination: destination) {
        case .success(let identity):
            let pending = pendingObject(of: destination, identity: [identity], at: place)
            let index = destination.identityIndices[0]
            if pending.attributes[index] == nil { pending.attributes[index] = Fact(value: identity, place: place) }
            return .object(pending)
        case .failure(let failure):
            report(failure, at: place)
            return nil
        }
    }

    // MARK: Descriptions

    /// `Department[name=Sales]` for an object with identity, else `Address at /addresses/0`.
    func describe(_ pending: PendingObject) -> String {
        if let identity = pending.identity { return ObjectKeySpelling.text(pending.entity, identity: identity) }
        if let object = pending.existing { return object.description }
        return "\(pending.entity.name) at \(describe(pending.firstPlace))"
    }

    /// The pointer, prefixed with the input's file when there are several inputs.
    func describe(_ place: Place) -> String {
        let pointer = place.pointer.tokens.isEmpty ? "/" : place.pointer.description
        guard inputs.count > 1 else { return pointer }
        return "\(inputs[place.input].file ?? "input \(place.input + 1)") \(pointer)"
    }

    func text(of value: AttributeValue?) -> String {
        value.map { $0.json.text() } ?? "null"
    }
}

extension GraphReading.Place.Step {
    /// The step as a JSON Pointer reference token.
    fileprivate var token: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}
