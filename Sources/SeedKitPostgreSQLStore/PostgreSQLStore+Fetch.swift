import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL

/// What a context reads: fetches, faults and identity lookups, as objects made from the store's rows.
extension PostgreSQLStore {
    /// Reads the rows of the request's entity (and its subentities when asked); the context runs the filters, the
    /// sort and the limit, so the result is never final here.
    package func fetch(_ fetch: StoreFetch, into rows: inout StoredRows) throws -> Bool {
        let (condition, arguments) = entityCondition(fetch.entity, includesSubentities: fetch.includesSubentities)
        try readObjects(
            selectSQL(schema.tables[fetch.entity.rootName]!, "WHERE \(condition) ORDER BY \"_id\""), arguments, into: &rows)
        return false
    }

    /// Counts a fetch without a predicate; nil for one with a predicate, which the context counts itself.
    package func count(_ fetch: StoreFetch) throws -> Int? {
        guard fetch.predicate == nil else { return nil }
        let entity = fetch.entity
        let (condition, arguments) = entityCondition(entity, includesSubentities: fetch.includesSubentities)
        let result = try connection.cachedStatement(
            sql: "SELECT count(*) FROM \(quoted(entity.rootName)) WHERE \(condition)").query(arguments: arguments)
        return Int(try result[0].int64(at: 0) ?? 0)
    }

    package func fetchRows(root: String, rowIDs: [Int64], into rows: inout StoredRows) throws {
        try readObjects(
            selectSQL(schema.tables[root]!, "WHERE \"_id\" = ANY($1::bigint[])"), [.text(Self.arrayLiteral(rowIDs))],
            into: &rows)
    }

    package func fetchMembers(of owner: ManagedObject, relationship index: Int, into rows: inout StoredRows) throws {
        let table = schema.tables[rows.root]!
        let column = { (name: String) in "\(quoted(table.name)).\(quoted(name))" }
        let sql: String
        switch schema.memberStorage[owner.entity.name]![index] {
        case nil:
            preconditionFailure("a to-one relationship has no members")
        case .inverseColumn(let inverse, let positionColumn)?:
            let order = (positionColumn.map { [column($0)] } ?? []) + [column("_id")]
            sql = selectSQL(table, "WHERE \(column(inverse)) = $1 ORDER BY \(order.joined(separator: ", "))")
        case .join(let joinTable, let isOwner, let isOrdered)?:
            let join = quoted(joinTable)
            let (own, other) = isOwner ? ("source", "target") : ("target", "source")
            let order = (isOwner && isOrdered ? ["\(join).\"position\""] : []) + [column("_id")]
            sql = selectSQL(
                table,
                "JOIN \(join) ON \(join).\"\(other)\" = \(column("_id")) WHERE \(join).\"\(own)\" = $1 "
                    + "ORDER BY \(order.joined(separator: ", "))")
        }
        try readObjects(sql, [.integer(owner.objectID.number)], into: &rows)
    }

    package func rowID(of identity: IdentityKey) throws -> Int64? {
        guard let table = schema.tables[identity.root], table.identity.count == identity.values.count,
            !table.identity.isEmpty
        else { return nil }
        return try rowIdentity(values: identity.values, table: table)?.rowID
    }

    package func storedValues(of object: ManagedObject) throws -> StoredValues? {
        let table = schema.tables[object.entity.rootName]!
        let result = try connection.cachedStatement(sql: selectSQL(table, "WHERE \"_id\" = $1"))
            .query(arguments: [.integer(object.objectID.number)])
        guard let row = result.first, let (stored, version) = try storedRow(row) else { return nil }
        return StoredValues(version: version, attributes: stored.values, foreignKeys: stored.targets)
    }

    // MARK: Objects

    /// Reads the rows `sql` selects into `rows`, each a new object unless the context has it.
    private func readObjects(_ sql: String, _ arguments: [PostgreSQLValue], into rows: inout StoredRows) throws {
        for row in try connection.cachedStatement(sql: sql).query(arguments: arguments) {
            guard let rowID = try row.int64(at: 0), rows.isNew(rowID: rowID),
                let (stored, version) = try storedRow(row), let entity = model.entity(named: stored.entity)
            else { continue }
            let object = rows.makeObject(entity, rowID: rowID, version: version)
            object.attributeValues = AttributeValues(stored.values)
            if !entity.relationships.isEmpty {
                // To-manies are pending (0); a to-one keeps its destination's row id until it is read, and a missing
                // one is simply nil (-1, loaded).
                let faults = entity.relationships.indices.map { index -> Int64 in
                    entity.relationships[index].isToMany ? 0 : stored.targets[index] ?? -1
                }
                if faults.contains(where: { $0 != -1 }) { object.faults = faults }
            }
            rows.add(object)
        }
    }

    /// `"_entity" = ANY($1)` for the entity, or it and its subentities.
    private func entityCondition(
        _ entity: Entity, includesSubentities: Bool
    ) -> (sql: String, arguments: [PostgreSQLValue]) {
        let names = includesSubentities ? entity.kinds : [entity.name]
        return ("\"_entity\" = ANY($1::text[])", [.text(Self.arrayLiteral(names))])
    }
}
