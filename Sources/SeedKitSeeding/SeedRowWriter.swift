import SeedKitSQLite
import SeedKitModel
import SeedKitStore

/// Inserts the numbered rows of a flat set into a store: runs of rows of one entity many to a statement.
///
///     var writer = SeedRowWriter(store: store)
///     try writer.insert(fileRows[...])       // inside the seeder's transaction
///
/// A statement of many rows (`VALUES (…), (…), …`) costs SQLite one run of its program, one cursor and one reset for
/// all of them: rows go in about two thirds of the time they take one to a statement.
///
/// - Complexity: O(1) statements per run of up to ``batchSize(for:)`` rows of one entity.
struct SeedRowWriter {
    /// What inserting the rows of one entity needs.
    private struct EntityWriter {
        let entity: Entity
        /// The entity's name, for the `_entity` column.
        let entityName: [UInt8]
        /// The indices of the entity's to-one relationships, in column order.
        let toOnes: [Int]
        /// The number of rows a statement inserts at most.
        let batchSize: Int
        /// The statements by the number of rows they insert, made when first needed.
        var statements: [Int: Statement] = [:]
    }

    private let store: SQLiteStore
    private var writers: [EntityWriter] = []
    private var writerIndex: [ObjectIdentifier: Int] = [:]
    /// The writer of the last row: rows of one entity mostly come in runs, which then need no lookup.
    private var lastWriter: Int?
    /// The texts of the rows being inserted, one after another, and the parameter and bytes of each.
    private var texts: [UInt8] = []
    private var textParameters: [(parameter: Int, bytes: Range<Int>)] = []

    init(store: SQLiteStore) {
        self.store = store
    }

    /// Inserts the rows, in order.
    mutating func insert(_ rows: ArraySlice<SeedRows.Row>) throws {
        var start = rows.startIndex
        while start < rows.endIndex {
            let entity = rows[start].entity
            let index = try writer(of: entity)
            let limit = min(rows.endIndex, start + writers[index].batchSize)
            var end = start + 1
            while end < limit && rows[end].entity === entity { end += 1 }
            try insert(rows[start..<end], with: index)
            start = end
        }
    }

    /// The number of rows a statement inserts at most, for rows of `parameterCount` parameters.
    ///
    /// Beyond 64 rows, a statement saves next to nothing more; and its parameters stay within 999, the limit of
    /// SQLite before 3.32, which a system library may still have.
    static func batchSize(for parameterCount: Int) -> Int {
        max(1, min(64, 999 / parameterCount))
    }

    /// Inserts rows of one entity with one statement.
    private mutating func insert(_ rows: ArraySlice<SeedRows.Row>, with index: Int) throws {
        let statement = try self.statement(index, rowCount: rows.count)
        let toOnes = writers[index].toOnes
        // The rows' texts are gathered in one buffer and bound where they lie: bound as strings, SQLite would copy
        // each into memory of its own, and a date would be made a string first.
        texts.removeAll(keepingCapacity: true)
        textParameters.removeAll(keepingCapacity: true)
        texts.append(contentsOf: writers[index].entityName)
        let entityName = 0..<texts.count
        var parameter = 1
        // By index: a copy of each row would retain each of its fields.
        for row in rows.indices {
            try statement.bind(rows[row].rowID, at: parameter)
            textParameters.append((parameter + 1, entityName))
            parameter += 2
            for value in rows[row].values {
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
            for relationship in toOnes {
                if let target = rows[row].targets.first(where: { $0.relationship == relationship })?.rowID {
                    try statement.bind(target, at: parameter)
                } else {
                    try statement.bindNull(at: parameter)
                }
                parameter += 1
            }
        }
        try texts.withUnsafeBytes { texts in
            // The buffer is overwritten for the next rows: nothing may read it as bound meanwhile.
            defer { statement.clearBindings() }
            for (parameter, range) in textParameters {
                try statement.bind(unsafeText: UnsafeRawBufferPointer(rebasing: texts[range]), at: parameter)
            }
            try statement.execute()
        }
    }

    private mutating func statement(_ index: Int, rowCount: Int) throws -> Statement {
        if let statement = writers[index].statements[rowCount] { return statement }
        let statement = try store.connection.prepare(sql: store.insertSQL(for: writers[index].entity, rowCount: rowCount))
        writers[index].statements[rowCount] = statement
        return statement
    }

    private mutating func writer(of entity: Entity) throws -> Int {
        if let last = lastWriter, writers[last].entity === entity { return last }
        let index: Int
        if let known = writerIndex[ObjectIdentifier(entity)] {
            index = known
        } else {
            let toOnes = entity.relationships.indices.filter { !entity.relationships[$0].isToMany }
            // A row's parameters: row id, entity, the attributes, then the to-ones.
            let batchSize = Self.batchSize(for: 2 + entity.attributes.count + toOnes.count)
            index = writers.count
            writers.append(EntityWriter(entity: entity, entityName: Array(entity.name.utf8), toOnes: toOnes, batchSize: batchSize))
            writerIndex[ObjectIdentifier(entity)] = index
        }
        lastWriter = index
        return index
    }
}
