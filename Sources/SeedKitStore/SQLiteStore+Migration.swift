import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

extension SQLiteStore {
    /// Brings a store created with `storedModel` to this store's model, inside the caller's transaction: the steps
    /// ``SchemaMigration`` decides, in SQLite's DDL, then the new metadata.
    ///
    /// - Throws: ``StoreError`` of kind `migrationRefused`, naming the entity and property, before anything is written.
    /// - Complexity: O(*p*) statements for *p* properties, plus a table scan per attribute that gets a default.
    func migrate(from storedModel: EntityModel, options: Options) throws {
        let migration = try SchemaMigration(from: storedModel, to: model, allowsDataLoss: options.allowsDataLoss) {
            let count = try connection.prepare(sql: "SELECT EXISTS (SELECT 1 FROM \(SQLIdentifier.quote($0)))")
            _ = try count.step()
            return count.int(at: 0) != 0
        }
        for step in migration.steps {
            switch step {
            case .createTable(let name):
                for sql in schema.tables[name]!.creationSQL { try connection.execute(sql: sql) }
            case .renameTable(let old, let new):
                try connection.execute(sql: "ALTER TABLE \(SQLIdentifier.quote(old)) RENAME TO \(SQLIdentifier.quote(new))")
            case .dropIndex(let index):
                try connection.execute(sql: "DROP INDEX IF EXISTS \(index.quoted)")
            case .addColumn(let table, let column):
                try connection.execute(sql: "ALTER TABLE \(SQLIdentifier.quote(table)) ADD COLUMN \(column.definition)")
            case .renameColumn(let table, let old, let new):
                try connection.execute(
                    sql: "ALTER TABLE \(SQLIdentifier.quote(table)) RENAME COLUMN \(SQLIdentifier.quote(old.name)) "
                        + "TO \(SQLIdentifier.quote(new.name))")
            case .fill(let table, let column, let value, let entities, let emptyOnly):
                let name = SQLIdentifier.quote(column.name)
                // Entity names are values: bound, like any other.
                let statement = try connection.prepare(
                    sql: "UPDATE \(SQLIdentifier.quote(table)) SET \(name) = ? WHERE "
                        + (emptyOnly ? "\(name) IS NULL AND " : "")
                        + "\"_entity\" IN (\(Array(repeating: "?", count: entities.count).joined(separator: ", ")))")
                try statement.bind(attribute: value, at: 1)
                for (index, entity) in entities.enumerated() { try statement.bind(attribute: .string(entity), at: index + 2) }
                try statement.execute()
            case .dropColumn(let table, let column):
                try connection.execute(
                    sql: "ALTER TABLE \(SQLIdentifier.quote(table)) DROP COLUMN \(SQLIdentifier.quote(column.name))")
            case .renameEntity(let table, let old, let new):
                try connection.execute(
                    sql: "UPDATE \(SQLIdentifier.quote(table)) SET \"_entity\" = ? WHERE \"_entity\" = ?",
                    arguments: [.text(new), .text(old)])
            case .createIndexes(let table):
                for sql in schema.tables[table]!.indexSQL { try connection.execute(sql: sql) }
            case .dropTable(let name):
                try connection.execute(sql: "DROP TABLE \(SQLIdentifier.quote(name))")
            case .createJoinTable(let name):
                for sql in schema.joinTables[name]!.creationSQL { try connection.execute(sql: sql) }
            }
        }
        try writeMetadata()
    }
}
