/// Inserts the numbered rows of a flat set into a store, one statement per row, and keeps their ledger entries and
/// counts.
///
///     var writer = SeedRowWriter(store: store)
///     for row in rows { try writer.insert(row) }      // inside the seeder's transaction
///     writer.ledger                                   // each row's key, row id and value hash, packed
///
/// - Complexity: O(1) statements per row.
struct SeedRowWriter {
    private let store: SQLiteStore
    /// Each entity's insert statement and the indices of its to-one relationships, in column order.
    private var statements: [ObjectIdentifier: (statement: Statement, toOnes: [Int])] = [:]
    /// The ledger entries of the rows inserted; the caller adds the fingerprint and files.
    private(set) var ledger = SeedLedger()
    /// Inserted rows per entity.
    private(set) var counts: [String: SeedReport.Counts] = [:]

    init(store: SQLiteStore) {
        self.store = store
    }

    /// Inserts the row with the columns of `insertSQL(for:)`: row id, entity, the attributes, then the to-ones.
    mutating func insert(_ row: SeedRows.Row) throws {
        let entity = row.entity
        let insert = try statements[ObjectIdentifier(entity)]
            ?? (store.connection.cachedStatement(sql: store.insertSQL(for: entity)),
                entity.relationships.indices.filter { !entity.relationships[$0].isToMany })
        statements[ObjectIdentifier(entity)] = insert
        let statement = insert.statement
        try statement.bind(row.rowID, at: 1)
        try statement.bind(entity.name, at: 2)
        var parameter = 3
        for value in row.values {
            try statement.bind(attribute: value, at: parameter)
            parameter += 1
        }
        for index in insert.toOnes {
            if let target = row.targets.first(where: { $0.relationship == index })?.rowID {
                try statement.bind(target, at: parameter)
            } else {
                try statement.bindNull(at: parameter)
            }
            parameter += 1
        }
        try statement.execute()
        ledger.packedEntries[entity.name, default: SeedLedger.EntityPacker(hashForm: .value)]
            .append(key: row.key.value, rowID: row.rowID, hashValue: row.hash)
        counts[entity.name, default: .init()].inserted += 1
    }
}
