/// Inserts the numbered rows of a flat set into a store, one statement per row.
///
///     var writer = SeedRowWriter(store: store)
///     for row in rows { try writer.insert(row) }      // inside the seeder's transaction
///
/// - Complexity: O(1) statements per row.
struct SeedRowWriter {
    /// What inserting the rows of one entity needs.
    private struct EntityWriter {
        let entity: Entity
        let statement: Statement
        /// The entity's name, for the `_entity` column.
        let entityName: [UInt8]
        /// The indices of the entity's to-one relationships, in column order.
        let toOnes: [Int]
    }

    private let store: SQLiteStore
    private var writers: [EntityWriter] = []
    private var writerIndex: [ObjectIdentifier: Int] = [:]
    /// The writer of the last row: rows of one entity mostly come in runs, which then need no lookup.
    private var lastWriter: Int?
    /// The texts of the row being inserted, one after another, and the parameter and bytes of each.
    private var texts: [UInt8] = []
    private var textParameters: [(parameter: Int, bytes: Range<Int>)] = []

    init(store: SQLiteStore) {
        self.store = store
    }

    /// Inserts the row with the columns of `insertSQL(for:)`: row id, entity, the attributes, then the to-ones.
    mutating func insert(_ row: SeedRows.Row) throws {
        let index = try writer(of: row.entity)
        let statement = writers[index].statement
        // The row's texts are gathered in one buffer and bound where they lie: bound as strings, SQLite would copy
        // each into memory of its own, and a date would be made a string first.
        texts.removeAll(keepingCapacity: true)
        textParameters.removeAll(keepingCapacity: true)
        texts.append(contentsOf: writers[index].entityName)
        textParameters.append((2, 0..<texts.count))
        try statement.bind(row.rowID, at: 1)
        var parameter = 3
        for value in row.values {
            let start = texts.count
            switch value {
            case .string(let string)?:
                texts.append(contentsOf: string.utf8)
                textParameters.append((parameter, start..<texts.count))
            case .date(let timestamp)?:
                timestamp.appendStoreText(to: &texts)
                textParameters.append((parameter, start..<texts.count))
            default:
                try statement.bind(attribute: value, at: parameter)
            }
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
        try texts.withUnsafeBytes { texts in
            // The buffer is overwritten for the next row: nothing may read it as bound meanwhile.
            defer { statement.clearBindings() }
            for (parameter, range) in textParameters {
                try statement.bind(unsafeText: UnsafeRawBufferPointer(rebasing: texts[range]), at: parameter)
            }
            try statement.execute()
        }
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
            writers.append(EntityWriter(entity: entity, statement: statement, entityName: Array(entity.name.utf8), toOnes: toOnes))
            writerIndex[ObjectIdentifier(entity)] = index
        }
        lastWriter = index
        return index
    }
}
