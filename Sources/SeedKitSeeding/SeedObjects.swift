import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The resolve stage's output: every object of the templates once, however many records state it, with its
/// attribute values and its relationship facts in the slots that store them (``SeedSchema``), and every problem.
///
///     let resolved = SeedResolver.resolve(files, schema: schema, locator: locator, lookUp: lookUp)
///     resolved.toOne(of: 0, at: 0)?.target          // the object a to-one names, or -1 for null
///
/// The objects' values and facts live in arrays of the whole set, each object holding where its own start, so that
/// a set of many objects is a few allocations.
struct SeedObjects: Sendable {
    var objects: [SeedObject] = []
    /// Every object's attribute values, each object's at ``SeedObject/values``, one per attribute of its entity: the
    /// value stated, or nil (stated null, or not stated as ``SeedObject/stated`` says).
    var values: [AttributeValue?] = []
    /// Every object's to-one facts, each object's at ``SeedObject/toOnes``, one per to-one slot of its entity;
    /// ``ToOneFact/unstated`` where no statement says.
    var toOnes: [ToOneFact] = []
    /// Every object's join lists, each object's at ``SeedObject/joins``, one per join slot of its entity: the members
    /// stated (objects, in first-stated order), or nil where no statement says.
    var joins: [[Int32]?] = []
    /// The object each record states, the records of each file after those of the file before, from
    /// ``fileRecordStarts``.
    var recordObjects: [Int32] = []
    /// Where each file's records start in ``recordObjects``.
    var fileRecordStarts: [Int32] = []
    /// Objects whose slots, place or owner a file's links decide though its records do not state them: the target
    /// of an inverse, a member of a list, what is owned. An object first stated in the file is left out.
    var touches: [(file: Int32, object: Int32)] = []
    /// Objects a file's links name that no record states (of the store, or created by reference), or name by
    /// `"$ref"` (but those first stated in the file). With ``recordObjects`` and ``touches``, every object whose plan
    /// depends on the file.
    var references: [(file: Int32, object: Int32)] = []
    /// The row of each object of the store that the templates only reference (and state no record of), by object.
    var storedRowIDs: [Int32: Int64] = [:]
    /// Every problem, located; nothing may be written when there is one.
    var issues: [Diagnostic] = []

    /// The row of an object of the store that the templates only reference; nil for one they state.
    func storedRowID(of object: Int) -> Int64? { storedRowIDs.isEmpty ? nil : storedRowIDs[Int32(object)] }

    func value(of object: Int, at attribute: Int) -> AttributeValue? { values[Int(objects[object].values) + attribute] }

    /// The objects the records of a file state, record by record.
    func recordObjects(ofFile file: Int) -> ArraySlice<Int32> {
        let end = file + 1 < fileRecordStarts.count ? Int(fileRecordStarts[file + 1]) : recordObjects.count
        return recordObjects[Int(fileRecordStarts[file])..<end]
    }

    /// The to-one fact of an object's slot; nil where no statement says.
    func toOne(of object: Int, at slot: Int) -> ToOneFact? {
        let fact = toOnes[Int(objects[object].toOnes) + slot]
        return fact.isStated ? fact : nil
    }

    func join(of object: Int, at slot: Int) -> [Int32]? { joins[Int(objects[object].joins) + slot] }
}

/// One object of the templates.
///
/// Its fields are laid out so that the smaller ones fill what the larger leave: 96 bytes an object, not 128. The row
/// of an object of the store is kept beside, in ``SeedObjects/storedRowIDs``: few objects have one.
struct SeedObject: Sendable {
    /// Its root entity and identity values, else its `"$id"`, else where it is stated; nil for an object without
    /// either that an owner holds, which is known by its owner and place (see ``owner``).
    var key: SeedKey?
    /// The entity's ordinal in the ``SeedSchema``; the most specific any statement names.
    var entity: Int32
    /// Where its attribute values start in ``SeedObjects/values``.
    var values: Int32
    /// Where its to-one facts start in ``SeedObjects/toOnes``.
    var toOnes: Int32 = 0
    /// Where its join lists start in ``SeedObjects/joins``.
    var joins: Int32 = 0
    /// The object that owns it, or -1.
    var owner: Int32 = -1
    /// The relationship of the owner that owns it, and its place among what that relationship owns.
    var ownerRelationship: Int32 = -1
    var ownerPosition: Int32 = 0
    /// ``definition``'s file and record; file -1 for none.
    private var definitionFile: Int32
    private var definitionRecord: Int32
    var stated: SmallIndexSet

    init(key: SeedKey?, definition: RecordReference?, entity: Int32, values: Int32, stated: SmallIndexSet = SmallIndexSet()) {
        self.key = key
        self.entity = entity
        self.values = values
        self.stated = stated
        definitionFile = definition?.file ?? -1
        definitionRecord = definition?.record ?? -1
    }

    /// The first record that states it; nil for an object of the store that the templates only reference.
    var definition: RecordReference? {
        definitionFile < 0 ? nil : RecordReference(file: definitionFile, record: definitionRecord)
    }
}

/// A to-one fact: the target object (-1 for null), and its place in the target's ordered list when the inverse is
/// one. The link that stated it is the resolver's alone, which no later stage reads.
///
/// A slot no statement fills holds ``unstated`` rather than an optional's nil: 8 bytes a slot, not 12.
struct ToOneFact: Sendable {
    var target: Int32
    var position: Int32 = -1

    /// What a slot holds before a statement fills it.
    static let unstated = ToOneFact(target: .min)

    var isStated: Bool { target != .min }
}

/// A link of a file: the file, and the link's index among the file's links. Its record is found only for a problem
/// that needs the link's place.
struct LinkReference: Sendable {
    let file: Int32
    let link: Int32
}

/// A record of one file.
struct RecordReference: Sendable, Hashable {
    let file: Int32
    let record: Int32
}

/// A place in a template: a record (or the top of the file, record -1) and JSON Pointer tokens below it.
struct StatementPlace: Sendable {
    let file: Int32
    let record: Int32
    var path: [String] = []
}

/// An object of the store that a key names, found by the resolve stage's lookup.
struct StoredObject: Sendable {
    /// The entity's ordinal in the ``SeedSchema``.
    let entity: Int32
    let rowID: Int64
}
