import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL

extension PostgreSQLStore {
    /// Brings a store created with `storedModel` to this store's model, inside the caller's transaction: the steps
    /// ``SchemaMigration`` decides, in PostgreSQL's DDL, then the references the new layout names, then the new
    /// metadata. A date's step covers its nanoseconds column too.
    ///
    /// - Throws: ``StoreError`` of kind `migrationRefused`, naming the entity and property, before anything is written.
    /// - Complexity: O(*p*) statements for *p* properties, plus a table scan per attribute that gets a default and per
    ///   reference added or renamed.
    func migrate(from storedModel: EntityModel) throws {
        let migration = try SchemaMigration(from: storedModel, to: model, allowsDataLoss: options.allowsDataLoss) {
            try connection.query(sql: "SELECT EXISTS (SELECT 1 FROM \(quoted($0)))")[0].bool(at: 0) == true
        }
        for step in migration.steps {
            switch step {
            case .createTable(let name):
                let table = schema.tables[name]!
                try connection.execute(sql: table.creationSQL)
                for index in table.indexes { try connection.execute(sql: index.creationSQL) }
            case .renameTable(let old, let new):
                try connection.execute(sql: "ALTER TABLE \(quoted(old)) RENAME TO \(quoted(new))")
            case .dropIndex(let index):
                try connection.execute(sql: "DROP INDEX IF EXISTS \(quoted(index.name))")
            case .addColumn(let table, let column):
                let additions = PostgreSQLTable.definitions(of: column).map { "ADD COLUMN \($0)" }
                try connection.execute(sql: "ALTER TABLE \(quoted(table)) \(additions.joined(separator: ", "))")
            case .renameColumn(let table, let old, let new):
                for (from, to) in zip(PostgreSQLTable.physicalColumns(of: old), PostgreSQLTable.physicalColumns(of: new)) {
                    try connection.execute(sql: "ALTER TABLE \(quoted(table)) RENAME COLUMN \(quoted(from)) TO \(quoted(to))")
                }
            case .fill(let table, let column, let value, let entities, let emptyOnly):
                var arguments: [PostgreSQLValue] = []
                value.postgreSQLArguments(into: &arguments)
                let columns = PostgreSQLTable.physicalColumns(of: column)
                let assignments = columns.enumerated().map { "\(quoted($1)) = $\($0 + 1)" }
                arguments.append(.text(Self.arrayLiteral(entities)))
                _ = try connection.execute(
                    sql: "UPDATE \(quoted(table)) SET \(assignments.joined(separator: ", ")) WHERE "
                        + (emptyOnly ? "\(quoted(columns[0])) IS NULL AND " : "")
                        + "\"_entity\" = ANY($\(arguments.count)::text[])",
                    arguments: arguments)
                try checkPendingReferences()
            case .dropColumn(let table, let column):
                let drops = PostgreSQLTable.physicalColumns(of: column).map { "DROP COLUMN \(quoted($0))" }
                try connection.execute(sql: "ALTER TABLE \(quoted(table)) \(drops.joined(separator: ", "))")
            case .renameEntity(let table, let old, let new):
                _ = try connection.execute(
                    sql: "UPDATE \(quoted(table)) SET \"_entity\" = $1 WHERE \"_entity\" = $2",
                    arguments: [.text(new), .text(old)])
                try checkPendingReferences()
            case .createIndexes(let table):
                for index in schema.tables[table]!.indexes { try connection.execute(sql: index.creationSQL) }
            case .dropTable(let name):
                // CASCADE: the references other tables make to it go with it.
                try connection.execute(sql: "DROP TABLE \(quoted(name)) CASCADE")
            case .createJoinTable(let name):
                try connection.execute(sql: PostgreSQLSchema.joinTableCreationSQL(name))
                try connection.execute(sql: PostgreSQLIndex(schema.joinTables[name]!.targetIndex).creationSQL)
            }
        }
        try reconcileForeignKeys(old: PostgreSQLSchema(model: storedModel))
        try writeMetadata()
    }

    /// Runs the reference checks an update left pending (PostgreSQL alters no table with checks pending), and defers
    /// the later ones to the commit again.
    private func checkPendingReferences() throws {
        try connection.execute(sql: "SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED")
    }

    /// Makes the references those the schema names: the old layout's that it no longer names (on a renamed table or
    /// column) dropped, and the missing ones added, each checked against the rows in one join.
    private func reconcileForeignKeys(old: PostgreSQLSchema) throws {
        let expected = Set(schema.foreignKeys.map(\.name))
        let stale = Set(old.foreignKeys.map(\.name)).subtracting(expected)
        var present: Set<String> = []
        let constraints = try connection.query(sql: """
            SELECT conname::text, conrelid::regclass::text FROM pg_catalog.pg_constraint
            WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
            """)
        for row in constraints {
            guard let name = try row.text(at: 0), let table = try row.text(at: 1) else { continue }
            if stale.contains(name) {
                // regclass text is the table's name quoted as SQL needs it.
                try connection.execute(sql: "ALTER TABLE \(table) DROP CONSTRAINT \(quoted(name))")
            } else {
                present.insert(name)
            }
        }
        for foreignKey in schema.foreignKeys where !present.contains(foreignKey.name) {
            try connection.execute(sql: foreignKey.creationSQL)
        }
    }
}
