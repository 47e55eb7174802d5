import SeedKitSupport
import SeedKitJSON
import SeedKitModel

/// Row-level access to a store, for work in bulk: the seeding pipeline's plan and write stages, and the canonical
/// export. The store's own language (SQL for SQLite, COPY for PostgreSQL) stays behind it.
///
///     let rows = try store.rows(root: "Employee", rowIDs: [1, 2])          // nil for a row that is gone
///     try store.write {                                                    // one transaction, all or nothing
///         try store.insert(batch)
///         try store.replaceLedger(sections)
///     }
///
/// Rows are spoken of in the model's terms: a row's attribute values in its entity's attribute order, its to-ones by
/// relationship index, join lists by the owner end's relationship. Reads see one snapshot inside
/// ``PersistentStore/read(_:)`` and ``PersistentStore/write(_:)``; writes happen only in the latter.
package protocol RowStore: PersistentStore {
    // MARK: Reading

    /// The rows of a root entity that have these identities (values in identity order): per identity, the row's id
    /// and entity, or nil. Values compare as exact bytes.
    func lookUp(identities: [[AttributeValue]], root: String) throws -> [StoredIdentity?]

    /// The identity of every row of a root entity that has one.
    func identities(root: String) throws -> [(values: [AttributeValue], row: StoredIdentity)]

    /// Rows of a root entity by id, in the order asked; nil for a row that is gone.
    func rows(root: String, rowIDs: [Int64]) throws -> [StoredRow?]

    /// Every row of a root entity, in row id order.
    func allRows(root: String) throws -> [StoredRow]

    /// Calls `body` with every row of a root entity, in row id order, one at a time.
    func forEachRow(root: String, _ body: (StoredRow) throws -> Void) throws

    /// The members of a join list, by source row: in their order when `isOrdered`, else in row id order.
    func joinMembers(table: String, sources: [Int64]?, isOrdered: Bool) throws -> [Int64: [Int64]]

    /// The largest row id of a root entity's rows, or 0.
    func largestRowID(root: String) throws -> Int64

    /// The number of rows of a root entity: what a reader of them all can size its arrays for.
    func rowCount(root: String) throws -> Int

    /// Sections of the seed ledger by name (all of them for nil); empty when nothing was ever seeded.
    ///
    /// - Throws: ``LedgerStorageError`` when the store holds a ledger in a form this SeedKit does not read.
    func ledgerSections(named names: [String]?) throws -> [String: [UInt8]]

    // MARK: Writing

    /// Creates the schema in a database without one, or migrates the store there to the store's model (see
    /// ``SchemaMigration``): inside ``PersistentStore/write(_:)``, so that the change commits or rolls back with the
    /// rest of the transaction.
    ///
    /// - Throws: ``StoreError`` of kind `notAStore` or `migrationRefused`, before anything is written.
    func prepareSchema() throws

    /// Runs `body`, which fills empty tables with many rows, inside ``PersistentStore/write(_:)``: the store may build its indexes
    /// once after the rows rather than row by row.
    func bulkLoad<Result>(_ body: () throws -> Result) throws -> Result

    /// Inserts rows of one entity.
    func insert(_ rows: RowBatch) throws

    /// Updates the given slots of rows of one entity, and their version: only those slots of the batch are read.
    func update(_ rows: RowBatch, attributes: [Int], toOnes: [Int], entityChanges: Bool) throws

    /// Deletes rows of a root entity.
    func delete(root: String, rowIDs: [Int64]) throws

    /// Replaces the members of join lists: each source's rows in the table are deleted and its members inserted.
    func replaceJoinMembers(table: String, members: [(source: Int64, targets: [Int64])], isOrdered: Bool, sourcesAreNew: Bool) throws

    /// Replaces the seed ledger with these sections.
    func replaceLedger(_ sections: [String: [UInt8]]) throws
}

extension RowStore {
    /// Every row of a root entity, in row id order: the rows of ``forEachRow(root:_:)`` gathered.
    package func allRows(root: String) throws -> [StoredRow] {
        var rows: [StoredRow] = []
        try forEachRow(root: root) { rows.append($0) }
        return rows
    }
}

/// A seed ledger in a form this SeedKit does not read, found where the ledger is kept.
package struct LedgerStorageError: Error {
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }
}

/// A stored row found by identity.
package struct StoredIdentity: Sendable {
    package let rowID: Int64
    package let entity: String

    package init(rowID: Int64, entity: String) {
        self.rowID = rowID
        self.entity = entity
    }
}

/// One row as a store holds it.
package struct StoredRow: Sendable {
    package let rowID: Int64
    package let entity: String
    /// Per attribute of ``entity``.
    package var values: [AttributeValue?]
    /// Per relationship of ``entity``: the target row of a to-one (nil for none, and for to-manys).
    package var targets: [Int64?]
    /// Per relationship of ``entity``: the row's place in the target's ordered list, for a to-one whose inverse is one.
    package var positions: [Int64?]

    package init(rowID: Int64, entity: String, values: [AttributeValue?], targets: [Int64?], positions: [Int64?]) {
        self.rowID = rowID
        self.entity = entity
        self.values = values
        self.targets = targets
        self.positions = positions
    }
}

/// Rows of one entity to insert or update, slot by slot.
package struct RowBatch: Sendable {
    package let entity: Entity
    package var rowIDs: [Int64] = []
    /// Per row, a value per attribute of the entity.
    package var values: [AttributeValue?] = []
    /// Per row, a target row per relationship of the entity (nil for none, and for to-manys).
    package var targets: [Int64?] = []
    /// Per row, a place per relationship of the entity, for a to-one whose inverse is an ordered to-many.
    package var positions: [Int64?] = []

    package init(entity: Entity) {
        self.entity = entity
    }

    package var count: Int { rowIDs.count }

    package mutating func append(rowID: Int64, values: some Collection<AttributeValue?>, targets: some Collection<Int64?>, positions: some Collection<Int64?>) {
        rowIDs.append(rowID)
        self.values.append(contentsOf: values)
        self.targets.append(contentsOf: targets)
        self.positions.append(contentsOf: positions)
    }
}
