import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The resolve stage of seeding: the records of every file (``TemplateRecords``) become objects (``SeedObjects``),
/// each stated once however many records state it, with every link resolved and every fact in the slot that stores
/// it.
///
///     var resolver = SeedResolver(schema: schema, locator: locator)
///     for file in files { resolver.add(file) }              // as each file is read, in the set's order
///     let objects = try resolver.finish(lookUp: lookUp)
///     if !objects.issues.isEmpty { … }                       // nothing may be written
///
/// - Records with one key are one object; what they state is merged, and two statements that disagree (an
///   attribute, a to-one, a class that is no kind of the other) are a problem naming both places.
/// - A stub names an object of the templates or of the store (`lookUp`); one that names neither is a problem, with
///   the nearest identity as a suggestion. `"$ref"` names an `"$id"` of the templates.
/// - Ownership is a forest: an object owned twice, or a cycle of owning links, is a problem naming the objects.
/// - An object lacking a required attribute without default is a problem.
///
/// Nothing here recurses: an ownership chain of any length costs time and memory linear in its length.
///
/// - Complexity: O(*n*) in the number of records and links, plus the store lookups.
struct SeedResolver {
    /// What the resolve stage asks of the store: the objects these keys name (nil for none), and identities near a
    /// name for suggestions.
    struct StoreLookup {
        var objects: ([SeedKey]) throws -> [StoredObject?]
        var identities: (_ root: String) throws -> [String]
    }

    private let schema: SeedSchema
    private let locator: IssueLocator
    /// Every file's records and links, file after file, and where each file's begin: a set of many small files is a
    /// few arrays, not a few per file.
    private var records: [TemplateRecord] = []
    private var links: [RecordLink] = []
    private var stubKeys: [SeedKey] = []
    /// The `"$id"` of each record that states one beside its identity, by its index among `records`.
    private var idsBesideIdentity: [Int32: String] = [:]
    private var fileParts: [FilePart] = []
    /// How many files the set has.
    private let fileCount: Int
    private var result = SeedObjects()
    /// Each key's object, among `result.objects`.
    private var byKey = ElementIndex()
    /// Each `"$id"`'s first record among `records`: its object is the record's, its place the record's `/$id`.
    private var ids = ElementIndex()
    /// The records merged into an object after its first, for objects stated more than once.
    private var laterRecords: [Int32: [RecordReference]] = [:]
    private var problems: [PlacedProblem] = []
    /// Ordered lists kept in their members' columns: the members stated in order, then those that name the owner.
    private var orderedLists: [ListKey: (stated: [Int32], named: [Int32])] = [:]
    /// The link that made each owned object owned, by object: set where ``SeedObject/owner`` is. Links are kept by
    /// their index among all files' links (``linkIndex(_:)``), 4 bytes where a file and an index would take 8.
    private var ownerLinks: [Int32] = []
    /// The link that stated each to-one fact, by its index in ``SeedObjects/toOnes``, for the problems it may meet;
    /// -1 for none.
    private var toOneLinks: [Int32] = []
    /// For the files whose links a problem placed: each link's record (``record(ofLink:)``).
    private var linkRecords: [Int32: [Int32]] = [:]
    /// How many objects each owner owns through each relationship so far: the place of the next.
    private var ownedCounts: [ListKey: Int32] = [:]

    /// Where a file's records, links and stub keys begin among all: twelve bytes a file, as a set can have hundreds
    /// of thousands.
    private struct FilePart {
        let records: Int32
        let links: Int32
        let stubKeys: Int32
    }
    /// The few files with a syntax error, or naming top-level objects by `"$ref"`, by index: rare, so kept aside.
    private var syntaxErrors: [Int: JSONSyntaxError] = [:]
    private var topLevelReferences: [Int: [(id: String, position: Int32)]] = [:]

    private struct ListKey: Hashable {
        let object: Int32
        let relationship: Int32
    }

    init(schema: SeedSchema, locator: IssueLocator) {
        self.schema = schema
        self.locator = locator
        fileCount = locator.fileCount
    }

    /// Adds the records of the set's next file: its objects are merged with those of the files before.
    mutating func add(_ file: TemplateRecords) {
        precondition(file.file == fileParts.count, "files are added in the set's order")
        if fileParts.isEmpty {
            // Files of a set are usually alike: room for as many objects in each as in the first saves regrowing.
            // The tables of keys and ids only for as many as the first file has: a set of objects without identity
            // (an owned chain) needs none.
            func expected(_ count: Int) -> Int { min(count * fileCount, 1 << 22) }
            result.objects.reserveCapacity(expected(file.records.count))
            result.values.reserveCapacity(min(file.values.count * fileCount, 1 << 24))
            byKey = ElementIndex(capacity: expected(file.records.count(where: { $0.identityKey != nil })))
            ids = ElementIndex(capacity: expected(file.records.indices.count(where: { file.id(ofRecord: $0) != nil })))
            result.recordObjects.reserveCapacity(expected(file.records.count))
            result.fileRecordStarts.reserveCapacity(fileCount + 1)
            if fileCount > 1 {
                records.reserveCapacity(expected(file.records.count))
                links.reserveCapacity(min(file.links.count * fileCount, 1 << 22))
                stubKeys.reserveCapacity(min(file.stubKeys.count * fileCount, 1 << 22))
            }
        }
        if let syntaxError = file.syntaxError { syntaxErrors[file.file] = syntaxError }
        if !file.topLevelReferences.isEmpty { topLevelReferences[file.file] = file.topLevelReferences }
        fileParts.append(FilePart(records: Int32(records.count), links: Int32(links.count), stubKeys: Int32(stubKeys.count)))
        if fileCount == 1 {
            // The set's one file: its arrays are taken as they are, rather than copied beside them.
            records = file.records
            links = file.links
            stubKeys = file.stubKeys
        } else {
            records += file.records
            links += file.links
            stubKeys += file.stubKeys
        }
        for (record, id) in file.idsBesideIdentity { idsBesideIdentity[fileParts[file.file].records + record] = id }
        // The objects take the values.
        collectObjects(of: file)
    }

    /// The range of a file's records among all.
    private func recordRange(ofFile file: Int) -> Range<Int> {
        Int(fileParts[file].records)..<(file + 1 < fileParts.count ? Int(fileParts[file + 1].records) : records.count)
    }

    /// The object the templates state with `key`.
    private func statedObject(for key: SeedKey) -> Int32? {
        byKey.element(hash: key.storedHash) { result.objects[$0].key == key }
    }

    /// The index among `records` of the first record stating `id`.
    private func firstRecord(stating id: String) -> Int? {
        ids.element(hash: id.hashValue) { self.id(ofRecord: $0) == id }.map(Int.init)
    }

    /// The `"$id"` of a record, by its index among `records`.
    private func id(ofRecord record: Int) -> String? { records[record].id(besideIdentity: idsBesideIdentity[Int32(record)]) }

    /// A record, by file and its index in the file.
    private func record(_ reference: RecordReference) -> TemplateRecord {
        records[Int(fileParts[Int(reference.file)].records) + Int(reference.record)]
    }

    /// A link, by file and its index among the file's links.
    private func link(file: Int32, _ index: Int32) -> RecordLink { links[Int(fileParts[Int(file)].links) + Int(index)] }

    /// The key of a file's identity stub, by its index among the file's (``LinkTarget/key(_:entity:)``).
    private func stubKey(file: Int32, _ index: Int32) -> SeedKey { stubKeys[Int(fileParts[Int(file)].stubKeys) + Int(index)] }

    /// Resolves the links of every file added, and checks the whole; `lookUp` finds what the templates name but do
    /// not state (nil: the templates must state everything, as `seed validate` checks them).
    consuming func finish(lookUp: StoreLookup?) throws -> SeedObjects {
        var resolver = self
        resolver.reserveSlots()
        for index in resolver.result.objects.indices { resolver.makeSlots(of: index) }
        resolver.ownerLinks = Array(repeating: -1, count: resolver.result.objects.count)
        try resolver.resolveLinks(lookUp: lookUp)
        resolver.placeOrderedMembers()
        resolver.checkOwnership()
        resolver.checkRequiredAttributes()
        resolver.nameObjectsWithoutIdentity()
        resolver.result.issues = resolver.issues()
        resolver.releaseTablesInBackground()
        return resolver.result
    }

    /// Hands the records, links and key tables, which the objects no longer need, to another thread to free: freeing
    /// them takes about as long as building them did, and the stages after this one need not wait for it.
    private mutating func releaseTablesInBackground() {
        var tables = (
            records: [TemplateRecord](), links: [RecordLink](), stubKeys: [SeedKey](),
            laterRecords: [Int32: [RecordReference]]()
        )
        swap(&tables.records, &records)
        swap(&tables.links, &links)
        swap(&tables.stubKeys, &stubKeys)
        byKey = ElementIndex()
        ids = ElementIndex()
        swap(&tables.laterRecords, &laterRecords)
        releaseInBackground(tables)
    }

    // MARK: Objects

    private mutating func collectObjects(of file: TemplateRecords) {
        let fileIndex = file.file
        result.fileRecordStarts.append(Int32(result.recordObjects.count))
        result.recordObjects.append(contentsOf: repeatElement(-1, count: file.records.count))
        let start = Int(fileParts[fileIndex].records)
        for problem in file.problems {
            problems.append(
                PlacedProblem(
                    kind: problem.kind, place: StatementPlace(file: Int32(fileIndex), record: problem.record, path: problem.path),
                    isAtKey: problem.isAtKey, message: problem.message))
        }
        for recordIndex in file.records.indices {
            let reference = RecordReference(file: Int32(fileIndex), record: Int32(recordIndex))
            let key = file.records[recordIndex].identityKey
            let object: Int32
            if let key, let existing = statedObject(for: key) {
                object = existing
                merge(reference, into: existing, values: file.values)
            } else {
                object = Int32(result.objects.count)
                let entity = file.records[recordIndex].entity, values = Int(file.records[recordIndex].values)
                result.objects.append(
                    SeedObject(
                        key: key, definition: reference, entity: entity, values: Int32(result.values.count),
                        stated: file.records[recordIndex].stated))
                // One at a time: appending a slice takes the standard library's generic path, several times the cost
                // for the few values of a record.
                for index in values..<values + schema.entities[Int(entity)].attributeCount { result.values.append(file.values[index]) }
                if let key { byKey.add(object, hash: key.storedHash) }
            }
            result.recordObjects[start + recordIndex] = object
            if let id = file.id(ofRecord: recordIndex) { register(id: id, object: object, record: start + recordIndex) }
        }
    }

    /// Registers the `"$id"` of a record (by its index among all) that states `object`.
    private mutating func register(id: String, object: Int32, record: Int) {
        if let other = firstRecord(stating: id) {
            guard result.recordObjects[other] != object else { return }
            problems.append(
                PlacedProblem(
                    kind: .duplicateID, place: place(of: recordReference(record), ["$id"]),
                    message: "duplicate \"$id\" '\(TerminalText.escaped(id))': \(describe(result.recordObjects[other])) has it already",
                    related: place(of: recordReference(other), ["$id"])))
            return
        }
        ids.add(Int32(record), hash: id.hashValue)
    }

    /// A record by its index among all: its file and its index there.
    private func recordReference(_ index: Int) -> RecordReference {
        let file = file(containing: Int32(index), startingAt: \.records)
        return RecordReference(file: Int32(file), record: Int32(index) - fileParts[file].records)
    }

    /// The file whose part of the records or links (`start` says which) holds `index`: the last whose part starts at or
    /// before it, as a file with none starts where the next does.
    private func file(containing index: Int32, startingAt start: KeyPath<FilePart, Int32>) -> Int {
        var low = 0, high = fileParts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if fileParts[middle][keyPath: start] <= index { low = middle } else { high = middle }
        }
        return low
    }

    /// The object of the record that states `id` first, if any does.
    private func object(withID id: String) -> Int32? {
        firstRecord(stating: id).map { result.recordObjects[$0] }
    }

    /// Merges a later record of an object's key into the object: its class refines the object's, its attributes
    /// join the object's, and a value stated differently is a problem.
    private mutating func merge(_ reference: RecordReference, into object: Int32, values: [AttributeValue?]) {
        let record = record(reference)
        laterRecords[object, default: []].append(reference)
        let current = schema.entities[Int(result.objects[Int(object)].entity)].entity
        let stating = schema.entities[Int(record.entity)].entity
        if stating !== current {
            if stating.isKind(of: current.name) {
                // A subentity has more attributes, after its parent's: the values move to the end, with room for them.
                let start = Int(result.objects[Int(object)].values)
                let moved = Array(result.values[start..<start + current.attributes.count])
                result.objects[Int(object)].values = Int32(result.values.count)
                result.values += moved
                result.values += repeatElement(nil, count: stating.attributes.count - current.attributes.count)
                result.objects[Int(object)].entity = record.entity
            } else if !current.isKind(of: stating.name) {
                let first = place(of: result.objects[Int(object)].definition!)
                problems.append(
                    PlacedProblem(
                        kind: .identityConflict, place: place(of: reference, ["class"]),
                        message: "\(describe(object)) is a \(current.name) at \(describe(first)), so it cannot be a \(stating.name)",
                        related: first))
                return
            }
        }
        for index in stating.attributes.indices where record.stated.contains(index) {
            let value = values[Int(record.values) + index]
            let slot = Int(result.objects[Int(object)].values) + index
            if result.objects[Int(object)].stated.contains(index) {
                let earlier = result.values[slot]
                guard !Self.exactlyEqual(earlier, value) else { continue }
                let earlierPlace = placeStating(attribute: index, of: object)
                let name = stating.attributes[index].name
                problems.append(
                    PlacedProblem(
                        kind: .identityConflict, place: place(of: reference, [stating.attributeKeys[index]]),
                        message: "\(describe(object)).\(name) is \(Self.text(of: value)) here but \(Self.text(of: earlier)) where it is stated first",
                        related: earlierPlace))
            } else {
                result.values[slot] = value
                result.objects[Int(object)].stated.insert(index)
            }
        }
    }

    /// The place of the first record of an object that states the attribute.
    private func placeStating(attribute index: Int, of object: Int32) -> StatementPlace {
        let name = schema.entities[Int(result.objects[Int(object)].entity)].entity.attributeKeys[index]
        for reference in [result.objects[Int(object)].definition!] + (laterRecords[object] ?? []) {
            if record(reference).stated.contains(index) {
                return place(of: reference, [name])
            }
        }
        return place(of: result.objects[Int(object)].definition!)
    }

    /// Sizes the to-one facts and join lists for the objects the records state: grown an object at a time, they would
    /// hold up to twice the room (6 of a 100,000-link chain's 4.8 MB of facts) while the later stages run.
    private mutating func reserveSlots() {
        var toOnes = 0, joins = 0
        for object in result.objects {
            toOnes += schema.entities[Int(object.entity)].toOnes.count
            joins += schema.entities[Int(object.entity)].joins.count
        }
        result.toOnes.reserveCapacity(toOnes)
        toOneLinks.reserveCapacity(toOnes)
        result.joins.reserveCapacity(joins)
    }

    /// Makes room for an object's to-one facts and join lists, once its entity is settled.
    private mutating func makeSlots(of object: Int) {
        let slots = schema.entities[Int(result.objects[object].entity)]
        result.objects[object].toOnes = Int32(result.toOnes.count)
        result.toOnes.append(contentsOf: repeatElement(.unstated, count: slots.toOnes.count))
        toOneLinks.append(contentsOf: repeatElement(-1, count: slots.toOnes.count))
        result.objects[object].joins = Int32(result.joins.count)
        result.joins.append(contentsOf: repeatElement(nil, count: slots.joins.count))
    }

    // MARK: Links

    private mutating func resolveLinks(lookUp: StoreLookup?) throws {
        let stored = try storedObjects(lookUp: lookUp)
        for fileIndex in fileParts.indices {
            let fileRecords = recordRange(ofFile: fileIndex)
            for recordIndex in fileRecords.indices {
                let record = records[recordIndex]
                let source = result.recordObjects[recordIndex]
                let slots = schema.entities[Int(record.entity)]
                for linkIndex in record.links..<record.links + record.linkCount {
                    let statement = self.link(file: Int32(fileIndex), linkIndex)
                    let relationship = Int(statement.relationship)
                    let link = LinkReference(file: Int32(fileIndex), link: linkIndex)
                    var target: Int32 = -1
                    switch statement.target {
                    case .none:
                        break
                    case .record(let nested):
                        target = result.recordObjects[fileRecords.lowerBound + Int(nested)]
                    case .key(let stub, let entity):
                        let key = stubKey(file: Int32(fileIndex), stub)
                        let stated = statedObject(for: key)
                        guard let found = stated ?? stored[key] else {
                            danglingKey(key, entity: entity, at: place(of: link), suggestions: lookUp)
                            continue
                        }
                        guard isKind(found, of: entity, link: link) else { continue }
                        target = found
                        // One the store holds or the link creates: what the templates say of it is this link.
                        if stated == nil { result.references.append((link.file, found)) }
                    case .id(let id):
                        guard let found = object(withID: id) else {
                            danglingID(id, at: place(of: link).appending("$ref"))
                            continue
                        }
                        target = found
                        // Named by a name of the templates alone, which its own file may change; one its own file
                        // states is in the file's records already.
                        if !isStated(found, inFile: link.file) { result.references.append((link.file, found)) }
                    }
                    if target >= 0, !schema.isKind(Int(result.objects[Int(target)].entity), of: slots.destinations[relationship]) {
                        let description = slots.entity.relationships[relationship]
                        let kinds = schema.model.destination(of: description).kinds.joined(separator: ", ")
                        problems.append(
                            PlacedProblem(
                                kind: .typeMismatch, place: place(of: link),
                                message: "\(describe(target)) is not a \(description.destination); '\(description.name)' of \(slots.entity.name) holds \(kinds) objects"))
                        continue
                    }
                    route(from: source, through: relationship, to: target, link: link)
                }
            }
            for (id, position) in topLevelReferences[fileIndex] ?? [] where object(withID: id) == nil {
                danglingID(id, at: StatementPlace(file: Int32(fileIndex), record: -1, path: position >= 0 ? [String(position), "$ref"] : ["$ref"]))
            }
        }
    }

    /// The objects that stubs name and the templates do not state, each made an object of its own: the store's
    /// (`lookUp`), else, for an entity created by reference (``EntityDescription/isCreatedByReference``), a new one
    /// that the stub states.
    private mutating func storedObjects(lookUp: StoreLookup?) throws -> [SeedKey: Int32] {
        guard lookUp != nil || schema.model.declarations.contains(where: \.isCreatedByReference) else { return [:] }
        var missing: [(key: SeedKey, entity: Int32, record: RecordReference)] = []
        var seen = Set<SeedKey>()
        for fileIndex in fileParts.indices {
            let fileRecords = recordRange(ofFile: fileIndex)
            for recordIndex in fileRecords {
                let record = records[recordIndex]
                for linkIndex in record.links..<record.links + record.linkCount {
                    guard case .key(let stub, let entity) = link(file: Int32(fileIndex), linkIndex).target,
                        case let key = stubKey(file: Int32(fileIndex), stub), statedObject(for: key) == nil, seen.insert(key).inserted
                    else { continue }
                    let reference = RecordReference(file: Int32(fileIndex), record: Int32(recordIndex - fileRecords.lowerBound))
                    missing.append((key, entity, reference))
                }
            }
        }
        guard !missing.isEmpty else { return [:] }
        let stored = try lookUp?.objects(missing.map(\.key)) ?? Array(repeating: nil, count: missing.count)
        var found: [SeedKey: Int32] = [:]
        for (missing, object) in zip(missing, stored) {
            let createdBy = schema.entities[Int(missing.entity)].entity.lineage.contains {
                schema.model.entity(named: $0)?.declaration.isCreatedByReference == true
            }
            guard object != nil || createdBy else { continue }
            let index = Int32(result.objects.count)
            let entity = object?.entity ?? missing.entity
            let slots = schema.entities[Int(entity)]
            // What the templates state about it: its identity, and the facts links put in its slots.
            let start = result.values.count
            result.values.append(contentsOf: repeatElement(nil, count: slots.attributeCount))
            var stated = SmallIndexSet()
            for (index, value) in zip(slots.entity.identityIndices, missing.key.identityValues(of: slots.entity)) {
                result.values[start + index] = value
                stated.insert(index)
            }
            result.objects.append(
                SeedObject(
                    key: missing.key, definition: object == nil ? missing.record : nil, entity: entity, values: Int32(start),
                    stated: stated))
            if let object { result.storedRowIDs[index] = object.rowID }
            makeSlots(of: Int(index))
            ownerLinks.append(-1)
            found[missing.key] = index
        }
        return found
    }

    /// Whether the object a stub names is a kind of the class the stub says; a problem when not.
    private mutating func isKind(_ object: Int32, of entity: Int32, link: LinkReference) -> Bool {
        let actual = Int(result.objects[Int(object)].entity)
        guard !schema.isKind(actual, of: Int(entity)) else { return true }
        let where_ = result.objects[Int(object)].definition.map { " at \(describe(self.place(of: $0)))" } ?? " in the store"
        problems.append(
            PlacedProblem(
                kind: .identityConflict, place: place(of: link).appending("class"),
                message: "\(describe(object)) is a \(schema.entities[actual].entity.name)\(where_), so it cannot be a \(schema.entities[Int(entity)].entity.name)"))
        return false
    }

    private mutating func danglingKey(_ key: SeedKey, entity: Int32, at place: StatementPlace, suggestions lookUp: StoreLookup?) {
        let stubEntity = schema.entities[Int(entity)].entity
        var candidates = Set(
            result.objects.lazy.compactMap(\.key).filter { $0.kind == .identity && $0.root.hasSameBytes(as: key.root) }
                .map(\.text))
        if let more = try? lookUp?.identities(key.root) { candidates.formUnion(more) }
        let near = candidates.lazy.filter { abs($0.count - key.text.count) <= 3 }.prefix(50_000)
        let suggestion = Suggestion.nearest(to: key.text, among: near)
            .map { "; did you mean \(JSON.string($0).keyText)?" } ?? ""
        let display = key.display(in: schema.model)
        problems.append(
            PlacedProblem(
                kind: .unresolvedReference, place: place,
                message: "\(display) names no \(stubEntity.name) the templates or the store hold\(suggestion)"))
    }

    private mutating func danglingID(_ id: String, at place: StatementPlace) {
        let ids = Set(records.indices.lazy.compactMap(id(ofRecord:))).sorted()
        let suggestion = Suggestion.didYouMean(id, among: ids)
        problems.append(
            PlacedProblem(
                kind: .unresolvedReference, place: place,
                message: "no object has \"$id\": \"\(TerminalText.escaped(id))\"" + suggestion
                    + (suggestion.isEmpty && !ids.isEmpty && ids.count <= 20 ? "; ids are: \(ids.map(TerminalText.escaped).joined(separator: ", "))" : "")))
    }

    /// Records the fact a link states in the slot that stores it, and what it says about ownership.
    private mutating func route(from source: Int32, through relationship: Int, to target: Int32, link: LinkReference) {
        let slots = schema.entities[Int(result.objects[Int(source)].entity)]
        switch slots.routes[relationship] {
        case .toOne(let slot, let inverse):
            state(target, in: source, toOne: slot, link: link)
            guard target >= 0 else { break }
            switch inverse {
            case .none: break
            case .toOne(let inverseRelationship):
                let targetSlots = schema.entities[Int(result.objects[Int(target)].entity)]
                state(source, in: target, toOne: targetSlots.toOneIndex[inverseRelationship], link: link)
            case .orderedList(let inverseRelationship):
                orderedLists[ListKey(object: target, relationship: Int32(inverseRelationship)), default: ([], [])].named.append(source)
            }
        case .memberColumn(let inverse, let isOrdered):
            guard target >= 0 else { break }
            let targetSlots = schema.entities[Int(result.objects[Int(target)].entity)]
            state(source, in: target, toOne: targetSlots.toOneIndex[inverse], link: link)
            if isOrdered { orderedLists[ListKey(object: source, relationship: Int32(relationship)), default: ([], [])].stated.append(target) }
        case .ownJoin(let slot):
            join(target, to: source, slot: slot)
        case .memberJoin(let inverse):
            guard target >= 0 else { break }
            join(source, to: target, slot: schema.entities[Int(result.objects[Int(target)].entity)].joinIndex[inverse])
        }
        guard target >= 0 else { return }
        var touchesTarget: Bool
        switch slots.routes[relationship] {
        case .toOne(slot: _, inverse: .none), .ownJoin: touchesTarget = false
        default: touchesTarget = true
        }
        if slots.owns[relationship] {
            own(target, by: source, through: relationship, link: link)
            touchesTarget = true
        } else if let inverse = slots.inverses[relationship] {
            if schema.entities[Int(result.objects[Int(target)].entity)].owns[inverse] {
                own(source, by: target, through: inverse, link: link)
                touchesTarget = true
            }
        }
        if touchesTarget, !isStated(target, inFile: link.file) { result.touches.append((link.file, target)) }
    }

    /// Whether the first record stating `object` is in `file`: the file's records name it, and what the file's links
    /// say of it needs no entry of its own in ``SeedObjects/touches`` or ``SeedObjects/references`` (an owned chain's
    /// links would otherwise add two entries an object).
    private func isStated(_ object: Int32, inFile file: Int32) -> Bool {
        result.objects[Int(object)].definition?.file == file
    }

    /// Adds a member to a join list (stating it, empty, for no member), once.
    private mutating func join(_ member: Int32, to object: Int32, slot: Int) {
        let index = Int(result.objects[Int(object)].joins) + slot
        if result.joins[index] == nil { result.joins[index] = [] }
        if member >= 0, !result.joins[index]!.contains(member) { result.joins[index]!.append(member) }
    }

    /// States a to-one slot; a different target stated before is a problem naming both places.
    private mutating func state(_ target: Int32, in object: Int32, toOne slot: Int, link: LinkReference) {
        let index = Int(result.objects[Int(object)].toOnes) + slot
        let earlier = result.toOnes[index]
        guard earlier.isStated else {
            result.toOnes[index] = ToOneFact(target: target)
            toOneLinks[index] = linkIndex(link)
            return
        }
        guard earlier.target != target else { return }
        let name = schema.entities[Int(result.objects[Int(object)].entity)].toOnes[slot].name
        let here = self.place(of: link), earlierPlace = self.place(of: linkReference(toOneLinks[index]))
        problems.append(
            PlacedProblem(
                kind: .identityConflict, place: here,
                message: "\(describe(object)).\(name) is \(describeTarget(target)) here but \(describeTarget(earlier.target)) where it is stated first",
                related: earlierPlace))
    }

    /// The place of a link: its record, the relationship, and the member's index in a to-many.
    private mutating func place(of link: LinkReference) -> StatementPlace {
        let statement = self.link(file: link.file, link.link)
        let record = RecordReference(file: link.file, record: self.record(ofLink: link))
        let entity = schema.entities[Int(self.record(record).entity)].entity
        var path = [entity.relationshipKeys[Int(statement.relationship)]]
        if statement.position >= 0 { path.append(String(statement.position)) }
        return StatementPlace(file: link.file, record: record.record, path: path)
    }

    /// A link's index among all files' links, as ``ownerLinks`` and ``toOneLinks`` keep it.
    private func linkIndex(_ link: LinkReference) -> Int32 { fileParts[Int(link.file)].links + link.link }

    /// The link at an index among all files' links.
    private func linkReference(_ index: Int32) -> LinkReference {
        let file = file(containing: index, startingAt: \.links)
        return LinkReference(file: Int32(file), link: index - fileParts[file].links)
    }

    /// The index in its file of the record whose link this is: the file's links are mapped to their records the first
    /// time a problem needs one of them.
    private mutating func record(ofLink link: LinkReference) -> Int32 {
        if linkRecords[link.file] == nil {
            let range = recordRange(ofFile: Int(link.file))
            let linkCount = range.reduce(0) { max($0, Int(records[$1].links + records[$1].linkCount)) }
            var map = [Int32](repeating: -1, count: linkCount)
            for index in range {
                for position in records[index].links..<records[index].links + records[index].linkCount {
                    map[Int(position)] = Int32(index - range.lowerBound)
                }
            }
            linkRecords[link.file] = map
        }
        return linkRecords[link.file]![Int(link.link)]
    }

    /// Places the members of each ordered list kept in its members' columns: the ones stated in the list, in order,
    /// then the ones that name the list's owner themselves.
    private mutating func placeOrderedMembers() {
        for (list, members) in orderedLists {
            var position: Int32 = 0
            var placed = Set<Int32>()
            for member in members.stated + members.named where placed.insert(member).inserted {
                let inverse = schema.entities[Int(result.objects[Int(list.object)].entity)].inverses[Int(list.relationship)]!
                let slot = schema.entities[Int(result.objects[Int(member)].entity)].toOneIndex[inverse]
                let fact = Int(result.objects[Int(member)].toOnes) + slot
                if result.toOnes[fact].isStated { result.toOnes[fact].position = position }
                position += 1
            }
        }
    }

    // MARK: Ownership

    private mutating func own(_ child: Int32, by owner: Int32, through relationship: Int, link: LinkReference) {
        let current = result.objects[Int(child)].owner
        if current >= 0 {
            guard current != owner else { return }
            let earlier = place(of: linkReference(ownerLinks[Int(child)]))
            problems.append(
                PlacedProblem(
                    kind: .identityConflict, place: place(of: link),
                    message: "\(describe(child)) is owned by \(describe(current)) at \(describe(earlier)), so \(describe(owner)) cannot own it too; an object has one owner",
                    related: earlier))
            return
        }
        result.objects[Int(child)].owner = owner
        result.objects[Int(child)].ownerRelationship = Int32(relationship)
        ownerLinks[Int(child)] = linkIndex(link)
        // Its place among what the owner owns there, in the order stated; a to-one owns one.
        if schema.entities[Int(result.objects[Int(owner)].entity)].entity.relationships[relationship].isToMany {
            let list = ListKey(object: owner, relationship: Int32(relationship))
            result.objects[Int(child)].ownerPosition = ownedCounts[list, default: 0]
            ownedCounts[list, default: 0] += 1
        }
    }

    /// Ownership must be a forest: follows each object's owners up, iteratively, and reports each cycle once.
    private mutating func checkOwnership() {
        // 0: not visited; 1: on the path being followed; 2: done.
        var state = [UInt8](repeating: 0, count: result.objects.count)
        var path: [Int32] = []
        for start in result.objects.indices where state[start] == 0 {
            var current = Int32(start)
            while current >= 0, state[Int(current)] == 0 {
                state[Int(current)] = 1
                path.append(current)
                current = result.objects[Int(current)].owner
            }
            if current >= 0, state[Int(current)] == 1, let first = path.firstIndex(of: current) {
                let cycle = Array(path[first...])
                let names = (cycle.reversed() + [cycle.last!]).map(describe).joined(separator: " owns ")
                problems.append(
                    PlacedProblem(
                        kind: .identityConflict, place: place(of: linkReference(ownerLinks[Int(cycle[0])])),
                        message: "ownership is a cycle: \(names); an object cannot own itself, directly or through what it owns"))
            }
            for object in path { state[Int(object)] = 2 }
            path.removeAll(keepingCapacity: true)
        }
    }

    // MARK: Checks and names

    private mutating func checkRequiredAttributes() {
        for index in result.objects.indices {
            guard let definition = result.objects[index].definition else { continue }
            let slots = schema.entities[Int(result.objects[index].entity)]
            // Taken once: read in the closures, it would be copied, its set retained, for each required attribute.
            let stated = result.objects[index].stated
            guard slots.required.contains(where: { !stated.contains($0) }) else { continue }
            let entity = slots.entity
            let missing = slots.required.filter { !stated.contains($0) }
            // As templates write them.
            let names = missing.map { "'\(entity.attributeKeys[$0])'" }.joined(separator: ", ")
            let noun = missing.count == 1 ? "attribute" : "attributes"
            let message = result.objects[index].key?.kind == .identity
                ? "\(describe(Int32(index))) lacks required \(noun) \(names)" : "missing required \(noun) \(names) of \(entity.name)"
            problems.append(PlacedProblem(kind: .missingValue, place: place(of: definition), message: message))
        }
    }

    /// Gives the objects without identity their `"$id"`, or their place, as key; owned ones are known by their
    /// owner instead.
    private mutating func nameObjectsWithoutIdentity() {
        // The first id, in the set's order, of an object that states more than one.
        for index in records.indices {
            guard result.objects[Int(result.recordObjects[index])].key == nil, let id = id(ofRecord: index),
                firstRecord(stating: id) == index
            else { continue }
            result.objects[Int(result.recordObjects[index])].key = SeedKey(kind: .id, root: "", text: id)
        }
        // Such objects come a file at a time: its path is made once for the run of them.
        var path = (file: -1, text: "")
        for index in result.objects.indices where result.objects[index].key == nil && result.objects[index].owner < 0 {
            guard let definition = result.objects[index].definition else { continue }
            let place = place(of: definition)
            if path.file != Int(place.file) { path = (Int(place.file), locator.path(of: Int(place.file))) }
            result.objects[index].key = SeedKey(
                kind: .location, root: "", text: "\(path.text)#\(pointer(of: place).description)")
        }
    }

    // MARK: Places and descriptions

    private func place(of reference: RecordReference, _ path: [String] = []) -> StatementPlace {
        StatementPlace(file: reference.file, record: reference.record, path: path)
    }

    private func pointer(of place: StatementPlace) -> JSONPointer {
        guard place.record >= 0 else { return JSONPointer(tokens: place.path) }
        // From the record up through the records it is nested in.
        let fileStart = Int(fileParts[Int(place.file)].records)
        var tokens: [String] = []
        var current = fileStart + Int(place.record)
        while true {
            let step = records[current]
            if step.position >= 0 { tokens.append(String(step.position)) }
            guard step.parent >= 0 else { break }
            let parentEntity = schema.entities[Int(records[fileStart + Int(step.parent)].entity)].entity
            tokens.append(parentEntity.relationshipKeys[Int(step.relationship)])
            current = fileStart + Int(step.parent)
        }
        return JSONPointer(tokens: tokens.reversed() + place.path)
    }

    /// `Department[name=Sales]` for an object with identity, else its entity and where it is stated.
    func describe(_ object: Int32) -> String {
        let value = result.objects[Int(object)]
        let entity = schema.entities[Int(value.entity)].entity
        if let key = value.key, key.kind == .identity { return key.display(in: schema.model) }
        guard let definition = value.definition else { return entity.name }
        return "\(entity.name) at \(describe(place(of: definition)))"
    }

    private func describeTarget(_ target: Int32) -> String { target < 0 ? "null" : describe(target) }

    /// The file and pointer of a place.
    private func describe(_ place: StatementPlace) -> String {
        let pointer = pointer(of: place)
        let file = fileParts.count > 1 ? "\(locator.path(of: Int(place.file))) " : ""
        return "\(file)\(pointer.tokens.isEmpty ? "/" : pointer.description)"
    }

    private static func text(of value: AttributeValue?) -> String {
        value.map { TerminalText.escaped($0.json.text()) } ?? "null"
    }

    /// Whether two values are equal, strings byte for byte.
    static func exactlyEqual(_ lhs: AttributeValue?, _ rhs: AttributeValue?) -> Bool {
        if case .string(let left)? = lhs, case .string(let right)? = rhs { return left.hasSameBytes(as: right) }
        return lhs == rhs
    }

    private func issues() -> [Diagnostic] {
        var issues: [Diagnostic] = []
        for (index, syntaxError) in syntaxErrors.sorted(by: { $0.key < $1.key }) {
            var syntax = syntaxError.diagnostic
            syntax.file = locator.path(of: index)
            issues.append(syntax)
        }
        for problem in problems {
            let pointer = pointer(of: problem.place)
            var issue = locator.issue(
                Diagnostic.Code(problem.kind), file: Int(problem.place.file), pointer: pointer,
                isAtKey: problem.isAtKey, message: problem.message)
            if let related = problem.related {
                issue.related = locator.place(file: Int(related.file), pointer: self.pointer(of: related))
            }
            issues.append(issue)
        }
        return issues.sorted()
    }
}

/// A problem of the resolve stage, located by a statement place.
private struct PlacedProblem {
    let kind: GraphDecodingError.Kind
    let place: StatementPlace
    var isAtKey = false
    let message: String
    var related: StatementPlace?
}

extension StatementPlace {
    func appending(_ token: String) -> StatementPlace {
        StatementPlace(file: file, record: record, path: path + [token])
    }
}
