import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL

/// Rows in bulk for the seeding pipeline and the canonical export: ``RowStore`` over the store's tables.
///
/// Inserts go through binary `COPY … FROM STDIN`; updates and deletes through prepared statements, cached by text;
/// whole tables are read through `COPY … TO STDOUT`, one row at a time; rows by id many to a statement
/// (`_id = ANY($1)`). The ledger is the table `_seedkit_ledger`, a `bytea` per section.
extension PostgreSQLStore {
    // MARK: Reading

    package func lookUp(identities: [[AttributeValue]], root: String) throws -> [StoredIdentity?] {
        guard !identities.isEmpty, let table = schema.tables[root], !table.identity.isEmpty else {
            return Array(repeating: nil, count: identities.count)
        }
        // Many at once, against the size of the table: one read of its identities costs less than a round trip each.
        if identities.count > 16, identities.count * 8 > (try largestRowID(root: root)) {
            var index: [ExactValues: StoredIdentity] = [:]
            for (values, row) in try self.identities(root: root) { index[ExactValues(values)] = row }
            return identities.map { index[ExactValues($0)] }
        }
        return try identities.map { try rowIdentity(values: $0, table: table) }
    }

    /// The row of `table` whose identity columns hold `values`, or nil.
    func rowIdentity(values: [AttributeValue], table: PostgreSQLTable) throws -> StoredIdentity? {
        var arguments: [PostgreSQLValue] = []
        for value in values { value.postgreSQLArguments(into: &arguments) }
        let conditions = table.identity.flatMap(table.physicalColumns).enumerated().map { "\(quoted($1)) = $\($0 + 1)" }
        let select = try connection.cachedStatement(
            sql: "SELECT \"_id\", \"_entity\" FROM \(quoted(table.name)) WHERE \(conditions.joined(separator: " AND "))")
        guard let row = try select.query(arguments: arguments).first else { return nil }
        return StoredIdentity(rowID: try row.int64(at: 0)!, entity: try row.text(at: 1)!)
    }

    package func identities(root: String) throws -> [(values: [AttributeValue], row: StoredIdentity)] {
        guard let table = schema.tables[root], let entity = model.entity(named: root), !table.identity.isEmpty else { return [] }
        let types = entity.identityIndices.map { entity.attributes[$0].type }
        let columns = table.identity.flatMap(table.physicalColumns).map(quoted).joined(separator: ", ")
        var result: [(values: [AttributeValue], row: StoredIdentity)] = []
        try connection.copy(from: "SELECT \"_id\", \"_entity\", \(columns) FROM \(quoted(table.name))") { row in
            var column = 2
            var values: [AttributeValue] = []
            for type in types {
                if let value = try row.attribute(at: column, as: type) { values.append(value) }
                column += type.postgreSQLWidth
            }
            guard values.count == types.count else { return }
            result.append((values, StoredIdentity(rowID: try row.int64(at: 0)!, entity: try row.text(at: 1)!)))
        }
        return result
    }

    package func rows(root: String, rowIDs: [Int64]) throws -> [StoredRow?] {
        guard let table = schema.tables[root], !rowIDs.isEmpty else { return Array(repeating: nil, count: rowIDs.count) }
        var found: [Int64: StoredRow] = [:]
        found.reserveCapacity(rowIDs.count)
        let select = try connection.cachedStatement(sql: selectSQL(table, "WHERE \"_id\" = ANY($1::bigint[])"))
        for row in try select.query(arguments: [.text(Self.arrayLiteral(rowIDs))]) {
            if let stored = try storedRow(row)?.row { found[stored.rowID] = stored }
        }
        return rowIDs.map { found[$0] }
    }

    package func forEachRow(root: String, _ body: (StoredRow) throws -> Void) throws {
        guard let table = schema.tables[root] else { return }
        try connection.copy(from: selectSQL(table, "ORDER BY \"_id\"")) { row in
            if let stored = try storedRow(row)?.row { try body(stored) }
        }
    }

    /// The row a select of ``PostgreSQLTable/selectColumns`` is on, with its version; nil for an entity the model
    /// lacks.
    func storedRow(_ row: some PostgreSQLRow) throws -> (row: StoredRow, version: Int64)? {
        // By the entity, not the name: a row may name its entity by an alias.
        guard let name = try row.text(at: 1), let entity = model.entity(named: name), let layout = rowLayouts[entity.name]
        else {
            return nil
        }
        var values: [AttributeValue?] = []
        values.reserveCapacity(entity.attributes.count)
        for (index, attribute) in entity.attributes.enumerated() {
            values.append(try row.attribute(at: layout.attributeColumns[index], as: attribute.type))
        }
        let targets = try layout.targetColumns.map { try $0.flatMap(row.int64(at:)) }
        let positions = try layout.positionColumns.map { try $0.flatMap(row.int64(at:)) }
        let stored = StoredRow(rowID: try row.int64(at: 0)!, entity: entity.name, values: values, targets: targets, positions: positions)
        return (stored, try row.int64(at: 2) ?? 1)
    }

    package func joinMembers(table: String, sources: [Int64]?, isOrdered: Bool) throws -> [Int64: [Int64]] {
        let order = isOrdered ? "\"source\", \"position\"" : "\"source\", \"target\""
        var members: [Int64: [Int64]] = [:]
        let select = "SELECT \"source\", \"target\" FROM \(quoted(table))"
        guard let sources else {
            try connection.copy(from: "\(select) ORDER BY \(order)") { row in
                members[try row.int64(at: 0)!, default: []].append(try row.int64(at: 1)!)
            }
            return members
        }
        let statement = try connection.cachedStatement(sql: "\(select) WHERE \"source\" = ANY($1::bigint[]) ORDER BY \(order)")
        for row in try statement.query(arguments: [.text(Self.arrayLiteral(sources))]) {
            members[try row.int64(at: 0)!, default: []].append(try row.int64(at: 1)!)
        }
        return members
    }

    package func largestRowID(root: String) throws -> Int64 {
        guard let table = schema.tables[root] else { return 0 }
        let result = try connection.cachedStatement(sql: "SELECT coalesce(max(\"_id\"), 0) FROM \(quoted(table.name))").query()
        return try result[0].int64(at: 0) ?? 0
    }

    package func rowCount(root: String) throws -> Int {
        guard let table = schema.tables[root] else { return 0 }
        let result = try connection.cachedStatement(sql: "SELECT count(*) FROM \(quoted(table.name))").query()
        return Int(try result[0].int64(at: 0) ?? 0)
    }

    package func ledgerSections(named names: [String]?) throws -> [String: [UInt8]] {
        guard try hasLedgerTable() else { return [:] }
        var sections: [String: [UInt8]] = [:]
        let ledger = quoted(Self.ledgerTable)
        let result = try names.map { names in
            try connection.cachedStatement(sql: "SELECT \"section\", \"bytes\" FROM \(ledger) WHERE \"section\" = ANY($1::text[])")
                .query(arguments: [.text(Self.arrayLiteral(names))])
        } ?? connection.query(sql: "SELECT \"section\", \"bytes\" FROM \(ledger)")
        for row in result { sections[try row.text(at: 0)!] = try row.bytes(at: 1) ?? [] }
        return sections
    }

    // MARK: Writing

    /// Drops the indexes, primary keys and references, runs `body`, then builds each index and key from all the rows
    /// and checks each reference in one join, rather than row by row. A duplicate identity or row id fails its index's
    /// building, a dangling reference its constraint's, and the transaction with them.
    package func bulkLoad<Result>(_ body: () throws -> Result) throws -> Result {
        try write {
            // Checks pending from earlier rows of the transaction run now: no table may have any when altered.
            try connection.execute(sql: "SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED")
            for foreignKey in schema.foreignKeys { try connection.execute(sql: foreignKey.dropSQL) }
            for index in schema.indexes { try connection.execute(sql: "DROP INDEX \(quoted(index.name))") }
            let primaryKeys = try self.primaryKeys()
            for key in primaryKeys { try connection.execute(sql: "ALTER TABLE \(key.table) DROP CONSTRAINT \(quoted(key.name))") }
            let result = try body()
            for key in primaryKeys {
                try connection.execute(sql: "ALTER TABLE \(key.table) ADD CONSTRAINT \(quoted(key.name)) \(key.definition)")
            }
            for index in schema.indexes { try connection.execute(sql: index.creationSQL) }
            for foreignKey in schema.foreignKeys { try connection.execute(sql: foreignKey.creationSQL) }
            return result
        }
    }

    /// The primary keys of the entity and join tables, as the catalog has them (named by the server when created):
    /// each table as SQL names it, the constraint's name and its definition.
    private func primaryKeys() throws -> [(table: String, name: String, definition: String)] {
        let tables = schema.tables.values.map(\.name) + schema.joinTables.keys
        let keys = try connection.query(
            sql: """
                SELECT conrelid::regclass::text, conname::text, pg_get_constraintdef(oid) FROM pg_catalog.pg_constraint
                WHERE contype = 'p' AND conrelid = ANY($1::regclass[]) ORDER BY 1
                """,
            arguments: [.text(Self.arrayLiteral(tables.map(quoted)))])
        return try keys.map { (try $0.text(at: 0)!, try $0.text(at: 1)!, try $0.text(at: 2)!) }
    }

    package func insert(_ rows: RowBatch) throws {
        guard rows.count > 0 else { return }
        let entity = rows.entity
        let table = schema.tables[entity.rootName]!
        let toOnes = entity.relationships.indices.filter { !entity.relationships[$0].isToMany }
        let positioned = toOnes.filter {
            table.columnIndex[StoreNames.positionColumn(inverse: entity.relationships[$0].name)] != nil
        }
        let columns = PostgreSQLTable.bookkeepingColumns + entity.attributes.flatMap { table.physicalColumns(of: $0.name) }
            + toOnes.map { entity.relationships[$0].name }
            + positioned.map { StoreNames.positionColumn(inverse: entity.relationships[$0].name) }
        let attributeCount = entity.attributes.count, relationshipCount = entity.relationships.count
        try connection.copy(into: table.name, columns: columns) { writer in
            for row in 0..<rows.count {
                try writer.append(rows.rowIDs[row])
                try writer.append(entity.name)
                try writer.append(Int64(1))
                for attribute in 0..<attributeCount {
                    if let value = rows.values[row * attributeCount + attribute] {
                        try value.append(to: &writer)
                    } else {
                        for _ in 0..<entity.attributes[attribute].type.postgreSQLWidth { try writer.appendNull() }
                    }
                }
                for relationship in toOnes { try writer.append(optional: rows.targets[row * relationshipCount + relationship]) }
                for relationship in positioned {
                    try writer.append(optional: rows.positions[row * relationshipCount + relationship])
                }
                try writer.endRow()
            }
        }
    }

    package func update(_ rows: RowBatch, attributes: [Int], toOnes: [Int], entityChanges: Bool) throws {
        let entity = rows.entity
        let table = schema.tables[entity.rootName]!
        var assignments: [String] = []
        var parameter = 0
        func assign(_ column: String) {
            parameter += 1
            assignments.append("\(quoted(column)) = $\(parameter)")
        }
        if entityChanges {
            assign("_entity")
            // The columns of the tree that the new class has not: empty, as in a row inserted of that class.
            let toOneNames = entity.relationships.filter { !$0.isToMany }.map(\.name)
            let own = Set(entity.attributes.map(\.name) + toOneNames + toOneNames.map { StoreNames.positionColumn(inverse: $0) })
            for column in table.columns where !own.contains(column.name) {
                for name in table.physicalColumns(of: column.name) { assignments.append("\(quoted(name)) = NULL") }
            }
        }
        for attribute in attributes { table.physicalColumns(of: entity.attributes[attribute].name).forEach(assign) }
        var positioned: [Int] = []
        for relationship in toOnes {
            assign(entity.relationships[relationship].name)
            let position = StoreNames.positionColumn(inverse: entity.relationships[relationship].name)
            if table.columnIndex[position] != nil {
                assign(position)
                positioned.append(relationship)
            }
        }
        assignments.append("\"_version\" = \"_version\" + 1")
        let statement = try connection.cachedStatement(
            sql: "UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \"_id\" = $\(parameter + 1)")
        let attributeCount = entity.attributes.count, relationshipCount = entity.relationships.count
        var arguments: [PostgreSQLValue] = []
        for row in 0..<rows.count {
            arguments.removeAll(keepingCapacity: true)
            if entityChanges { arguments.append(.text(entity.name)) }
            for attribute in attributes {
                if let value = rows.values[row * attributeCount + attribute] {
                    value.postgreSQLArguments(into: &arguments)
                } else {
                    arguments += repeatElement(.null, count: entity.attributes[attribute].type.postgreSQLWidth)
                }
            }
            for relationship in toOnes {
                arguments.append(rows.targets[row * relationshipCount + relationship].map(PostgreSQLValue.integer) ?? .null)
                if positioned.contains(relationship) {
                    arguments.append(rows.positions[row * relationshipCount + relationship].map(PostgreSQLValue.integer) ?? .null)
                }
            }
            arguments.append(.integer(rows.rowIDs[row]))
            _ = try statement.execute(arguments: arguments)
        }
    }

    package func delete(root: String, rowIDs: [Int64]) throws {
        guard let table = schema.tables[root], !rowIDs.isEmpty else { return }
        _ = try connection.cachedStatement(sql: "DELETE FROM \(quoted(table.name)) WHERE \"_id\" = ANY($1::bigint[])")
            .execute(arguments: [.text(Self.arrayLiteral(rowIDs))])
    }

    package func replaceJoinMembers(
        table: String, members: [(source: Int64, targets: [Int64])], isOrdered: Bool, sourcesAreNew: Bool
    ) throws {
        if !sourcesAreNew {
            _ = try connection.cachedStatement(sql: "DELETE FROM \(quoted(table)) WHERE \"source\" = ANY($1::bigint[])")
                .execute(arguments: [.text(Self.arrayLiteral(members.map(\.source)))])
        }
        guard members.contains(where: { !$0.targets.isEmpty }) else { return }
        try connection.copy(into: table, columns: ["source", "target", "position"]) { writer in
            for (source, targets) in members {
                for (position, target) in targets.enumerated() {
                    try writer.append(source)
                    try writer.append(target)
                    try writer.append(optional: isOrdered ? Int64(position) : nil)
                    try writer.endRow()
                }
            }
        }
    }

    package func replaceLedger(_ sections: [String: [UInt8]]) throws {
        let ledger = quoted(Self.ledgerTable)
        if try !hasLedgerTable() {
            // Stored as they are: the sections are hashes and packed keys that compress little, and trying to
            // compress megabytes of them took most of a first launch's ledger write.
            try connection.execute(sql: """
                CREATE TABLE \(ledger) ("section" text COLLATE "C" PRIMARY KEY, "bytes" bytea NOT NULL);
                ALTER TABLE \(ledger) ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
                """)
        }
        try connection.execute(sql: "DELETE FROM \(ledger)")
        try connection.copy(into: Self.ledgerTable, columns: ["section", "bytes"]) { writer in
            for (name, bytes) in sections.sorted(by: { $0.key < $1.key }) {
                try writer.append(name)
                try writer.append(bytes: bytes)
                try writer.endRow()
            }
        }
    }

    private func hasLedgerTable() throws -> Bool {
        let exists = try connection.cachedStatement(sql: "SELECT to_regclass($1) IS NOT NULL")
            .query(arguments: [.text(quoted(Self.ledgerTable))])
        return try exists[0].bool(at: 0) == true
    }

    // MARK: SQL

    /// `SELECT <every column of table> FROM "table" <rest>`.
    func selectSQL(_ table: PostgreSQLTable, _ rest: String) -> String {
        "SELECT \(table.selectList) FROM \(quoted(table.name)) \(rest)"
    }

    /// `{1,2,3}`: an array argument, sent as text for the server to read as the type the statement casts it to.
    static func arrayLiteral(_ values: [Int64]) -> String {
        "{" + values.map(String.init).joined(separator: ",") + "}"
    }

    /// `{"a","b"}`.
    static func arrayLiteral(_ values: [String]) -> String {
        let escaped = values.map {
            "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + escaped.joined(separator: ",") + "}"
    }
}

extension PostgreSQLCopyWriter {
    /// Appends an integer, or NULL for nil.
    mutating func append(optional value: Int64?) throws {
        if let value { try append(value) } else { try appendNull() }
    }
}
