import SeedKitModel

/// What bringing a store from the model it was created with to a new one does: decided here for every store, on
/// their common layout (``StoreLayout``), and run by each store in its own SQL.
///
///     let migration = try SchemaMigration(from: storedModel, to: model, allowsDataLoss: false) { table in
///         try rowCount(of: table) > 0
///     }
///     for step in migration.steps { try run(step) }     // in the transaction that writes the new metadata
///
/// A lightweight migration: new entities, attributes and relationships are added; an entity, attribute or
/// relationship whose aliases name an old one is renamed (an entity's rows named anew too); an attribute added with a default gets it in existing rows,
/// as does one made required. Anything that would lose data — a dropped table or column, a column of another kind,
/// an optional attribute made required without a default, a required one added without a default to a table with
/// rows — is refused before anything is written; drops are allowed with `allowsDataLoss`.
///
/// The steps go in an order every store can run: indexes that change go first (SQLite drops no indexed column), then
/// each table's changes, then the dropped tables, then join tables; ``Step/createIndexes(table:)`` last for each table.
package struct SchemaMigration {
    /// One change of the schema, in the terms of the layouts; tables by their name at that point of the migration.
    package enum Step: Equatable {
        /// A new root entity's table, with its indexes.
        case createTable(String)
        case renameTable(from: String, to: String)
        /// An index of the old layout that the new one has not, or not alike (its table or column renamed, its
        /// identity changed).
        case dropIndex(StoreLayout.Index)
        case addColumn(table: String, StoreLayout.Column)
        case renameColumn(table: String, from: StoreLayout.Column, to: StoreLayout.Column)
        /// Sets the column to `value` in the rows of `entities` (those of the tree that have the attribute); only
        /// where it is empty when `emptyOnly`.
        case fill(table: String, column: StoreLayout.Column, value: AttributeValue, entities: [String], emptyOnly: Bool)
        case dropColumn(table: String, StoreLayout.Column)
        /// Rows of an entity renamed through an alias: their `_entity` becomes the new name.
        case renameEntity(table: String, from: String, to: String)
        /// The indexes of a table of the new layout, each created unless it exists.
        case createIndexes(table: String)
        /// A root entity's table, or a join table.
        case dropTable(String)
        case createJoinTable(String)
    }

    /// The layout of the model the store was created with.
    package let old: StoreLayout
    /// The layout of the model the store is migrated to.
    package let new: StoreLayout
    package private(set) var steps: [Step] = []

    /// Decides the migration.
    ///
    /// - Parameters:
    ///   - hasRows: Whether the old layout's table of that name holds rows.
    /// - Throws: ``StoreError`` of kind `migrationRefused` naming the entity and property (and how many more were
    ///   refused), with ``StoreError/migratesWithDataLoss`` when `allowsDataLoss` would let it go ahead; the layouts'
    ///   errors.
    /// - Complexity: O(*p*) in the number of tables and columns, and a `hasRows` call per required attribute added
    ///   without a default.
    package init(
        from storedModel: EntityModel, to model: EntityModel, allowsDataLoss: Bool, hasRows: (String) throws -> Bool
    ) throws {
        old = try StoreLayout(model: storedModel)
        new = try StoreLayout(model: model)
        var refusals: [StoreError] = []
        func refuse(_ object: String, _ key: String?, _ message: String, unlessDataLossIsAllowed: Bool = false) {
            var refusal = StoreError(.migrationRefused, object: object, keys: key.map { [$0] } ?? [], message)
            refusal.migratesWithDataLoss = unlessDataLossIsAllowed
            refusals.append(refusal)
        }

        // Old table name → new, so that references to renamed tables compare equal.
        var renamedTables: [String: String] = [:]
        for (name, table) in new.tables where old.tables[name] == nil {
            if let alias = table.aliases.first(where: { old.tables[$0] != nil }) { renamedTables[alias] = name }
        }
        func newKind(_ kind: StoreLayout.Column.Kind) -> StoreLayout.Column.Kind {
            if case .foreignKey(let table) = kind { return .foreignKey(renamedTables[table] ?? table) }
            return kind
        }
        let oldTableOf = Dictionary(uniqueKeysWithValues: new.tables.keys.compactMap { name in
            (old.tables[name] ?? renamedTables.first { $0.value == name }.flatMap { old.tables[$0.key] }).map { (name, $0) }
        })

        // Indexes first: the new layout's indexes in terms of the old names, to find which are kept as they are.
        var keptIndexes: Set<String> = []
        for (name, table) in new.tables {
            guard let oldTable = oldTableOf[name] else { continue }
            for index in table.indexes {
                let oldColumns = index.columns.map { column in
                    table.column(named: column).flatMap { Self.matchedColumn($0, in: oldTable)?.name } ?? column
                }
                if let same = oldTable.indexes.first(where: { $0.name == index.name }), same.columns == oldColumns,
                    same.isIdentity == index.isIdentity
                {
                    keptIndexes.insert(same.name)
                }
            }
        }
        for name in old.tables.keys.sorted() {
            for index in old.tables[name]!.indexes where !keptIndexes.contains(index.name) {
                steps.append(.dropIndex(index))
            }
        }

        let oldEntities = Set(storedModel.entities.map(\.name))
        var matchedOldTables: Set<String> = []
        for name in new.tables.keys.sorted() {
            let table = new.tables[name]!
            guard let oldTable = oldTableOf[name] else {
                steps.append(.createTable(name))
                continue
            }
            matchedOldTables.insert(oldTable.name)
            if oldTable.name != name { steps.append(.renameTable(from: oldTable.name, to: name)) }
            var matchedOldColumns: Set<String> = []
            for column in table.columns {
                let entities = model.entity(named: name)!.kinds.filter {
                    model.entity(named: $0)!.attributeIndex(named: column.name) != nil
                }
                guard let oldColumn = Self.matchedColumn(column, in: oldTable) else {
                    steps.append(.addColumn(table: name, column))
                    guard let attribute = column.attribute else { continue }
                    if let value = attribute.defaultValue {
                        steps.append(.fill(table: name, column: column, value: value, entities: entities, emptyOnly: false))
                    } else if !attribute.isOptional, try hasRows(oldTable.name) {
                        refuse(
                            name, column.name,
                            "adding a required attribute without a default would leave existing rows without a value")
                    }
                    continue
                }
                matchedOldColumns.insert(oldColumn.name)
                guard newKind(oldColumn.kind) == column.kind else {
                    refuse(
                        name, column.name,
                        "changing the column from a \(oldColumn.kind) to a \(column.kind) would lose its values")
                    continue
                }
                if oldColumn.name != column.name {
                    steps.append(.renameColumn(table: name, from: oldColumn, to: column))
                }
                if let attribute = column.attribute, oldColumn.attribute?.isOptional == true, !attribute.isOptional {
                    if let value = attribute.defaultValue {
                        steps.append(.fill(table: name, column: column, value: value, entities: entities, emptyOnly: true))
                    } else {
                        refuse(
                            name, column.name,
                            "making the attribute required without a default would leave rows without a value")
                    }
                }
            }
            for oldColumn in oldTable.columns where !matchedOldColumns.contains(oldColumn.name) {
                guard allowsDataLoss else {
                    refuse(
                        name, oldColumn.name,
                        "dropping the column would lose its values; the new model has no property named "
                            + "\(oldColumn.name) or aliased to it",
                        unlessDataLossIsAllowed: true)
                    continue
                }
                steps.append(.dropColumn(table: name, oldColumn))
            }
            for entity in model.entity(named: name)!.kinds where !oldEntities.contains(entity) {
                if let alias = model.entity(named: entity)!.declaration.aliases.first(where: oldEntities.contains) {
                    steps.append(.renameEntity(table: name, from: alias, to: entity))
                }
            }
        }
        for name in old.tables.keys.sorted() where !matchedOldTables.contains(name) {
            guard allowsDataLoss else {
                refuse(
                    name, nil,
                    "dropping the table would lose its rows; the new model has no entity named \(name) or aliased to it",
                    unlessDataLossIsAllowed: true)
                continue
            }
            steps.append(.dropTable(name))
        }
        for name in new.joinTables.keys.sorted() where old.joinTables[name] == nil {
            steps.append(.createJoinTable(name))
        }
        for name in old.joinTables.keys.sorted() where new.joinTables[name] == nil {
            guard allowsDataLoss else {
                refuse(name, nil, "dropping the join table would lose its relationships", unlessDataLossIsAllowed: true)
                continue
            }
            steps.append(.dropTable(name))
        }
        for name in new.tables.keys.sorted() where oldTableOf[name] != nil { steps.append(.createIndexes(table: name)) }

        // Refused before anything is written: the store stays as it was.
        if var error = refusals.first {
            error.migratesWithDataLoss = refusals.allSatisfy(\.migratesWithDataLoss)
            if refusals.count > 1 {
                error.message += " (and \(refusals.count - 1) more: \(refusals.dropFirst().map(\.description).joined(separator: "; ")))"
            }
            throw error
        }
    }

    /// The column of `oldTable` that `column` continues: the one of its name, else of one of its aliases.
    private static func matchedColumn(_ column: StoreLayout.Column, in oldTable: StoreLayout.Table) -> StoreLayout.Column? {
        ([column.name] + column.aliases).lazy.compactMap(oldTable.column(named:)).first
    }
}
