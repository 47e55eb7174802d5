/// Inserts the numbered rows of a flat set into a store, one statement per row, and keeps their ledger entries and
/// counts.
///
///     var writer = SeedRowWriter(store: store)
///     for row in rows { try writer.insert(row) }      // inside the seeder's transaction
///     writer.ledger                                   // each row's key, row id and value hash, packed
///
/// - Complexity: O(1) statements per row.
struct SeedRowWriter {
    /// What inserting the rows of one entity needs, and what it has written so far.
    private struct EntityWriter {
        let entity: Entity
        let statement: Statement
        /// The indices of the entity's to-one relationships, in column order.
        let toOnes: [Int]
        var entries = SeedLedger.EntityPacker(hashForm: .value)
    }

    private let store: SQLiteStore
    private var writers: [EntityWriter] = []
    private var writerIndex: [ObjectIdentifier: Int] = [:]
    /// The writer of the last row: rows of one entity mostly come in runs, which then need no lookup.
    private var lastWriter: Int?

    init(store: SQLiteStore) {
        self.store = store
    }

    /// The ledger entries of the rows inserted, packed; the caller adds the fingerprint and files.
    var ledger: SeedLedger {
        var ledger = SeedLedger()
        for writer in writers { ledger.packedEntries[writer.entity.name] = writer.entries }
        return ledger
    }

    /// Inserted rows per entity.
    var counts: [String: SeedReport.Counts] {
        var counts: [String: SeedReport.Counts] = [:]
        for writer in writers { counts[writer.entity.name, default: .init()].inserted += writer.entries.count }
        return counts
    }

    /// Inserts the row with the columns of `insertSQL(for:)`: row id, entity, the attributes, then the to-ones.
    mutating func insert(_ row: SeedRows.Row) throws {
        let index = try writer(of: row.entity)
        let statement = writers[index].statement
        try statement.bind(row.rowID, at: 1)
        try statement.bind(row.entity.name, at: 2)
        var parameter = 3
        for value in row.values {
            try statement.bind(attribute: value, at: parameter)
            parameter += 1
        }
        for relationship in writers[index].toOnes {
            if let target = row.targets.first(where: { $0.relationship == relationship })?.rowID {
                try statement.bind(target, at: parameter)
            } else {
                try statement.bindNull(at: parameter)
            }
            parameter += 1
        }
        try statement.execute()
        writers[index].entries.append(key: row.key.value, rowID: row.rowID, hashValue: row.hash)
    }

    private mutating func writer(of entity: Entity) throws -> Int {
        if let last = lastWriter, writers[last].entity === entity { return last }
        let index: Int
        if let known = writerIndex[ObjectIdentifier(entity)] {
            index = known
        } else {
            let statement = try store.connection.cachedStatement(sql: store.insertSQL(for: entity))
            let toOnes = entity.relationships.indices.filter { !entity.relationships[$0].isToMany }
            index = writers.count
            writers.append(EntityWriter(entity: entity, statement: statement, toOnes: toOnes))
            writerIndex[ObjectIdentifier(entity)] = index
        }
        lastWriter = index
        return index
    }
}
