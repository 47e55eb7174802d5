import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding

/// Rows in bulk for the seeding pipeline and the canonical export: ``RowStore`` over the store's tables.
///
/// Identity lookups are point queries on the identity index, or one scan of it when many are asked at once;
/// rows are read by id many to a statement; inserts go many rows to a statement (`VALUES (…), (…)`), their texts
/// gathered in one buffer and bound where they lie. The ledger is the table `_seedkit_ledger`: one row per section.
extension SQLiteStore: RowStore {
    static let ledgerTable = "_seedkit_ledger"
    /// The first table of the ledger's earlier development form, which this SeedKit does not read.
    static let earlierLedgerTable = "_seedkit_seed_sets"

    // MARK: Reading

    package func lookUp(identities: [[AttributeValue]], root: String) throws -> [StoredIdentity?] {
        guard !identities.isEmpty, let table = schema.tables[root], !table.identity.isEmpty else {
            return Array(repeating: nil, count: identities.count)
        }
        // Many at once: one scan of the table's identities costs less than a query each.
        if identities.count * 8 > (try largestRowID(root: root)) {
            var index: [ExactValues: StoredIdentity] = [:]
            for (values, row) in try self.identities(root: root) { index[ExactValues(values)] = row }
            return identities.map { index[ExactValues($0)] }
        }
        let condition = table.identity.map { "\(SQLIdentifier.quote($0)) = ?" }.joined(separator: " AND ")
        let select = try connection.cachedStatement(sql: "SELECT \"_id\", \"_entity\" FROM \(table.quoted) WHERE \(condition)")
        return try identities.map { values in
            defer { select.reset() }
            for (index, value) in values.enumerated() { try select.bind(attribute: value, at: index + 1) }
            guard try select.step() else { return nil }
            return StoredIdentity(rowID: select.int64(at: 0), entity: select.text(at: 1))
        }
    }

    package func identities(root: String) throws -> [(values: [AttributeValue], row: StoredIdentity)] {
        guard let table = schema.tables[root], let entity = model.entity(named: root), !table.identity.isEmpty else { return [] }
        let types = entity.identityIndices.map { entity.attributes[$0].type }
        let columns = table.identity.map(SQLIdentifier.quote).joined(separator: ", ")
        let select = try connection.prepare(sql: "SELECT \"_id\", \"_entity\", \(columns) FROM \(table.quoted)")
        var result: [(values: [AttributeValue], row: StoredIdentity)] = []
        while try select.step() {
            let values = types.enumerated().compactMap { select.attribute(at: 2 + $0, as: $1) }
            guard values.count == types.count else { continue }
            result.append((values, StoredIdentity(rowID: select.int64(at: 0), entity: select.text(at: 1))))
        }
        return result
    }

    package func rows(root: String, rowIDs: [Int64]) throws -> [StoredRow?] {
        guard let table = schema.tables[root] else { return Array(repeating: nil, count: rowIDs.count) }
        var found: [Int64: StoredRow] = [:]
        found.reserveCapacity(rowIDs.count)
        var entity: RowEntity?
        var prepared: Statement?
        var start = 0
        while start < rowIDs.count {
            let chunk = rowIDs[start..<min(rowIDs.count, start + 500)]
            // A chunk as long as the one before takes its statement: the text is long to make and to look up.
            if chunk.count != prepared?.parameterCount {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                prepared = try connection.cachedStatement(sql: selectSQL(table, "WHERE \"_id\" IN (\(marks))"))
            }
            let select = prepared!
            defer { select.reset() }
            for (index, rowID) in chunk.enumerated() { try select.bind(rowID, at: index + 1) }
            while try select.step() {
                if let row = storedRow(select, entity: &entity) { found[row.rowID] = row }
            }
            start += chunk.count
        }
        return rowIDs.map { found[$0] }
    }

    package func forEachRow(root: String, _ body: (StoredRow) throws -> Void) throws {
        guard let table = schema.tables[root] else { return }
        let select = try connection.prepare(sql: selectSQL(table, "ORDER BY \"_id\""))
        var entity: RowEntity?
        while try select.step() {
            if let row = storedRow(select, entity: &entity) { try body(row) }
        }
    }

    /// The row a select of ``TableSchema/selectList`` is on; nil for an entity the model lacks.
    ///
    /// `entity` is the previous row's entity, kept for the next: rows of a table nearly always share one, whose name
    /// is then compared in SQLite's buffer rather than made into a string and looked up twice per row.
    private func storedRow(_ select: Statement, entity cache: inout RowEntity?) -> StoredRow? {
        let name = select.textBuffer(at: 1)
        if cache == nil || !cache!.hasName(name) {
            guard let entity = model.entity(named: String(decoding: name, as: UTF8.self)),
                let layout = schema.layouts[entity.name]
            else { return nil }
            cache = RowEntity(name: Array(name), entity: entity, layout: layout)
        }
        let row = cache!
        var values: [AttributeValue?] = []
        values.reserveCapacity(row.attributes.count)
        for attribute in row.attributes { values.append(select.attribute(at: attribute.column, as: attribute.type)) }
        let offset = StoreSchema.bookkeepingColumns.count
        var targets = row.noTargets
        var positions = row.noTargets
        for (index, column) in row.layout.relationshipColumns.enumerated() {
            if let column, !select.isNull(at: offset + column) { targets[index] = select.int64(at: offset + column) }
            if let column = row.layout.positionColumns[index], !select.isNull(at: offset + column) {
                positions[index] = select.int64(at: offset + column)
            }
        }
        return StoredRow(
            rowID: select.int64(at: 0), entity: row.entity.name, values: values, targets: targets, positions: positions)
    }

    package func joinMembers(table: String, sources: [Int64]?, isOrdered: Bool) throws -> [Int64: [Int64]] {
        let join = SQLIdentifier.quote(table)
        let order = isOrdered ? "\"source\", \"position\"" : "\"source\", \"target\""
        var members: [Int64: [Int64]] = [:]
        func collect(_ select: Statement) throws {
            while try select.step() { members[select.int64(at: 0), default: []].append(select.int64(at: 1)) }
        }
        guard let sources else {
            try collect(connection.prepare(sql: "SELECT \"source\", \"target\" FROM \(join) ORDER BY \(order)"))
            return members
        }
        var start = 0
        while start < sources.count {
            let chunk = sources[start..<min(sources.count, start + 500)]
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let select = try connection.cachedStatement(
                sql: "SELECT \"source\", \"target\" FROM \(join) WHERE \"source\" IN (\(marks)) ORDER BY \(order)")
            defer { select.reset() }
            for (index, source) in chunk.enumerated() { try select.bind(source, at: index + 1) }
            try collect(select)
            start += chunk.count
        }
        return members
    }

    package func largestRowID(root: String) throws -> Int64 {
        try largestRowID(in: root)
    }

    package func rowCount(root: String) throws -> Int {
        guard schema.tables[root] != nil else { return 0 }
        let select = try connection.cachedStatement(sql: "SELECT count(*) FROM \(SQLIdentifier.quote(root))")
        defer { select.reset() }
        _ = try select.step()
        return Int(select.int64(at: 0))
    }

    package func ledgerSections(named names: [String]?) throws -> [String: [UInt8]] {
        guard try hasTable(Self.ledgerTable) else {
            if try hasTable(Self.earlierLedgerTable) {
                throw LedgerStorageError(reason: "it is kept in \(Self.earlierLedgerTable), the form of an earlier development version")
            }
            return [:]
        }
        // The rows first, then each section's bytes read straight from its pages: the objects section of a large set
        // is tens of megabytes, which a statement's column would gather once more.
        var rows: [(name: String, rowID: Int64, type: String)] = []
        if let names {
            let select = try connection.cachedStatement(
                sql: "SELECT rowid, typeof(\"bytes\") FROM \(SQLIdentifier.quote(Self.ledgerTable)) WHERE \"section\" = ?")
            for name in names {
                defer { select.reset() }
                try select.bind(name, at: 1)
                if try select.step() { rows.append((name, select.int64(at: 0), select.text(at: 1))) }
            }
        } else {
            let select = try connection.prepare(
                sql: "SELECT \"section\", rowid, typeof(\"bytes\") FROM \(SQLIdentifier.quote(Self.ledgerTable))")
            while try select.step() { rows.append((select.text(at: 0), select.int64(at: 1), select.text(at: 2))) }
        }
        var sections: [String: [UInt8]] = [:]
        for row in rows {
            // Only bytes are read from a row's pages: another value (a store edited by hand) is a ledger not to read.
            guard row.type == "blob" else {
                throw LedgerStorageError(reason: "its '\(row.name)' section holds \(row.type == "null" ? "nothing" : "a value of type \(row.type)"), not bytes")
            }
            sections[row.name] = try connection.readBlob(table: Self.ledgerTable, column: "bytes", rowID: row.rowID)
        }
        return sections
    }

    private func hasTable(_ name: String) throws -> Bool {
        let select = try connection.cachedStatement(sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?")
        defer { select.reset() }
        try select.bind(name, at: 1)
        return try select.step() && select.int64(at: 0) > 0
    }

    // MARK: Writing

    package func bulkLoad<Result>(_ body: () throws -> Result) throws -> Result {
        // Without foreign key checks, the foreign keys' indexes go too: no check looks a reference up meanwhile.
        let checks = try connection.prepare(sql: "PRAGMA foreign_keys")
        let checksForeignKeys = try checks.step() && checks.int64(at: 0) != 0
        return try withIndexesBuiltAfter(includingForeignKeys: !checksForeignKeys, body)
    }

    package func insert(_ rows: RowBatch) throws {
        let entity = rows.entity
        let toOnes = entity.relationships.indices.filter { !entity.relationships[$0].isToMany }
        let table = schema.tables[entity.rootName]!
        let positioned = toOnes.filter {
            table.columnIndex[StoreNames.positionColumn(inverse: entity.relationships[$0].name)] != nil
        }
        let perRow = 2 + entity.attributes.count + toOnes.count + positioned.count
        let batchSize = Self.rowsPerStatement(valuesPerRow: perRow)
        var inserter = RowInserter(entityName: Array(entity.name.utf8))
        var start = 0
        while start < rows.count {
            let count = min(batchSize, rows.count - start)
            let shape = RowInsertShape(entity: ObjectIdentifier(entity), rowCount: count)
            let statement = try rowInsertStatements[shape]
                ?? connection.prepare(sql: insertSQL(for: entity, toOnes: toOnes, positioned: positioned, rowCount: count))
            rowInsertStatements[shape] = statement
            try inserter.insert(rows, range: start..<start + count, toOnes: toOnes, positioned: positioned, with: statement)
            start += count
        }
    }

    /// How many rows a multi-row insert or update writes to a statement: up to 64, within the 999 parameters every
    /// SQLite build takes.
    private static func rowsPerStatement(valuesPerRow: Int) -> Int {
        max(1, min(64, 999 / valuesPerRow))
    }

    /// `INSERT INTO "Root" ("_id", "_entity", "_version", attributes…, to-ones…, positions…) VALUES (?, ?, 1, …), …`
    private func insertSQL(for entity: Entity, toOnes: [Int], positioned: [Int], rowCount: Int) -> String {
        let columns = entity.attributes.map(\.name) + toOnes.map { entity.relationships[$0].name }
            + positioned.map { StoreNames.positionColumn(inverse: entity.relationships[$0].name) }
        let names = (["_id", "_entity", "_version"] + columns).map(SQLIdentifier.quote).joined(separator: ", ")
        let values = "(" + (["?", "?", "1"] + columns.map { _ in "?" }).joined(separator: ", ") + ")"
        return "INSERT INTO \(SQLIdentifier.quote(entity.rootName)) (\(names)) VALUES \(repeatElement(values, count: rowCount).joined(separator: ", "))"
    }

    /// Many rows to a statement, as inserts go: `UPDATE "Root" SET … FROM (VALUES (id, …), …) AS "v" WHERE
    /// "Root"."_id" = "v"."column1"`, each row's id and new values one row of `VALUES`. A statement a row cost
    /// SQLite a statement's start and end (its journal, its program's reset) for every row.
    package func update(_ rows: RowBatch, attributes: [Int], toOnes: [Int], entityChanges: Bool) throws {
        let entity = rows.entity
        let table = schema.tables[entity.rootName]!
        // A `VALUES` row's columns: the row id first, then a value per assignment that takes one.
        var valueCount = 1
        func value() -> String {
            valueCount += 1
            return "\"v\".\"column\(valueCount)\""
        }
        var assignments: [String] = entityChanges ? ["\"_entity\" = \(value())"] : []
        if entityChanges {
            // The columns of the tree that the new class has not: empty, as in a row inserted of that class.
            let toOnes = entity.relationships.filter { !$0.isToMany }.map(\.name)
            let own = Set(entity.attributes.map(\.name) + toOnes + toOnes.map { StoreNames.positionColumn(inverse: $0) })
            for column in table.columns where !own.contains(column.name) {
                assignments.append("\(SQLIdentifier.quote(column.name)) = NULL")
            }
        }
        assignments += attributes.map { "\(SQLIdentifier.quote(entity.attributes[$0].name)) = \(value())" }
        var positioned: [Int] = []
        for relationship in toOnes {
            assignments.append("\(SQLIdentifier.quote(entity.relationships[relationship].name)) = \(value())")
            let position = StoreNames.positionColumn(inverse: entity.relationships[relationship].name)
            if table.columnIndex[position] != nil {
                assignments.append("\(SQLIdentifier.quote(position)) = \(value())")
                positioned.append(relationship)
            }
        }
        assignments.append("\"_version\" = \"_version\" + 1")
        let valuesRow = "(" + repeatElement("?", count: valueCount).joined(separator: ", ") + ")"
        func sql(rowCount: Int) -> String {
            "UPDATE \(table.quoted) SET \(assignments.joined(separator: ", ")) FROM (VALUES "
                + repeatElement(valuesRow, count: rowCount).joined(separator: ", ")
                + ") AS \"v\" WHERE \(table.quoted).\"_id\" = \"v\".\"column1\""
        }
        let batchSize = Self.rowsPerStatement(valuesPerRow: valueCount)
        let fullBatch = rows.count >= batchSize ? try connection.cachedStatement(sql: sql(rowCount: batchSize)) : nil
        let attributeCount = entity.attributes.count, relationshipCount = entity.relationships.count
        var start = 0
        while start < rows.count {
            let count = min(batchSize, rows.count - start)
            let statement = count == batchSize ? fullBatch! : try connection.cachedStatement(sql: sql(rowCount: count))
            var parameter = 1
            for row in start..<start + count {
                try statement.bind(rows.rowIDs[row], at: parameter)
                parameter += 1
                if entityChanges {
                    try statement.bind(entity.name, at: parameter)
                    parameter += 1
                }
                for attribute in attributes {
                    try statement.bind(attribute: rows.values[row * attributeCount + attribute], at: parameter)
                    parameter += 1
                }
                for relationship in toOnes {
                    try statement.bind(rows.targets[row * relationshipCount + relationship], at: parameter)
                    parameter += 1
                    if positioned.contains(relationship) {
                        try statement.bind(rows.positions[row * relationshipCount + relationship], at: parameter)
                        parameter += 1
                    }
                }
            }
            try statement.execute()
            start += count
        }
    }

    package func delete(root: String, rowIDs: [Int64]) throws {
        let statement = try connection.cachedStatement(sql: "DELETE FROM \(SQLIdentifier.quote(root)) WHERE \"_id\" = ?")
        for rowID in rowIDs { try statement.execute(arguments: [.integer(rowID)]) }
    }

    package func replaceJoinMembers(table: String, members: [(source: Int64, targets: [Int64])], isOrdered: Bool, sourcesAreNew: Bool) throws {
        let join = SQLIdentifier.quote(table)
        if !sourcesAreNew {
            let delete = try connection.cachedStatement(sql: "DELETE FROM \(join) WHERE \"source\" = ?")
            for (source, _) in members { try delete.execute(arguments: [.integer(source)]) }
        }
        var pairs: [(Int64, Int64, Int64?)] = []
        for (source, targets) in members {
            for (position, target) in targets.enumerated() { pairs.append((source, target, isOrdered ? Int64(position) : nil)) }
        }
        var start = 0
        while start < pairs.count {
            let count = min(300, pairs.count - start)
            // Kept by table and row count, as the rows' statements are: their texts are long to hash.
            let shape = JoinInsertShape(table: table, rowCount: count)
            let statement = try joinInsertStatements[shape] ?? connection.prepare(
                sql: "INSERT INTO \(join) (\"source\", \"target\", \"position\") VALUES \(repeatElement("(?, ?, ?)", count: count).joined(separator: ", "))")
            joinInsertStatements[shape] = statement
            for (offset, pair) in pairs[start..<start + count].enumerated() {
                try statement.bind(pair.0, at: 3 * offset + 1)
                try statement.bind(pair.1, at: 3 * offset + 2)
                try statement.bind(pair.2, at: 3 * offset + 3)
            }
            try statement.execute()
            start += count
        }
    }

    package func replaceLedger(_ sections: [String: [UInt8]]) throws {
        let ledger = SQLIdentifier.quote(Self.ledgerTable)
        try connection.execute(sql: "CREATE TABLE IF NOT EXISTS \(ledger) (\"section\" TEXT PRIMARY KEY, \"bytes\" BLOB NOT NULL)")
        // The earlier form's tables go with the first ledger written in this one.
        for table in [Self.earlierLedgerTable, "_seedkit_seed_files", "_seedkit_seed_packed_objects", "_seedkit_seed_objects", "_seedkit_seed_counts", "_seedkit_seed_file_stamps"] {
            try connection.execute(sql: "DROP TABLE IF EXISTS \(SQLIdentifier.quote(table))")
        }
        // The sections stored now, by name: their rows and lengths (read from the rows' headers, not their bytes).
        var stored: [String: (rowID: Int64, length: Int)] = [:]
        let select = try connection.prepare(sql: "SELECT \"section\", rowid, length(\"bytes\") FROM \(ledger)")
        while try select.step() { stored[select.text(at: 0)] = (select.int64(at: 1), Int(select.int64(at: 2))) }
        let delete = try connection.cachedStatement(sql: "DELETE FROM \(ledger) WHERE rowid = ?")
        for (name, row) in stored where sections[name]?.count != row.length {
            try delete.bind(row.rowID, at: 1)
            try delete.execute()
        }
        // Each section's bytes go straight into the pages, not through a binding that SQLite would copy twice while
        // writing the row: the objects section of a large set is tens of megabytes, at the run's peak of memory. A
        // section as long as the stored one is written where it differs only: a later run that changes a tenth of the
        // objects changes about that share of the pages, which is then all its commit writes and checkpoints.
        let insert = try connection.cachedStatement(
            sql: "INSERT INTO \(ledger) (\"section\", \"bytes\") VALUES (?, zeroblob(?))")
        for (name, bytes) in sections.sorted(by: { $0.key < $1.key }) {
            if let row = stored[name], row.length == bytes.count {
                try connection.rewriteBlob(bytes, table: Self.ledgerTable, column: "bytes", rowID: row.rowID)
                continue
            }
            try insert.bind(name, at: 1)
            try insert.bind(Int64(bytes.count), at: 2)
            try insert.execute()
            try connection.writeBlob(bytes, table: Self.ledgerTable, column: "bytes", rowID: connection.lastInsertedRowID)
        }
    }
}

/// Binds the rows of a multi-row insert: texts gathered in one buffer and bound where they lie, so that SQLite does
/// not copy each into memory of its own, and a date is not made a string first. A long text is bound where the
/// string holds it, not copied into the buffer: a 100 MB value is not held twice.
private struct RowInserter {
    /// The length from which a text is bound in its string rather than copied into the buffer.
    private static let longText = 1 << 16

    let entityName: [UInt8]
    private var texts: [UInt8] = []
    private var textParameters: [(parameter: Int, bytes: Range<Int>)] = []
    private var longTexts: [(parameter: Int, text: String)] = []

    init(entityName: [UInt8]) {
        self.entityName = entityName
    }

    mutating func insert(_ rows: RowBatch, range: Range<Int>, toOnes: [Int], positioned: [Int], with statement: Statement) throws {
        texts.removeAll(keepingCapacity: true)
        textParameters.removeAll(keepingCapacity: true)
        longTexts.removeAll(keepingCapacity: true)
        texts.append(contentsOf: entityName)
        let name = 0..<texts.count
        let attributeCount = rows.entity.attributes.count, relationshipCount = rows.entity.relationships.count
        var parameter = 1
        for row in range {
            try statement.bind(rows.rowIDs[row], at: parameter)
            textParameters.append((parameter + 1, name))
            parameter += 2
            for attribute in 0..<attributeCount {
                let value = rows.values[row * attributeCount + attribute]
                let start = texts.count
                switch value {
                case .string(let string)? where string.utf8.count >= Self.longText:
                    longTexts.append((parameter, string))
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
                try statement.bind(rows.targets[row * relationshipCount + relationship], at: parameter)
                parameter += 1
            }
            for relationship in positioned {
                try statement.bind(rows.positions[row * relationshipCount + relationship], at: parameter)
                parameter += 1
            }
        }
        try texts.withUnsafeBytes { texts in
            // The buffer is overwritten for the next rows: nothing may read it as bound meanwhile.
            defer { statement.clearBindings() }
            for (parameter, range) in textParameters {
                try statement.bind(unsafeText: UnsafeRawBufferPointer(rebasing: texts[range]), at: parameter)
            }
            try Self.binding(longTexts[...], to: statement) { try statement.execute() }
        }
    }

    /// Runs `body` with each text bound where its string holds it, which is only for as long as `body` runs.
    ///
    /// - Complexity: O(1) per text; one nested call each.
    private static func binding(
        _ texts: ArraySlice<(parameter: Int, text: String)>, to statement: Statement, _ body: () throws -> Void
    ) throws {
        guard let first = texts.first else { return try body() }
        var text = first.text
        try text.withUTF8 { utf8 in
            try statement.bind(unsafeText: UnsafeRawBufferPointer(utf8), at: first.parameter)
            try binding(texts.dropFirst(), to: statement, body)
        }
    }
}
