import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The read stage of seeding: template files into records (``TemplateRecords``), on all cores.
///
///     let files = TemplateReader.read(set.files, schema: schema)     // one TemplateRecords per file, in set order
///
/// Each file is read onto a tape (``JSONTape``: its values in document order, no ``JSON`` tree made and freed) and
/// walked once, strings and numbers made only where they become attribute values; an array at the top is read one
/// element at a time, so that beside a large file's records the tape holds one element, not the file. Syntax errors,
/// values of the wrong type, unknown keys and classes, and relationships of the wrong shape are collected as the
/// file's problems (``RecordProblem``), with the rules the graph decoder applies (``DictionaryRules``); what needs more
/// than one file — references, conflicting statements, missing required values — is the resolve stage's to find.
///
/// - Complexity: O(*n*) in the size of the files, spread over the cores.
struct TemplateReader {
    let schema: SeedSchema
    /// The links of the records being read, innermost last: a record's links are moved to the file's array when it
    /// is done, so that each record's links are contiguous though it nests other records between them.
    private var pendingLinks: [RecordLink] = []
    /// The file being read, reused from one file to the next; it keeps the key layouts of the files read so far:
    /// files of a set are alike, so their objects share layouts across files, and the plans and shapes below serve
    /// them all.
    private let tape = JSONTape()
    /// What each key of an object layout is, per layout and entity, so that each key is looked up once per layout
    /// rather than once per object.
    private var plans: [PlanKey: [Member]] = [:]
    /// The plans used lately, searched before `plans` (see ``plan(_:_:)``); `nextRecentPlan` is the oldest once full.
    private var recentPlans: [(layout: JSONKeyLayout, entity: Int, members: [Member])] = []
    private var nextRecentPlan = 0

    /// A layout and an entity's ordinal; the layout is held, so that its address names no other layout while it is a
    /// key.
    private struct PlanKey: Hashable {
        let layout: JSONKeyLayout
        let entity: Int

        static func == (lhs: PlanKey, rhs: PlanKey) -> Bool { lhs.layout === rhs.layout && lhs.entity == rhs.entity }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(layout))
            hasher.combine(entity)
        }
    }

    /// How many layouts the plans and shapes are kept for: a set whose objects all have other keys does not grow them
    /// without bound.
    private static let keptLayouts = 256
    /// How many plans, shapes and class names are searched by comparison before hashing.
    private static let recentCount = 8
    /// How many records, values and links the last file read had, for the next (see ``records(of:bytes:index:)``).
    private var lastSizes = (records: 0, values: 0, links: 0)
    /// The most values the file being read has had at once: a stub's are made, then removed when it is one.
    private var mostValues = 0
    /// The most of each kept in `lastSizes`: a large file is not followed by small ones each given its room.
    private static let sizesKept = 1024

    private enum Member {
        case `class`, id, attribute(Int, isIdentity: Bool), relationship(Int), unknown
    }

    /// Where an object layout has `"class"` and `"$ref"`, worked out once per layout.
    private struct Shape {
        var classPosition: Int?
        var referencePosition: Int?
    }

    /// By layout, held as in ``PlanKey``.
    private var shapes: [ObjectIdentifier: (layout: JSONKeyLayout, shape: Shape)] = [:]
    private var recentShapes: [(layout: JSONKeyLayout, shape: Shape)] = []
    private var nextRecentShape = 0
    /// The entities of the class names met lately, by their UTF-8: an object's and its stubs' classes alternate, and
    /// comparing a few short names where they lie in the text costs less than making a string and hashing it.
    private var recentClasses: [(name: [UInt8], slots: EntitySlots)] = []
    private var nextRecentClass = 0

    init(schema: SeedSchema) {
        self.schema = schema
    }

    /// Reads every file, on all cores, handing each file's records to `each` on the calling thread, in the files'
    /// order, as soon as they and those of the files before are read: what consumes them works while later files are
    /// read.
    static func read(
        _ files: [TemplateSet.File], contents: FileContents, schema: SeedSchema, _ each: (TemplateRecords) -> Void
    ) {
        // Only the files read and not yet handed on, by index: a slot for every file of a large set would cost as
        // much as its records.
        let results = Locked([Int: TemplateRecords]())
        let next = Locked(0)
        let fileDone = DispatchSemaphore(value: 0)
        // Files are claimed one at a time, so that a few large files do not leave a core idle.
        let group = DispatchGroup()
        for _ in 0..<min(files.count, ActiveProcessors.count) {
            DispatchQueue.global().async(group: group) {
                var reader = TemplateReader(schema: schema)
                while let index = next.withLock({ next -> Int? in
                    guard next < files.count else { return nil }
                    defer { next += 1 }
                    return next
                }) {
                    let records = reader.records(of: files[index], bytes: contents.take(index), index: index)
                    results.withLock { $0[index] = records }
                    fileDone.signal()
                }
            }
        }
        var consumed = 0
        while consumed < files.count {
            // Moved out, not copied: a copy would retain and release each of the file's arrays.
            let records = results.withLock { $0.removeValue(forKey: consumed) }
            guard let records else {
                fileDone.wait()
                continue
            }
            each(records)
            consumed += 1
        }
        group.wait()
    }

    /// The records of one file.
    mutating func records(of file: TemplateSet.File, bytes: [UInt8], index: Int) -> TemplateRecords {
        if plans.count > Self.keptLayouts || shapes.count > Self.keptLayouts {
            plans.removeAll(keepingCapacity: true)
            shapes.removeAll(keepingCapacity: true)
        }
        var out = TemplateRecords(file: index)
        // Files of a set are alike: room for as many records, values and links as the last file had saves regrowing
        // the arrays from empty in each (most of the cost of a file of one object).
        out.records.reserveCapacity(lastSizes.records)
        out.values.reserveCapacity(lastSizes.values)
        out.links.reserveCapacity(lastSizes.links)
        mostValues = 0
        // A large file's arrays are given room for the whole once its first eighth is read (see
        // ``makeRoom(in:size:read:)``), and again, should the file grow denser, once a quarter and a half are.
        var nextRoom = max(bytes.count / 8, Self.firstStretch)
        let tape = self.tape
        // The file's bytes go with the records made: the tape waits for the next file without them.
        defer { tape.removeAll() }
        do {
            let isArray = try tape.read(bytes, file: file.displayPath) { position, end in
                read(0, into: &out, parent: -1, relationship: -1, position: Int32(position), expected: nil, owned: false)
                if end >= nextRoom {
                    Self.makeRoom(in: &out, size: bytes.count, read: end)
                    nextRoom = 2 * end
                }
            }
            if !isArray { read(0, into: &out, parent: -1, relationship: -1, position: -1, expected: nil, owned: false) }
        } catch {
            // Nothing of the elements read before the error: a file that is not JSON has no records or problems.
            out = TemplateRecords(file: index)
            out.syntaxError = error
            return out
        }
        lastSizes = (
            min(out.records.count, Self.sizesKept), min(mostValues, Self.sizesKept), min(out.links.count, Self.sizesKept)
        )
        return out
    }

    /// The least of a file read before its records, values and links are given room for the whole file: a smaller
    /// file's arrays grow as they fill, from the last file's sizes.
    private static let firstStretch = 64 * 1024

    /// Room in `out`'s records, values and links for the rest of a file of `size` bytes, `read` of them read: their
    /// counts so far in proportion to the bytes, and 1/32 more, for a file whose later objects are denser.
    ///
    /// A large file's arrays would otherwise grow by doubling, holding the old elements beside room for twice as many
    /// while they are copied: for a 100,000-object array, more than its whole tape took. An eighth of the file is read
    /// first, so that the counts stand for the whole (a list's first objects are often shorter, their numbers having
    /// fewer digits: the 100,000-link chain gets room for 106,121 records where 1/32 of it and 1/16 more gave 111,381).
    private static func makeRoom(in out: inout TemplateRecords, size: Int, read: Int) {
        func room(_ count: Int) -> Int {
            let whole = count * size / read
            return whole + whole / 32
        }
        out.records.reserveCapacity(room(out.records.count))
        out.values.reserveCapacity(room(out.values.count))
        out.links.reserveCapacity(room(out.links.count))
    }

    /// Reads the dictionary at the tape's `entry`, at a place: at the top of the file (`parent` -1), or nested in
    /// `parent`'s `relationship`; returns what a link to it names, nil after a problem.
    @discardableResult
    private mutating func read(
        _ entry: Int, into out: inout TemplateRecords, parent: Int32, relationship: Int32, position: Int32,
        expected: EntitySlots?, owned: Bool
    ) -> LinkTarget? {
        func problem(_ failure: DictionaryRules.Problem, _ tokens: [String] = [], isAtKey: Bool = false) {
            // Where this dictionary is: below its parent record, or at the top.
            var path: [String] = []
            if parent >= 0 {
                path.append(schema.entities[Int(out.records[Int(parent)].entity)].entity.relationshipKeys[Int(relationship)])
            }
            if position >= 0 { path.append(String(position)) }
            path += (failure.isAtClassKey ? ["class"] : []) + tokens
            out.problems.append(RecordProblem(kind: failure.kind, record: parent, path: path, isAtKey: isAtKey, message: failure.message))
        }
        guard tape.kind(of: entry) == .object else {
            problem(DictionaryRules.notAnObject(tape.json(at: entry), expected: expected?.entity))
            return nil
        }
        let layout = tape.layout(of: entry)
        let shape = self.shape(of: layout)
        if let referencePosition = shape.referencePosition {
            let reference = member(referencePosition, of: entry)
            // The usual reference, a string alone, without the object made to check it.
            let result =
                tape.kind(of: reference) == .string && tape.count(of: entry) == 1
                ? .success(tape.string(at: reference))
                : DictionaryRules.reference(tape.json(at: reference), members: tape.json(at: entry).objectValue!)
            switch result {
            case .success(let id):
                if parent < 0 { out.topLevelReferences.append((id, position)) }
                return .id(id)
            case .failure(let failure):
                problem(failure, failure.kind == .typeMismatch ? ["$ref"] : [])
                return nil
            }
        }
        let classEntry = shape.classPosition.map { member($0, of: entry) }
        let slots: EntitySlots
        if let known = recentEntity(classEntry, expected: expected) {
            slots = known
        } else {
            switch DictionaryRules.entity(
                classValue: classEntry.map { tape.json(at: $0) }, expected: expected?.entity, model: schema.model)
            {
            case .success(let found): slots = schema.slots(of: found)
            case .failure(let failure):
                problem(failure)
                return nil
            }
        }
        let entity = slots.entity
        let plan = self.plan(layout, slots)
        let keys = layout.keys

        // Attributes first: a record's values are contiguous.
        let valuesStart = out.values.count
        // Values are added and removed one at a time here: a record has a few, and the standard library's calls for
        // several at once (`repeatElement`, slices, `removeLast(_:)`) take generic paths that cost more.
        for _ in 0..<slots.attributeCount { out.values.append(nil) }
        mostValues = max(mostValues, out.values.count)
        var stated = SmallIndexSet()
        var id: String?
        var statesMoreThanIdentity = false
        var hasProblem = false
        var next = entry + 1
        for (position, member) in plan.enumerated() {
            let value = next
            next = tape.next(after: value)
            switch member {
            case .class:
                continue
            case .id:
                if tape.kind(of: value) == .string {
                    id = tape.string(at: value)
                } else if let failure = DictionaryRules.idProblem(tape.json(at: value)) {
                    problem(failure, ["$id"])
                    hasProblem = true
                }
                statesMoreThanIdentity = true
            case .attribute(let index, let isIdentity):
                if !isIdentity { statesMoreThanIdentity = true }
                switch DictionaryRules.attribute(at: value, of: tape, of: entity, at: index) {
                case .success(let read):
                    out.values[valuesStart + index] = read
                    stated.insert(index)
                case .failure(let failure):
                    problem(failure, [keys[position]])
                    hasProblem = true
                    // Stated, though unreadable: reported once, not also as missing.
                    stated.insert(index)
                }
            case .relationship:
                statesMoreThanIdentity = true
            case .unknown:
                let key = keys[position]
                problem(DictionaryRules.unknownKey(key, value: tape.json(at: value), of: entity), [key], isAtKey: true)
                statesMoreThanIdentity = true
                hasProblem = true
            }
        }
        var key: SeedKey?
        if entity.identityIndices.count == 1 {
            // The usual identity, one attribute: its key without an array of one value made and freed.
            if let value = out.values[valuesStart + entity.identityIndices[0]] { key = SeedKey(identityOf: entity, value: value) }
        } else if !entity.identityIndices.isEmpty {
            var identity: [AttributeValue] = []
            identity.reserveCapacity(entity.identityIndices.count)
            for index in entity.identityIndices {
                guard let value = out.values[valuesStart + index] else { break }
                identity.append(value)
            }
            if identity.count == entity.identityIndices.count { key = SeedKey(identityOf: entity, values: identity) }
        }
        // A stub: a reference by identity where a relationship that does not own its members expects an object.
        if parent >= 0, !owned, !statesMoreThanIdentity, let key {
            for _ in 0..<slots.attributeCount { out.values.removeLast() }
            out.stubKeys.append(key)
            return .key(Int32(out.stubKeys.count - 1), entity: Int32(slots.ordinal))
        }
        if hasProblem && key == nil && parent >= 0 && !owned && !statesMoreThanIdentity {
            for _ in 0..<slots.attributeCount { out.values.removeLast() }
            return nil
        }

        let record = Int32(out.records.count)
        if let id {
            if key == nil { key = SeedKey(kind: .id, root: "", text: id) } else { out.idsBesideIdentity[record] = id }
        }
        out.records.append(
            TemplateRecord(
                key: key, values: Int32(valuesStart), entity: Int32(slots.ordinal), parent: parent,
                relationship: relationship, position: position, stated: stated))
        let linksStart = pendingLinks.count
        next = entry + 1
        for (position, member) in plan.enumerated() {
            let value = next
            next = tape.next(after: value)
            guard case .relationship(let index) = member else { continue }
            let memberPosition = position, kind = tape.kind(of: value)
            // The relationship's fields, not the description: copying it costs a retain and a release per string.
            let isByIdentity = entity.relationships[index].isByIdentity, owns = slots.owns[index]
            let destination = schema.entities[slots.destinations[index]]
            if !DictionaryRules.hasShape(kind, isToMany: entity.relationships[index].isToMany, isByIdentity: isByIdentity),
                let failure = DictionaryRules.shape(
                    of: tape.json(at: value), for: entity.relationships[index], of: entity, destination: destination.entity)
            {
                out.problems.append(
                    RecordProblem(
                        kind: failure.kind, record: record, path: [keys[memberPosition]], isAtKey: false,
                        message: failure.message))
                continue
            }
            let relationshipIndex = Int32(index)
            switch kind {
            case .null:
                pendingLinks.append(RecordLink(relationship: relationshipIndex, position: -1, target: .none))
            case .array:
                let count = tape.count(of: value)
                if count == 0 { pendingLinks.append(RecordLink(relationship: relationshipIndex, position: -1, target: .none)) }
                var nextElement = value + 1
                for position in 0..<count {
                    let element = nextElement
                    nextElement = tape.next(after: element)
                    // The flag first: a look at the element only where the model allows identity values.
                    if isByIdentity, DictionaryRules.isIdentityValue(tape.kind(of: element)) {
                        guard let target = identityTarget(
                            element, destination: destination, record: record,
                            path: { [keys[memberPosition], String(position)] }, into: &out)
                        else { continue }
                        pendingLinks.append(RecordLink(relationship: relationshipIndex, position: Int32(position), target: target))
                        continue
                    }
                    guard let target = read(
                        element, into: &out, parent: record, relationship: relationshipIndex, position: Int32(position),
                        expected: destination, owned: owns)
                    else { continue }
                    pendingLinks.append(RecordLink(relationship: relationshipIndex, position: Int32(position), target: target))
                }
            case .object:
                guard let target = read(
                    value, into: &out, parent: record, relationship: relationshipIndex, position: -1, expected: destination,
                    owned: owns)
                else { continue }
                pendingLinks.append(RecordLink(relationship: relationshipIndex, position: -1, target: target))
            default:
                // The shape is right, so it is an identity value.
                guard let target = identityTarget(
                    value, destination: destination, record: record, path: { [keys[memberPosition]] }, into: &out)
                else { continue }
                pendingLinks.append(RecordLink(relationship: relationshipIndex, position: -1, target: target))
            }
        }
        out.records[Int(record)].links = Int32(out.links.count)
        out.records[Int(record)].linkCount = Int32(pendingLinks.count - linksStart)
        // One at a time, as values are.
        for index in linksStart..<pendingLinks.count { out.links.append(pendingLinks[index]) }
        while pendingLinks.count > linksStart { pendingLinks.removeLast() }
        return .record(record)
    }

    /// The link of a member named by its identity value alone (at the tape's `entry`): the key its identity stub
    /// would name.
    private func identityTarget(
        _ entry: Int, destination: EntitySlots, record: Int32, path: () -> [String], into out: inout TemplateRecords
    ) -> LinkTarget? {
        switch DictionaryRules.identityValue(tape.json(at: entry), destination: destination.entity) {
        case .success(let identity):
            out.stubKeys.append(SeedKey(identityOf: destination.entity, value: identity))
            return .key(Int32(out.stubKeys.count - 1), entity: Int32(destination.ordinal))
        case .failure(let failure):
            out.problems.append(RecordProblem(kind: failure.kind, record: record, path: path(), isAtKey: false, message: failure.message))
            return nil
        }
    }

    /// The entry of the member at `position` of the object at `entry`.
    private func member(_ position: Int, of entry: Int) -> Int {
        var member = entry + 1
        for _ in 0..<position { member = tape.next(after: member) }
        return member
    }

    /// What each key of `layout` is for the entity of `slots`, worked out once per layout and entity.
    private mutating func plan(_ layout: JSONKeyLayout, _ slots: EntitySlots) -> [Member] {
        // A file's objects alternate between a few layouts (a department, its employees, their addresses): comparing
        // a few references finds their plans without hashing.
        for index in recentPlans.indices where recentPlans[index].layout === layout && recentPlans[index].entity == slots.ordinal {
            return recentPlans[index].members
        }
        let key = PlanKey(layout: layout, entity: slots.ordinal)
        let plan: [Member]
        if let known = plans[key] {
            plan = known
        } else {
            let entity = slots.entity
            plan = layout.keys.map { name -> Member in
                if name == "class" { return .class }
                if name == "$id" { return .id }
                if let index = entity.attributeIndex(forKey: name) {
                    return .attribute(index, isIdentity: entity.identityIndices.contains(index))
                }
                if let index = entity.relationshipIndex(forKey: name) { return .relationship(index) }
                return .unknown
            }
            plans[key] = plan
        }
        Self.remember((layout, slots.ordinal, plan), in: &recentPlans, next: &nextRecentPlan)
        return plan
    }

    private mutating func shape(of layout: JSONKeyLayout) -> Shape {
        for index in recentShapes.indices where recentShapes[index].layout === layout { return recentShapes[index].shape }
        let shape: Shape
        if let known = shapes[ObjectIdentifier(layout)] {
            shape = known.shape
        } else {
            shape = Shape(
                classPosition: layout.keys.firstIndex(of: "class"), referencePosition: layout.keys.firstIndex(of: "$ref"))
            shapes[ObjectIdentifier(layout)] = (layout, shape)
        }
        Self.remember((layout, shape), in: &recentShapes, next: &nextRecentShape)
        return shape
    }

    /// Adds `entry` to a list of recent ones, replacing the oldest once the list holds ``recentCount``.
    private static func remember<Entry>(_ entry: Entry, in recent: inout [Entry], next: inout Int) {
        if recent.count < recentCount {
            recent.append(entry)
        } else {
            recent[next] = entry
            next = (next + 1) % recentCount
        }
    }

    /// The entity `"class"` (the tape's `classEntry`) names when it is one named lately and a kind of `expected`, or
    /// `"class"` is left out where only `expected` fits; nil for anything else, which ``DictionaryRules`` then decides
    /// (or reports).
    private mutating func recentEntity(_ classEntry: Int?, expected: EntitySlots?) -> EntitySlots? {
        guard let classEntry else { return expected.flatMap { $0.entity.kinds.count == 1 ? $0 : nil } }
        guard tape.kind(of: classEntry) == .string else { return nil }
        var found: EntitySlots?
        for index in recentClasses.indices
        where recentClasses[index].name.withUnsafeBufferPointer({ tape.string(at: classEntry, is: $0) }) {
            found = recentClasses[index].slots
            break
        }
        if found == nil {
            let name = tape.string(at: classEntry)
            guard let entity = schema.model.entity(named: name) else { return nil }
            let slots = schema.slots(of: entity)
            Self.remember((Array(name.utf8), slots), in: &recentClasses, next: &nextRecentClass)
            found = slots
        }
        guard let found, let expected else { return found }
        return schema.isKind(found.ordinal, of: expected.ordinal) ? found : nil
    }
}

/// The contents of the files being read, each taken once by the reader that reads it, so that a file's bytes go as
/// soon as its records are made (when nothing else holds them).
///
/// `@unchecked Sendable`: readers claim files one at a time, so each index is taken by one reader, once.
final class FileContents: @unchecked Sendable {
    private let contents: UnsafeMutableBufferPointer<[UInt8]>

    /// Takes the files' contents, leaving them empty in `files`.
    init(_ files: inout [TemplateSet.File]) {
        contents = .allocate(capacity: files.count)
        for index in files.indices {
            (contents.baseAddress! + index).initialize(to: files[index].bytes)
            files[index].bytes = []
        }
    }

    /// The contents of the file at `index`, which are then no longer kept here.
    func take(_ index: Int) -> [UInt8] {
        let bytes = contents[index]
        contents[index] = []
        return bytes
    }

    deinit {
        contents.deinitialize().deallocate()
    }
}
