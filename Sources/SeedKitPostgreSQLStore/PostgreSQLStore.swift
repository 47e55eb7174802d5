import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL

/// A persistent store in a PostgreSQL database, shared by every process and host that opens it: contexts fetch from
/// and save to it as to an ``SQLiteStore``, and `seed --store postgresql://…` seeds, exports and diffs it.
///
///     let store = try PostgreSQLStore(url: "postgresql://app@db.internal/catalog", model: model)
///     let context = store.newContext()
///     let sales = try context.upsert("Department", identity: ["name": "Sales"]).object
///     try context.save()                      // one transaction, holding the store's advisory lock
///
/// The URL is libpq's (`postgresql://` or `postgres://`, with parameters such as `?sslmode=require`); no message
/// repeats its password. The layout is an SQLite store's: a table per root entity, join tables, unique identity
/// indexes, text C-collated so identities compare as exact bytes, decimals `numeric`, dates `timestamptz` with their
/// nanoseconds beside them; the model the store was created with is in `_seedkit_metadata`, the seed ledger in
/// `_seedkit_ledger`. Opening creates the schema in a database without one, or migrates the store there as an SQLite
/// store is migrated (lightweight changes, drops only with ``Options/allowsDataLoss``), in one transaction.
///
/// Contexts behave as over an SQLite store: fetches run in SQL, faults load lazily, saves are all or nothing with
/// permanent row ids, row versions and merge-policy conflicts. Writes take a transaction-scoped advisory lock keyed by
/// the database's name, so that writers on many hosts serialize on it and each reads what the one before committed.
///
/// A store and its contexts are confined to one isolation domain, like its connection.
public final class PostgreSQLStore: RowStore {
    /// What opening a store may do.
    public struct Options: Sendable {
        /// Whether a migration may drop the tables and columns of entities and properties the new model no longer
        /// has. The default is false.
        public var allowsDataLoss = false
        /// Whether opening leaves creating or migrating the schema to ``prepareSchema()``, so that a caller can make
        /// it part of its own transaction (the seeder's, with the rows and the ledger).
        package var defersSchemaChanges = false

        public init() {}
    }

    public let model: EntityModel
    package let connection: PostgreSQLConnection
    /// The store's URL without its password: `postgresql://app@db.internal:5432/catalog`.
    public let location: String
    let schema: PostgreSQLSchema
    /// Per entity: where its values are in a row of ``PostgreSQLTable/selectColumns``.
    let rowLayouts: [String: RowLayout]
    /// The key of the advisory lock ``write(_:)`` takes.
    let lockKey: Int64

    static let metadataTable = "_seedkit_metadata"
    static let ledgerTable = "_seedkit_ledger"
    /// The layout version of the tables, as ``SQLiteStore``'s.
    static let schemaVersion = 1

    /// The options the store was opened with, for a deferred ``prepareSchema()``.
    let options: Options

    /// Connects to the database at `url` and, unless `options` defer it, creates the store's schema in it when the
    /// database holds none, or migrates the store there to `model`.
    ///
    /// - Throws: ``PostgreSQLError`` when the server can't be reached or refuses the connection (its message names
    ///   the host and database, never the password); ``StoreError`` for a database holding a newer store or tables
    ///   that are no store, a model PostgreSQL can't lay out, or a migration that would lose data.
    /// - Complexity: One connection and a few round trips when the store is there with this model; creating or
    ///   migrating the schema adds a statement per table, column and index changed.
    public init(url: String, model: EntityModel, options: Options = Options()) throws {
        self.model = model
        self.options = options
        schema = try PostgreSQLSchema(model: model)
        connection = try PostgreSQLConnection(url: url)
        location = connection.url.description
        lockKey = Int64(bitPattern: StableHash.value(of: Array("seedkit store \(connection.url.database ?? "")".utf8)))
        var layouts: [String: RowLayout] = [:]
        for entity in model.entities {
            layouts[entity.name] = RowLayout(entity: entity, table: schema.tables[entity.rootName]!)
        }
        rowLayouts = layouts
        if !options.defersSchemaChanges { try write { try prepareSchema() } }
    }

    /// A new context whose fetches read from this store and whose saves write to it.
    public func newContext() -> ObjectContext {
        ObjectContext(model: model, persistentStore: self)
    }

    // MARK: Schema

    /// Creates the schema in a database without one, or migrates the store there to this store's model (see
    /// ``SchemaMigration``).
    ///
    /// Call it inside ``write(_:)``: under the store's lock, two processes never both create or migrate it, and the
    /// change commits or rolls back with what the transaction writes after it.
    ///
    /// - Throws: ``StoreError``: `notAStore` for tables without SeedKit's metadata or a newer layout,
    ///   `migrationRefused` for a migration that would lose data (before anything is written).
    package func prepareSchema() throws {
        guard let metadata = try storeMetadata() else {
            for sql in schema.creationSQL { try connection.execute(sql: sql) }
            try connection.execute(sql: """
                CREATE TABLE \(quoted(Self.metadataTable)) ("key" text COLLATE "C" PRIMARY KEY, "value" text NOT NULL)
                """)
            try writeMetadata()
            return
        }
        guard metadata["modelFingerprint"] != model.fingerprint else { return }
        guard let text = metadata["model"], let storedModel = try? EntityModel(json: JSONDocument(parsing: text).value)
        else {
            throw StoreError(.notAStore, path: location, "the store's metadata holds no readable model")
        }
        do {
            try migrate(from: storedModel)
        } catch var error as StoreError {
            error.path = location
            throw error
        }
    }

    /// Records the layout version and this store's model in the metadata table.
    func writeMetadata() throws {
        let upsert = try connection.cachedStatement(sql: """
            INSERT INTO \(quoted(Self.metadataTable)) ("key", "value") VALUES ($1, $2)
            ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"
            """)
        for (key, value) in [
            ("schemaVersion", String(Self.schemaVersion)), ("modelFingerprint", model.fingerprint),
            ("model", model.json.text(style: .canonical)),
        ] {
            _ = try upsert.execute(arguments: [.text(key), .text(value)])
        }
    }

    /// The store's metadata, or nil when the database holds no table.
    private func storeMetadata() throws -> [String: String]? {
        let tables = try connection.query(sql: """
            SELECT count(*), count(*) FILTER (WHERE c.relname = $1) FROM pg_catalog.pg_class c
            WHERE c.relkind IN ('r', 'p') AND c.relnamespace = current_schema()::regnamespace
            """, arguments: [.text(Self.metadataTable)])
        let (all, metadata) = (try tables[0].int64(at: 0) ?? 0, try tables[0].int64(at: 1) ?? 0)
        if all == 0 { return nil }
        guard metadata == 1 else {
            throw StoreError(
                .notAStore, path: location,
                "the database has tables but no \(Self.metadataTable) table: it is not a SeedKit store")
        }
        var values: [String: String] = [:]
        for row in try connection.query(sql: "SELECT \"key\", \"value\" FROM \(quoted(Self.metadataTable))") {
            if let key = try row.text(at: 0) { values[key] = try row.text(at: 1) }
        }
        guard let version = values["schemaVersion"].flatMap(Int.init), version <= Self.schemaVersion else {
            throw StoreError(
                .notAStore, path: location,
                "the store's schema version \(values["schemaVersion"] ?? "(missing)") is not one this SeedKit reads "
                    + "(up to \(Self.schemaVersion))")
        }
        return values
    }

    /// The model of the store at `url`: the one it was created with. Nil for a database without a store.
    ///
    ///     if let model = try PostgreSQLStore.storedModel(url: url) {
    ///         let export = try GraphExport().document(of: PostgreSQLStore(url: url, model: model).newContext())
    ///     }
    ///
    /// - Throws: ``PostgreSQLError`` when the server can't be reached; ``StoreError`` of kind `notAStore` for
    ///   metadata without a readable model.
    public static func storedModel(url: String) throws -> EntityModel? {
        let connection = try PostgreSQLConnection(url: url)
        let exists = try connection.query(sql: "SELECT to_regclass($1) IS NOT NULL", arguments: [.text(quoted(metadataTable))])
        guard try exists[0].bool(at: 0) == true else { return nil }
        let result = try connection.query(
            sql: "SELECT \"value\" FROM \(quoted(metadataTable)) WHERE \"key\" = 'model'")
        guard let text = try result.first?.text(at: 0), let model = try? EntityModel(json: JSONDocument(parsing: text).value)
        else {
            throw StoreError(.notAStore, path: connection.url.description, "the store's metadata holds no readable model")
        }
        return model
    }

    /// `url` as messages show it: without its password.
    package static func redacted(url: String) throws -> String {
        try PostgreSQLURL(parsing: url).description
    }

    // MARK: Transactions

    package func read<Result>(_ body: () throws -> Result) throws -> Result {
        guard !connection.isInsideTransaction else { return try body() }
        return try connection.inTransaction(.repeatableRead, body)
    }

    /// Runs `body` in a transaction holding the store's advisory lock from the start, as SQLite's `BEGIN IMMEDIATE`
    /// holds its write lock: under read committed, every statement after the lock sees what the previous holder
    /// committed.
    package func write<Result>(_ body: () throws -> Result) throws -> Result {
        guard !connection.isInsideTransaction else { return try body() }
        return try connection.inTransaction {
            try connection.lockAdvisory(key: lockKey)
            return try body()
        }
    }

    /// Begins a transaction that is never committed, for a dry run to write in: its writes are seen through this store
    /// alone, without the advisory lock (nothing it writes will stand), and go with ``discardTransaction()``.
    ///
    ///     let snapshot = try after.beginDiscardedWrite()
    ///     try before.beginRead(at: snapshot)     // another store on the database: the rows as they were
    ///     try after.write { … }                  // runs inside, takes no lock, commits nothing
    ///     after.discardTransaction()
    ///
    /// - Returns: The snapshot the transaction reads from, for ``beginRead(at:)``.
    package func beginDiscardedWrite() throws -> String {
        try connection.beginTransaction(.repeatableRead)
        return try connection.exportSnapshot()
    }

    /// Begins a read-only transaction that sees the rows of `snapshot` (see ``beginDiscardedWrite()``), ended by
    /// ``discardTransaction()``.
    package func beginRead(at snapshot: String) throws {
        try connection.beginTransaction(.repeatableRead, readOnly: true, snapshot: snapshot)
    }

    /// Rolls back the transaction ``beginDiscardedWrite()`` or ``beginRead(at:)`` began.
    package func discardTransaction() {
        connection.rollBack()
    }
}

/// Where one entity's values are in a row read with its table's ``PostgreSQLTable/selectColumns``.
struct RowLayout {
    /// Per attribute: its first column.
    var attributeColumns: [Int] = []
    /// Per relationship: its foreign key's column for a to-one.
    var targetColumns: [Int?] = []
    /// Per relationship: its position's column, for a to-one whose inverse is an ordered to-many.
    var positionColumns: [Int?] = []

    init(entity: Entity, table: PostgreSQLTable) {
        var offsets: [String: Int] = [:]
        for (index, name) in table.selectColumns.enumerated() { offsets[name] = index }
        attributeColumns = entity.attributes.map { offsets[$0.name]! }
        targetColumns = entity.relationships.map { $0.isToMany ? nil : offsets[$0.name] }
        positionColumns = entity.relationships.map { $0.isToMany ? nil : offsets[StoreNames.positionColumn(inverse: $0.name)] }
    }
}

// A store is confined like its connection.
@available(*, unavailable)
extension PostgreSQLStore: Sendable {}

extension ObjectContext {
    /// A context whose fetches read from `store` and whose saves write to it; the same as `store.newContext()`.
    ///
    /// - Precondition: `model` is the store's model.
    public convenience init(model: EntityModel, store: PostgreSQLStore) {
        self.init(model: model, persistentStore: store)
    }
}
