import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// The read stage's output for one template file: every object the file states, nested ones included, as records
/// of their own, and the file's problems.
///
///     {"class": "Department", "name": "Sales", "employees": [{"class": "Employee", "email": "ann@…", "name": "Ann"}]}
///     // record 0: Department, key Department[Sales], link employees/0 → record 1
///     // record 1: Employee, key Employee[ann@…], parent 0 through employees at 0
///
/// Records are in the order their dictionaries begin in the file (a parent before what it nests). A nested
/// dictionary that states only an identity, in a relationship that does not own it, is a reference (a stub), not a
/// record: a link to the key it names. `"$ref"` is a link to an `"$id"`. Values and links live in arrays of the
/// file, each record holding its range, so that a file of many objects is a few allocations.
struct TemplateRecords: Sendable {
    /// The file's index in the template set.
    let file: Int
    var records: [TemplateRecord] = []
    /// Every record's attribute values, each record's at `record.values`, one per attribute of its entity: the
    /// stated value, or nil (stated null or not stated, as `record.stated` says).
    var values: [AttributeValue?] = []
    var links: [RecordLink] = []
    /// The keys identity stubs name, each link to one holding its index here: a key in every link would make each
    /// 56 bytes, not 32.
    var stubKeys: [SeedKey] = []
    /// The `"$id"` of each record that states one beside its identity, by record; the others' is their key.
    var idsBesideIdentity: [Int32: String] = [:]
    var problems: [RecordProblem] = []
    /// Why the file is not JSON; it then has no records.
    var syntaxError: JSONSyntaxError?
    /// `"$ref"` objects at the top of the file: they state nothing, but must name an object.
    var topLevelReferences: [(id: String, position: Int32)] = []

    init(file: Int) {
        self.file = file
    }

    /// The `"$id"` a record states.
    func id(ofRecord record: Int) -> String? { records[record].id(besideIdentity: idsBesideIdentity[Int32(record)]) }
}

/// One object a template states.
///
/// Its fields are laid out so that the smaller ones fill what the larger leave: 88 bytes a record, not 120.
struct TemplateRecord: Sendable {
    /// The root entity and identity values, when the record states every identity value; else its `"$id"` (a key
    /// of kind ``SeedKey/Kind/id``), when it states one. An `"$id"` beside an identity is in
    /// ``TemplateRecords/idsBesideIdentity``: a field of its own would make every record 16 bytes larger.
    var key: SeedKey?
    /// Where its attribute values start in ``TemplateRecords/values``.
    let values: Int32
    /// The entity's ordinal in the ``SeedSchema``.
    var entity: Int32
    /// Where its links start in ``TemplateRecords/links``, and how many.
    var links: Int32 = 0
    var linkCount: Int32 = 0
    /// The record it is nested in, or -1 at the top of the file.
    let parent: Int32
    /// The relationship of the parent it is nested in; -1 at the top.
    let relationship: Int32
    /// Its index in the parent's to-many or the file's top-level array; -1 for a to-one or a file of one object.
    let position: Int32
    /// The attributes the record states, by index.
    var stated: SmallIndexSet

    /// The `"$id"` it states: its key's, or `besideIdentity`, the one kept aside for it when its key is its identity.
    func id(besideIdentity: @autoclosure () -> String?) -> String? {
        guard let key else { return nil }
        return key.kind == .id ? key.text : besideIdentity()
    }

    /// Its identity key: nil when it states no identity, whether or not it states an `"$id"`.
    var identityKey: SeedKey? { key?.kind == .identity ? key : nil }
}

/// A relationship fact a record states.
struct RecordLink: Sendable {
    /// The relationship's index in the record's entity.
    let relationship: Int32
    /// The member's index in a to-many; -1 for a to-one.
    let position: Int32
    let target: LinkTarget
}

/// What a link names.
enum LinkTarget: Sendable {
    /// `null` for a to-one; for a to-many, `null` or `[]`: the relationship is stated empty.
    case none
    /// A record of the same file, nested here.
    case record(Int32)
    /// The object of an identity stub, which says it is a kind of the entity with this ordinal: the stub's key, by
    /// its index in ``TemplateRecords/stubKeys``.
    case key(Int32, entity: Int32)
    /// The object with this `"$id"`.
    case id(String)
}

/// A problem the read stage found, located by record and the tokens below it.
struct RecordProblem: Sendable {
    let kind: GraphDecodingError.Kind
    /// The record the problem is in; -1 for the top of the file.
    let record: Int32
    /// JSON Pointer tokens from the record to the problem.
    let path: [String]
    /// Whether the problem is at a member's key rather than its value (an unknown key).
    let isAtKey: Bool
    let message: String
}
