/// The resolve stage's output: every object of the templates once, however many records state it, with its
/// attribute values and its relationship facts in the slots that store them (``SeedSchema``), and every problem.
///
///     let resolved = SeedResolver.resolve(files, schema: schema, lookUp: store.lookUp)
///     resolved.objects[0].toOnes[0]?.target      // the object a to-one names, or -1 for null
struct SeedObjects: Sendable {
    var objects: [SeedObject] = []
    /// For each file, the object each of its records states.
    var recordObjects: [[Int32]] = []
    /// Every problem, located; nothing may be written when there is one.
    var issues: [SeedIssue] = []
}

/// One object of the templates.
struct SeedObject: Sendable {
    /// The entity's ordinal in the ``SeedSchema``; the most specific any statement names.
    var entity: Int32
    /// Its root entity and identity values, else its `"$id"`, else where it is stated; nil for an object without
    /// either that an owner holds, which is known by its owner and place (see ``owner``).
    var key: SeedKey?
    /// The first record that states it; nil for an object of the store that the templates only reference.
    var definition: RecordReference?
    /// Per attribute, the value stated, or nil (stated null, or not stated as ``stated`` says).
    var values: [AttributeValue?]
    var stated = AttributeMask()
    /// Per to-one slot: the fact stated, or nil when no statement says.
    var toOnes: [ToOneFact?]
    /// Per join slot: the members stated (objects, in first-stated order), or nil when no statement says.
    var joins: [[Int32]?]
    /// The object that owns it, or -1.
    var owner: Int32 = -1
    /// The relationship of the owner that owns it, and its place among what that relationship owns.
    var ownerRelationship: Int32 = -1
    var ownerPosition: Int32 = 0
    /// For an object of the store that the templates only reference: its row.
    var storedRowID: Int64?
}

/// A to-one fact: the target object (-1 for null), its place in the target's ordered list when the inverse is one,
/// and where it was stated.
struct ToOneFact: Sendable {
    var target: Int32
    var position: Int32 = -1
    let place: StatementPlace
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
