import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

extension SQLiteStore {
    /// Brings a store created with `storedModel` to this store's model, inside the caller's transaction.
    ///
    /// New entities, attributes and relationships are added; an entity, attribute or relationship whose aliases name
    /// an old one is renamed; an attribute added with a default gets it in existing rows. Anything that would lose
    /// data — a dropped table or column, a column of another type, an optional attribute made required without a
    /// default — is refused before anything is written, unless `options.allowsDataLoss`.
    ///
    /// - Throws: ``StoreError`` of kind `migrationRefused`, naming the entity and property.
    /// - Complexity: O(*p*) statements for *p* properties, plus a table scan per attribute that gets a default.
    func migrate(from storedModel: EntityModel, existingTables: Set<String>, options: Options) throws {
        let old = try StoreSchema(model: storedModel)
        var statements: [(sql: String, arguments: [AttributeValue?])] = []
        var refusals: [StoreError] = []
        func refuse(_ object: String, _ key: String?, _ message: String, unlessDataLossIsAllowed: Bool = false) {
            var refusal = StoreError(.migrationRefused, object: object, keys: key.map { [$0] } ?? [], message)
            refusal.migratesWithDataLoss = unlessDataLossIsAllowed
            refusals.append(refusal)
        }
        func run(_ sql: String, _ arguments: [AttributeValue?] = []) { statements.append((sql, arguments)) }

        // Old table name → new, so foreign keys to renamed tables compare equal.
        var renamedTables: [String: String] = [:]
        for (name, table) in schema.tables {
            if old.tables[name] == nil, let alias = table.aliases.first(where: { old.tables[$0] != nil }) {
                renamedTables[alias] = name
            }
        }
        func newKind(_ kind: ColumnSchema.Kind) -> ColumnSchema.Kind {
            if case .foreignKey(let table) = kind { return .foreignKey(renamedTables[table] ?? table) }
            return kind
        }

        var matchedOldTables: Set<String> = []
        for name in schema.tables.keys.sorted() {
            let table = schema.tables[name]!
            guard let oldTable = old.tables[name] ?? renamedTables.first(where: { $0.value == name }).flatMap({ old.tables[$0.key] })
            else {
                table.creationSQL.forEach { run($0) }
                continue
            }
            matchedOldTables.insert(oldTable.name)
            if oldTable.name != name { run("ALTER TABLE \(oldTable.quoted) RENAME TO \(table.quoted)") }
            var matchedOldColumns: Set<String> = []
            for column in table.columns {
                let quotedColumn = SQLIdentifier.quote(column.name)
                let oldColumn = ([column.name] + column.aliases).lazy
                    .compactMap { oldTable.columnIndex[$0].map { oldTable.columns[$0] } }.first
                // Entity names are values: bound, like any other.
                let kinds = entitiesStoring(column.name, in: name)
                let entities = Array(repeating: "?", count: kinds.count).joined(separator: ", ")
                let kindValues = kinds.map { AttributeValue?.some(.string($0)) }
                if let oldColumn {
                    matchedOldColumns.insert(oldColumn.name)
                    if newKind(oldColumn.kind) != column.kind {
                        refuse(name, column.name, "changing the column from \(oldColumn.sqlType) \(oldColumn.kind) to \(column.kind) would lose its values")
                        continue
                    }
                    if oldColumn.name != column.name {
                        run("ALTER TABLE \(table.quoted) RENAME COLUMN \(SQLIdentifier.quote(oldColumn.name)) TO \(quotedColumn)")
                    }
                    if let attribute = column.attribute, oldColumn.attribute?.isOptional == true, !attribute.isOptional {
                        if let value = attribute.defaultValue {
                            run("UPDATE \(table.quoted) SET \(quotedColumn) = ? WHERE \(quotedColumn) IS NULL AND \"_entity\" IN (\(entities))", [value] + kindValues)
                        } else {
                            refuse(name, column.name, "making the attribute required without a default would leave rows without a value")
                        }
                    }
                } else {
                    run("ALTER TABLE \(table.quoted) ADD COLUMN \(column.definition)")
                    if let attribute = column.attribute {
                        if let value = attribute.defaultValue {
                            run("UPDATE \(table.quoted) SET \(quotedColumn) = ? WHERE \"_entity\" IN (\(entities))", [value] + kindValues)
                        } else if !attribute.isOptional, try rowCount(of: oldTable.quoted) > 0 {
                            refuse(name, column.name, "adding a required attribute without a default would leave existing rows without a value")
                        }
                    }
                }
            }
            for oldColumn in oldTable.columns where !matchedOldColumns.contains(oldColumn.name) {
                guard options.allowsDataLoss else {
                    refuse(
                        name, oldColumn.name,
                        "dropping the column would lose its values; the new model has no property named "
                            + "\(oldColumn.name) or aliased to it",
                        unlessDataLossIsAllowed: true)
                    continue
                }
                run("DROP INDEX IF EXISTS \(SQLIdentifier.quote(StoreNames.foreignKeyIndex(table: name, column: oldColumn.name)))")
                run("ALTER TABLE \(table.quoted) DROP COLUMN \(SQLIdentifier.quote(oldColumn.name))")
            }
            if oldTable.identity != table.identity { run("DROP INDEX IF EXISTS \(SQLIdentifier.quote(StoreNames.identityIndex(table: oldTable.name)))") }
            table.indexSQL.forEach { run($0) }
        }
        for name in old.tables.keys.sorted() where !matchedOldTables.contains(name) {
            guard options.allowsDataLoss else {
                refuse(
                    name, nil,
                    "dropping the table would lose its rows; the new model has no entity named \(name) "
                        + "or aliased to it",
                    unlessDataLossIsAllowed: true)
                continue
            }
            run("DROP TABLE \(SQLIdentifier.quote(name))")
        }
        for name in schema.joinTables.keys.sorted() where !existingTables.contains(name) {
            schema.joinTables[name]!.creationSQL.forEach { run($0) }
        }
        for name in old.joinTables.keys.sorted() where schema.joinTables[name] == nil {
            guard options.allowsDataLoss else {
                refuse(name, nil, "dropping the join table would lose its relationships", unlessDataLossIsAllowed: true)
                continue
            }
            run("DROP TABLE \(SQLIdentifier.quote(name))")
        }
        // Refuse before writing anything: the file stays as it was.
        if let first = refusals.first {
            var error = first
            error.migratesWithDataLoss = refusals.allSatisfy(\.migratesWithDataLoss)
            if refusals.count > 1 {
                error.message += " (and \(refusals.count - 1) more: \(refusals.dropFirst().map(\.description).joined(separator: "; ")))"
            }
            throw error
        }
        for (sql, arguments) in statements {
            let statement = try connection.prepare(sql: sql)
            for (index, argument) in arguments.enumerated() { try statement.bind(attribute: argument, at: index + 1) }
            try statement.execute()
        }
        try writeMetadata()
    }

    /// The entities of the tree of `table` whose objects have the column `name`.
    private func entitiesStoring(_ name: String, in table: String) -> [String] {
        model.entity(named: table)!.kinds.filter { model.entity(named: $0)!.attributeIndex(named: name) != nil }
    }

    private func rowCount(of quotedTable: String) throws -> Int {
        let count = try connection.prepare(sql: "SELECT count(*) FROM \(quotedTable)")
        _ = try count.step()
        return count.int(at: 0)
    }
}
