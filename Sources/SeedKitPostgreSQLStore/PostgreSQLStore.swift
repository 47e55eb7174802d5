import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL

/// A store in a PostgreSQL database, shared by every process and host that opens it: the seeding pipeline's rows,
/// its ledger, and the canonical export read and write it as they do an SQLite store.
///
///     let store = try PostgreSQLStore(url: "postgresql://app@db.internal/catalog", model: model)
///     try store.write {                      // BEGIN, then the store's advisory lock: one writer at a time
///         try store.insert(batch)            // binary COPY
///         try store.replaceLedger(sections)
///     }
///
/// The layout is an SQLite store's (``PostgreSQLSchema``); the schema and the ledger live in the database, the model
/// the store was created with in `_seedkit_metadata`. ``write(_:)`` takes a transaction-scoped advisory lock keyed by
/// the database's name, so that seeders on many hosts serialize on it and each reads what the one before committed.
///
/// Contexts read and save through it as through an SQLite store (fetches, faults, identity lookups; saves with
/// permanent row ids, row versions and merge-policy conflicts). A model different from the one the store was
/// created with is refused (kind `migrationRefused`): lightweight migration is SQLite's alone for now.
///
/// A store is confined to one isolation domain, like its connection.
package final class PostgreSQLStore: RowStore {
    package let model: EntityModel
    package let connection: PostgreSQLConnection
    /// The URL without its password, for messages.
    package let location: String
    let schema: PostgreSQLSchema
    /// Per entity: where its values are in a row of ``PostgreSQLTable/selectColumns``.
    let rowLayouts: [String: RowLayout]
    /// The key of the advisory lock ``write(_:)`` takes.
    let lockKey: Int64

    static let metadataTable = "_seedkit_metadata"
    static let ledgerTable = "_seedkit_ledger"
    /// The layout version of the tables, as ``SQLiteStore``'s.
    static let schemaVersion = 1

    /// Connects to the database at `url` and, unless `defersSchemaChanges`, creates the store's schema in it when
    /// the database holds none.
    ///
    /// - Throws: ``PostgreSQLError`` when the server can't be reached or refuses the connection (its message names
    ///   the host and database, never the password); ``StoreError`` for a database holding another model's store,
    ///   a newer store, or tables that are no store, and for a model PostgreSQL can't lay out.
    package init(url: String, model: EntityModel, defersSchemaChanges: Bool = false) throws {
        self.model = model
        schema = try PostgreSQLSchema(model: model)
        connection = try PostgreSQLConnection(url: url)
        location = connection.url.description
        lockKey = Int64(bitPattern: StableHash.value(of: Array("seedkit store \(connection.url.database ?? "")".utf8)))
        var layouts: [String: RowLayout] = [:]
        for entity in model.entities {
            layouts[entity.name] = RowLayout(entity: entity, table: schema.tables[entity.rootName]!)
        }
        rowLayouts = layouts
        if !defersSchemaChanges { try write { try prepareSchema() } }
    }

    /// A new context whose fetches read from this store.
    package func newContext() -> ObjectContext {
        ObjectContext(model: model, persistentStore: self)
    }

    // MARK: Schema

    /// Creates the schema in a database without one, or checks that the store there is of this model.
    ///
    /// Call it inside ``write(_:)``: under the store's lock, two processes never both create it.
    ///
    /// - Throws: ``StoreError``: `notAStore` for tables without SeedKit's metadata or a newer layout,
    ///   `migrationRefused` for a store of another model.
    package func prepareSchema() throws {
        let existing = try storeState()
        switch existing {
        case .none:
            for sql in schema.creationSQL { try connection.execute(sql: sql) }
            try connection.execute(sql: """
                CREATE TABLE \(quoted(Self.metadataTable)) ("key" text COLLATE "C" PRIMARY KEY, "value" text NOT NULL)
                """)
            let insert = try connection.cachedStatement(
                sql: "INSERT INTO \(quoted(Self.metadataTable)) (\"key\", \"value\") VALUES ($1, $2)")
            for (key, value) in [
                ("schemaVersion", String(Self.schemaVersion)), ("modelFingerprint", model.fingerprint),
                ("model", model.json.text(style: .canonical)),
            ] {
                _ = try insert.execute(arguments: [.text(key), .text(value)])
            }
        case .store(let fingerprint):
            guard fingerprint == model.fingerprint else {
                throw StoreError(
                    .migrationRefused, path: location,
                    "the database holds a store of another model, and PostgreSQL stores are not migrated yet: seed a "
                        + "new database, or drop this one's tables")
            }
        }
    }

    private enum StoreState {
        case none
        case store(fingerprint: String?)
    }

    /// Whether the database holds no table, or a store (of which model).
    private func storeState() throws -> StoreState {
        let tables = try connection.query(sql: """
            SELECT count(*), count(*) FILTER (WHERE c.relname = $1) FROM pg_catalog.pg_class c
            WHERE c.relkind IN ('r', 'p') AND c.relnamespace = current_schema()::regnamespace
            """, arguments: [.text(Self.metadataTable)])
        let (all, metadata) = (try tables[0].int64(at: 0) ?? 0, try tables[0].int64(at: 1) ?? 0)
        if all == 0 { return .none }
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
        return .store(fingerprint: values["modelFingerprint"])
    }

    /// The model of the store at `url`: the one it was created with. Nil for a database without a store.
    package static func storedModel(url: String) throws -> EntityModel? {
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
