extension SQLiteStore {
    /// The SQL that reads rows of `table`: its bookkeeping columns then every other column, in schema order.
    ///
    ///     SELECT "Employee"."_id", "Employee"."_entity", ... FROM "Employee" WHERE "Employee"."_id" = ?
    func selectSQL(_ table: TableSchema, _ rest: String = "") -> String {
        "SELECT \(table.selectList) FROM \(table.quoted)\(rest.isEmpty ? "" : " ")\(rest)"
    }

    /// The largest row id of a root entity's table, or 0.
    func largestRowID(in table: String) throws -> Int64 {
        let select = try connection.cachedStatement(sql: "SELECT coalesce(max(\"_id\"), 0) FROM \(SQLIdentifier.quote(table))")
        defer { select.reset() }
        _ = try select.step()
        return select.int64(at: 0)
    }

    /// The SQL condition and arguments that select an entity's rows: all of its tree's, or only its kinds'.
    func entityCondition(for entity: Entity, includesSubentities: Bool) -> (sql: String, arguments: [AttributeValue?])? {
        let kinds = includesSubentities ? entity.kinds : [entity.name]
        if kinds.count == model.entity(named: entity.rootName)!.kinds.count { return nil }
        let placeholders = Array(repeating: "?", count: kinds.count).joined(separator: ", ")
        return ("\(SQLIdentifier.quote(entity.rootName)).\"_entity\" IN (\(placeholders))", kinds.map { .string($0) })
    }
}

extension AttributeFilter {
    /// The filter as an SQL condition on `column`, with the same meaning for missing values as ``matches(_:)``; nil
    /// when SQL can't order values of `type` as ``AttributeValue`` does.
    func sqlCondition(column: String, type: AttributeType) -> (sql: String, arguments: [AttributeValue?])? {
        guard let value else {
            switch comparison {
            case .equal, .lessOrEqual, .greaterOrEqual: return ("\(column) IS NULL", [])
            case .notEqual: return ("\(column) IS NOT NULL", [])
            case .less, .greater: return ("0", [])
            }
        }
        switch comparison {
        case .equal: return ("\(column) = ?", [value])
        case .notEqual: return ("(\(column) IS NULL OR \(column) <> ?)", [value])
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard type.sortsInSQL else { return nil }
            return ("\(column) \(comparison.rawValue) ?", [value])
        }
    }
}

extension SQLiteStore {
    /// `INSERT INTO "Employee" ("_id", "_entity", "_version", <attributes>, <to-one columns>) VALUES (?, ?, 1, ...)`
    /// for objects of `entity`, in the order of its attributes then its to-one relationships.
    ///
    /// Built once per entity: a save asks for it once per inserted object.
    func insertSQL(for entity: Entity) -> String {
        if let sql = insertSQLByEntity[ObjectIdentifier(entity)] { return sql }
        let sql = insertSQL(for: entity, rowCount: 1)
        insertSQLByEntity[ObjectIdentifier(entity)] = sql
        return sql
    }

    /// The ``insertSQL(for:)`` of `rowCount` objects at once: `VALUES (?, ?, 1, ...), (?, ?, 1, ...)`, whose
    /// parameters are those of each object in turn.
    func insertSQL(for entity: Entity, rowCount: Int) -> String {
        let columns = entity.attributes.map(\.name) + entity.relationships.filter { !$0.isToMany }.map(\.name)
        let names = ["_id", "_entity", "_version"] + columns
        let values = "(" + (["?", "?", "1"] + columns.map { _ in "?" }).joined(separator: ", ") + ")"
        return "INSERT INTO \(SQLIdentifier.quote(entity.rootName)) (\(names.map(SQLIdentifier.quote).joined(separator: ", "))) VALUES \(repeatElement(values, count: rowCount).joined(separator: ", "))"
    }
}
