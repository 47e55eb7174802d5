import Foundation
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

/// A persistent store on SQLite: the tables a model's objects are saved to and fetched from.
///
///     let store = try SQLiteStore(path: "company.sqlite", model: model)
///     let context = store.newContext()
///     let sales = try context.insert("Department", values: ["name": "Sales"])
///     try context.save()                      // one BEGIN IMMEDIATE transaction
///     let departments = try context.fetch("Department")
///
/// Opening creates the file and its schema if absent, checks the model against the one the store was created with,
/// and migrates lightweight changes (new entities, attributes and relationships, renames through aliases) in one
/// transaction. Changes that would lose data are refused unless ``Options/allowsDataLoss`` is set.
///
/// A store and its contexts are confined to one isolation domain, like their ``SQLiteConnection``. Other processes and
/// other stores on the same file see each other's saves (the connection runs in WAL mode with a busy timeout).
public final class SQLiteStore: PersistentStore {
    /// What opening a store may do.
    public struct Options: Sendable {
        /// Whether a migration may drop or retype columns and make optional attributes required. The default is false.
        public var allowsDataLoss = false
        /// How the connection is opened.
        public var connection = SQLiteConnection.Configuration()
        /// Whether opening leaves creating or migrating the schema to ``prepareSchema()``, so that a caller can make
        /// it part of its own transaction (the seeder's, with the rows and the ledger).
        package var defersSchemaChanges = false

        public init() {}
    }

    public let model: EntityModel
    /// The connection the store reads and writes through.
    package let connection: SQLiteConnection
    /// A hash of the model's canonical JSON: two models with the same fingerprint have the same schema.
    package let modelFingerprint: String
    /// The options the store was opened with, for a deferred ``prepareSchema()``.
    let options: Options

    package let schema: StoreSchema
    /// The INSERT statement text of each entity of the model, by entity, built on first use.
    var insertSQLByEntity: [ObjectIdentifier: String] = [:]
    /// The multi-row INSERT statements of bulk inserts (``RowStore/insert(_:)``), by entity and row count: found
    /// without hashing their long texts.
    var rowInsertStatements: [RowInsertShape: Statement] = [:]
    // What every fetch reads and changes is `@exclusivity(unchecked)`: each access is short, none overlaps another of
    // the same property, and a store is used from one isolation domain; checked at run time, the accesses cost a fetch
    // by identity about what binding its value does.

    /// The statements of fetches and counts, by shape: a repeated fetch binds its values and builds no SQL.
    @exclusivity(unchecked) var fetchPlans: [FetchShape: FetchPlan] = [:]
    /// The last plan found, with its shape: a run of fetches of one shape finds it without hashing.
    @exclusivity(unchecked) var lastFetchPlan: (shape: FetchShape, plan: FetchPlan)?
    /// The shape and values of the fetch or count being run, kept for their storage (see ``FetchShape/load``).
    @exclusivity(unchecked) var fetchShape = FetchShape()
    @exclusivity(unchecked) var fetchValues: [AttributeValue?] = []
    /// The bytes of the running fetch's strings, bound where they lie (see `withBound`), and how many fetches are
    /// running: one nested in another's reading of rows binds its strings as copies.
    @exclusivity(unchecked) var fetchText: [UInt8] = []
    @exclusivity(unchecked) var fetchDepth = 0
    /// The entity of the rows read last.
    @exclusivity(unchecked) var lastRowEntity: RowEntity?
    /// The multi-row INSERT statements of join rows, by table and row count.
    var joinInsertStatements: [JoinInsertShape: Statement] = [:]

    /// The layout version of the store's tables, kept in its metadata.
    package static let schemaVersion = 1
    static let metadataTable = "_seedkit_metadata"

    /// Opens the store at `path`, creating it if absent, or migrating it to `model`.
    ///
    /// - Throws: ``DatabaseError`` for a missing directory, a file that is not an SQLite database, or a corrupted one;
    ///   ``StoreError`` for a database that is not a SeedKit store (`notAStore`), a model that can't be stored
    ///   (`invalidSchema`) or a migration that would lose data (`migrationRefused`). The file is unchanged then.
    /// - Complexity: O(*n*) in the size of the model for a store that is up to date; a migration also
    ///   rewrites the tables it changes.
    public convenience init(path: String, model: EntityModel, options: Options = Options()) throws {
        try self.init(model: model, schema: StoreSchema(model: model), options: options) { configuration in
            try SQLiteConnection(path: path, configuration: configuration)
        }
    }

    /// Opens the store in the database of the connection `connect` opens with the configuration it is given (the
    /// options' without write-ahead logging), as ``init(path:model:options:)`` describes: the one way a store opens.
    ///
    /// - Parameter schema: The model's layout, `StoreSchema(model: model)`: a copy takes its store's.
    /// - Complexity: As ``init(path:model:options:)``, plus what `connect` costs.
    init(
        model: EntityModel, schema: StoreSchema, options: Options,
        connect: (SQLiteConnection.Configuration) throws -> SQLiteConnection
    ) throws {
        self.model = model
        self.schema = schema
        self.modelFingerprint = model.fingerprint
        // Write-ahead logging only once the file is known to be empty or a store: switching a file to it writes to it.
        var configuration = options.connection
        configuration.usesWriteAheadLog = false
        self.connection = try connect(configuration)
        self.options = options
        try defineMatchFunction()
        do {
            _ = try Self.contents(of: connection)
            if options.connection.usesWriteAheadLog { try connection.enableWriteAheadLog() }
            guard !options.defersSchemaChanges else { return }
            try prepareSchema()
        } catch var error as StoreError {
            error.path = connection.path
            throw error
        }
    }

    /// Opens a private, empty store in memory.
    public static func inMemory(model: EntityModel) throws -> SQLiteStore {
        try SQLiteStore(path: ":memory:", model: model)
    }

    /// Opens a private, empty store in a temporary file that SQLite removes when the store closes: for a store too
    /// large to hold in memory whole, as only SQLite's page cache is in memory.
    ///
    ///     let scratch = try SQLiteStore.temporary(model: model)      // filled, read, and gone with `scratch`
    public static func temporary(model: EntityModel) throws -> SQLiteStore {
        // An empty name is SQLite's private temporary database, in the directory SQLite chooses for temporary files.
        try SQLiteStore(path: "", model: model)
    }

    /// A new context whose fetches and saves go to this store.
    public func newContext() -> ObjectContext {
        ObjectContext(model: model, persistentStore: self)
    }

    /// Creates the schema in an empty database, or checks and migrates a store's.
    ///
    /// The usual open finds the store up to date and takes no write lock. Otherwise the state is read again inside
    /// a `BEGIN IMMEDIATE` transaction before anything is written: another process may have created or migrated the
    /// store between the two reads, and SQLite serializes only the second one. Inside the caller's transaction,
    /// which holds the write lock, it is part of that transaction.
    package func prepareSchema() throws {
        guard let pending = try pendingSchemaChange() else { return }
        if case .creation = pending, connection.isReadOnly { return }
        let inCallersTransaction = connection.isInsideTransaction
        func change() throws {
            switch try pendingSchemaChange() {
            case nil:
                return
            case .creation:
                for sql in schema.creationSQL { try connection.execute(sql: sql) }
                try connection.execute(
                    sql: "CREATE TABLE \(SQLIdentifier.quote(Self.metadataTable)) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT NOT NULL)")
                try writeMetadata()
            case .migration(let storedModel):
                try migrate(from: storedModel, options: options)
            }
        }
        if inCallersTransaction { try connection.inSavepoint(change) } else { try connection.inTransaction(.immediate, change) }
    }

    /// What opening must write: nothing, the whole schema, or a migration from the model the store holds.
    private enum SchemaChange {
        case creation
        case migration(from: EntityModel)
    }

    /// Reads the database's tables and metadata and says what it lacks, or nil when it is a store of this model.
    ///
    /// - Throws: ``StoreError`` of kind `notAStore` for tables without SeedKit metadata, or a newer or unreadable one.
    private func pendingSchemaChange() throws -> SchemaChange? {
        guard let (_, metadata) = try Self.contents(of: connection) else { return .creation }
        guard metadata["modelFingerprint"] != modelFingerprint else { return nil }
        guard let modelText = metadata["model"], let storedModel = try? EntityModel(json: JSONDocument(parsing: modelText).value)
        else {
            throw StoreError(.notAStore, "the store's metadata holds no readable model")
        }
        return .migration(from: storedModel)
    }

    func writeMetadata() throws {
        let upsert = try connection.cachedStatement(
            sql: "INSERT OR REPLACE INTO \(SQLIdentifier.quote(Self.metadataTable)) (\"key\", \"value\") VALUES (?, ?)")
        for (key, value) in [
            ("schemaVersion", String(Self.schemaVersion)), ("modelFingerprint", modelFingerprint),
            ("model", model.json.text(style: .canonical)),
        ] {
            try upsert.execute(arguments: [.text(key), .text(value)])
        }
    }

    /// The tables and metadata of the store in `connection`'s database, or nil for an empty database; read only.
    ///
    /// - Throws: ``StoreError`` of kind `notAStore` for tables without SeedKit metadata, or a store of a newer schema
    ///   version (written by a newer SeedKit), which this one must neither read nor write.
    static func contents(of connection: SQLiteConnection) throws -> (tables: Set<String>, metadata: [String: String])? {
        // Cached: a store reads them as it opens, and again each time it prepares its schema for a write.
        let tables = try connection.cachedStatement(sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        var tableNames: Set<String> = []
        while try tables.step() { tableNames.insert(tables.text(at: 0)) }
        if tableNames.isEmpty { return nil }
        guard tableNames.contains(Self.metadataTable) else {
            throw StoreError(.notAStore, "the database has tables but no \(Self.metadataTable) table: it is not a SeedKit store")
        }
        let select = try connection.cachedStatement(sql: "SELECT \"key\", \"value\" FROM \(SQLIdentifier.quote(Self.metadataTable))")
        var metadata: [String: String] = [:]
        while try select.step() { metadata[select.text(at: 0)] = select.text(at: 1) }
        guard let version = metadata["schemaVersion"].flatMap(Int.init), version <= Self.schemaVersion else {
            throw StoreError(
                .notAStore,
                "the store's schema version \(metadata["schemaVersion"] ?? "(missing)") is not one this SeedKit reads "
                    + "(up to \(Self.schemaVersion)): it was written by a newer SeedKit")
        }
        return (tableNames, metadata)
    }
}

/// What a multi-row INSERT statement depends on.
struct RowInsertShape: Hashable {
    let entity: ObjectIdentifier
    let rowCount: Int
}

/// What a multi-row INSERT statement of join rows depends on.
struct JoinInsertShape: Hashable {
    let table: String
    let rowCount: Int
}

// A store is confined like its connection.
@available(*, unavailable)
extension SQLiteStore: Sendable {}

extension ObjectContext {
    /// A context whose fetches read from `store` and whose saves write to it; the same as `store.newContext()`.
    ///
    ///     let context = ObjectContext(model: model, store: try SQLiteStore(path: "company.sqlite", model: model))
    ///
    /// - Precondition: `model` is the store's model.
    public convenience init(model: EntityModel, store: SQLiteStore) {
        self.init(model: model, persistentStore: store)
    }
}
