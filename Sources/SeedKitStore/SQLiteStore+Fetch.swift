import Foundation
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

extension SQLiteStore {
    // MARK: PersistentStore: reading

    package func fetch(_ fetch: StoreFetch, into rows: inout StoredRows) throws -> Bool {
        fetchDepth += 1
        defer { fetchDepth -= 1 }
        fetchShape.load(fetch, counting: false, values: &fetchValues)
        let plan = try loadedPlan(fetch, counting: false)
        let statement = plan.statement!
        defer { statement.reset() }
        try withBound(fetchValues, to: statement) { try readRows(statement, into: &rows) }
        return plan.isFinal
    }

    package func count(_ fetch: StoreFetch) throws -> Int? {
        fetchDepth += 1
        defer { fetchDepth -= 1 }
        fetchShape.load(fetch, counting: true, values: &fetchValues)
        let plan = try loadedPlan(fetch, counting: true)
        guard let statement = plan.statement else { return nil }
        defer { statement.reset() }
        return try withBound(fetchValues, to: statement) {
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// Binds a fetch's values to the parameters of its statement, which may use fewer (see ``FetchShape``), and runs
    /// `body`, which steps it, while they are bound.
    ///
    /// Strings, a fetch's usual values, are copied into ``fetchText`` and bound where they lie there: SQLite neither
    /// allocates, copies nor frees them, and the buffer stays as it is until `body` is done. A fetch nested in another
    /// (an object's initializer can fetch) would overwrite it under the outer statement, so it binds copies instead.
    /// A fetch of a single string, as by an identity, binds it where the string itself lies, with no copy at all.
    ///
    /// Inlined into its two callers, so that `body` runs in place rather than as a closure given the store, the
    /// statement and the rows, each retained for it and released after.
    @inline(__always)
    private func withBound<Result>(
        _ values: [AttributeValue?], to statement: Statement, _ body: () throws -> Result
    ) throws -> Result {
        let count = min(values.count, statement.parameterCount)
        guard fetchDepth == 1 else {
            for index in 0..<count { try statement.bind(attribute: values[index], at: index + 1) }
            return try body()
        }
        if count == 1, case .string(var text)? = values[0] {
            // Valid while `body` runs inside: the string's own storage, or a copy on the stack of a small one.
            return try text.withUTF8 { utf8 in
                try statement.bind(unsafeText: UnsafeRawBufferPointer(utf8), at: 1)
                return try body()
            }
        }
        fetchText.removeAll(keepingCapacity: true)
        for index in 0..<count {
            if case .string(let text)? = values[index] { fetchText.append(contentsOf: text.utf8) }
        }
        return try fetchText.withUnsafeBytes { texts in
            var start = 0
            for index in 0..<count {
                guard case .string(let text)? = values[index] else {
                    try statement.bind(attribute: values[index], at: index + 1)
                    continue
                }
                let end = start + text.utf8.count
                try statement.bind(unsafeText: UnsafeRawBufferPointer(rebasing: texts[start..<end]), at: index + 1)
                start = end
            }
            return try body()
        }
    }

    /// The plan of the shape just loaded into ``fetchShape``: the last fetch's when the shape repeats, as it does in a
    /// run of fetches, found without hashing the shape; else the table's; else a new one.
    private func loadedPlan(_ fetch: StoreFetch, counting: Bool) throws -> FetchPlan {
        if let last = lastFetchPlan, last.shape == fetchShape { return last.plan }
        if let index = fetchPlans.index(forKey: fetchShape) {
            // The table's key rather than the loaded shape, whose codes the next fetch overwrites in place.
            lastFetchPlan = (fetchPlans[index].key, fetchPlans[index].value)
            return fetchPlans[index].value
        }
        let plan = try plan(fetchShape, fetch, counting: counting)
        // Shares the codes with the table's new key and the loaded shape: the next load copies them, once.
        lastFetchPlan = (fetchShape, plan)
        return plan
    }

    /// Makes the statement of a fetch's shape, and keeps it for the next fetch of that shape.
    ///
    /// A count whose predicate SQL can't decide exactly has no statement.
    private func plan(_ shape: FetchShape, _ fetch: StoreFetch, counting: Bool) throws -> FetchPlan {
        var query = FetchQuery(schema: schema, root: fetch.entity.rootName)
        var conditions: [String] = []
        if let condition = entityCondition(for: fetch.entity, includesSubentities: fetch.includesSubentities) {
            conditions.append(condition)
        }
        var isExact = true
        if let predicate = fetch.predicate {
            let condition = query.condition(predicate)
            if condition.sql != "1" { conditions.append(condition.sql) }
            isExact = condition.isExact
        }
        let plan: FetchPlan
        if counting {
            let sql = "SELECT count(*) FROM \(query.table.quoted) \(query.clauses(where: conditions))"
            plan = FetchPlan(statement: isExact ? try connection.prepare(sql: sql) : nil, isFinal: isExact)
        } else {
            var isFinal = fetch.mayBeFinal && isExact
            var order: [String] = []
            for key in fetch.sortKeys where isFinal {
                guard key.path.type.sortsInSQL else {
                    isFinal = false
                    break
                }
                order.append("\(query.column(key.path)) \(key.ascending ? "ASC" : "DESC")")
            }
            var sql = query.clauses(where: conditions)
            if isFinal {
                sql += " ORDER BY \((order + [query.table.column("_id")]).joined(separator: ", "))"
                if fetch.limit != nil || fetch.offset > 0 {
                    sql += " LIMIT \(query.parameter()) OFFSET \(query.parameter())"
                }
            }
            plan = FetchPlan(statement: try connection.prepare(sql: selectSQL(query.table, sql)), isFinal: isFinal)
        }
        // Shapes are few in an app; IN lists of many lengths could make many, so the plans start over past a bound.
        if fetchPlans.count >= Self.fetchPlanLimit { fetchPlans.removeAll() }
        fetchPlans[shape] = plan
        return plan
    }

    /// The most fetch plans a store keeps.
    static let fetchPlanLimit = 512

    package func fetchRows(root: String, rowIDs: [Int64], into rows: inout StoredRows) throws {
        let table = schema.tables[root]!
        if rowIDs.count == 1 {
            try readRows(selectSQL(table, "WHERE \(table.column("_id")) = ?"), [.integer(rowIDs[0])], into: &rows)
            return
        }
        // One statement for any number of ids: they travel as one JSON array.
        let list = "[" + rowIDs.map(String.init).joined(separator: ",") + "]"
        try readRows(
            selectSQL(table, "WHERE \(table.column("_id")) IN (SELECT value FROM json_each(?))"), [.string(list)],
            into: &rows)
    }

    package func fetchMembers(of owner: ManagedObject, relationship index: Int, into rows: inout StoredRows) throws {
        let table = schema.tables[rows.root]!
        let sql: String
        switch schema.layouts[owner.entity.name]!.relationships[index] {
        case .foreignKey:
            preconditionFailure("a to-one relationship has no members")
        case .inverseForeignKey(_, let column, let positionColumn):
            let order = (positionColumn.map { [table.column($0)] } ?? []) + [table.column("_id")]
            sql = selectSQL(table, "WHERE \(table.column(column)) = ? ORDER BY \(order.joined(separator: ", "))")
        case .join(let joinTable, let isOwner, let isOrdered):
            let join = SQLIdentifier.quote(joinTable)
            let (own, other) = isOwner ? ("source", "target") : ("target", "source")
            let order = (isOwner && isOrdered ? ["\(join).\"position\""] : []) + [table.column("_id")]
            sql = selectSQL(
                table,
                "JOIN \(join) ON \(join).\"\(other)\" = \(table.column("_id")) WHERE \(join).\"\(own)\" = ? "
                    + "ORDER BY \(order.joined(separator: ", "))")
        }
        try readRows(sql, [.integer(owner.objectID.number)], into: &rows)
    }

    package func rowID(of identity: IdentityKey) throws -> Int64? {
        guard let table = schema.tables[identity.root], table.identity.count == identity.values.count,
            !table.identity.isEmpty
        else { return nil }
        let conditions = table.identity.map { "\(table.column($0)) = ?" }
        let statement = try connection.cachedStatement(
            sql: "SELECT \"_id\" FROM \(table.quoted) WHERE \(conditions.joined(separator: " AND "))")
        defer { statement.reset() }
        for (offset, value) in identity.values.enumerated() { try statement.bind(attribute: value, at: offset + 1) }
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    package func storedValues(of object: ManagedObject) throws -> StoredValues? {
        let table = schema.tables[object.entity.rootName]!
        let layout = schema.layouts[object.entity.name]!
        let statement = try connection.cachedStatement(sql: selectSQL(table, "WHERE \"_id\" = ?"))
        defer { statement.reset() }
        try statement.bind(object.objectID.number, at: 1)
        guard try statement.step() else { return nil }
        let offset = StoreSchema.bookkeepingColumns.count
        return StoredValues(
            version: statement.int64(at: 2),
            attributes: object.entity.attributes.enumerated().map { index, attribute in
                statement.attribute(at: offset + layout.attributeColumns[index], as: attribute.type)
            },
            foreignKeys: layout.relationshipColumns.map { column in
                column.flatMap { statement.isNull(at: offset + $0) ? nil : statement.int64(at: offset + $0) }
            })
    }

    package func read<Result>(_ body: () throws -> Result) throws -> Result {
        guard !connection.isInsideTransaction else { return try body() }
        return try connection.inTransaction(.deferred, body)
    }

    package func write<Result>(_ body: () throws -> Result) throws -> Result {
        guard !connection.isInsideTransaction else { return try body() }
        return try connection.inTransaction(.immediate, body)
    }

    // MARK: Rows

    /// Reads the rows `sql` selects into `rows`.
    private func readRows(_ sql: String, _ arguments: [AttributeValue?], into rows: inout StoredRows) throws {
        let statement = try connection.cachedStatement(sql: sql)
        defer { statement.reset() }
        for (offset, argument) in arguments.enumerated() { try statement.bind(attribute: argument, at: offset + 1) }
        try readRows(statement, into: &rows)
    }

    /// Reads the rows a bound statement selects into `rows`: each row's values go straight from the statement into
    /// its new object's storage.
    ///
    /// - Complexity: O(*n*) in the number of rows, each an O(1) registry lookup plus decoding its values when new.
    private func readRows(_ statement: Statement, into rows: inout StoredRows) throws {
        // The last read's entity, so that a run of fetches of one entity looks it up once.
        var rowEntity = lastRowEntity
        defer { lastRowEntity = rowEntity }
        while try statement.step() {
            let rowID = statement.int64(at: 0)
            guard rows.isNew(rowID: rowID) else { continue }
            let name = statement.textBuffer(at: 1)
            if rowEntity == nil || !rowEntity!.hasName(name) {
                guard let entity = model.entity(named: String(decoding: name, as: UTF8.self)),
                    let layout = schema.layouts[entity.name]
                else { continue }
                rowEntity = RowEntity(name: Array(name), entity: entity, layout: layout)
            }
            let object = rows.makeObject(rowEntity!.entity, rowID: rowID, version: statement.int64(at: 2))
            fill(object, from: statement, entity: rowEntity!)
            rows.add(object)
        }
    }

    /// The entity and layout of the rows being read, looked up again only when a row names another entity.
    ///
    /// A fetch's rows nearly always share one entity: comparing the name's bytes in SQLite's buffer costs far less
    /// than building a `String` and looking it up twice per row. A class, so that passing it on per row retains one
    /// reference rather than each array of the layout.
    final class RowEntity {
        let name: [UInt8]
        let entity: Entity
        let layout: EntityLayout
        /// Per attribute, its type and its column counted from the row's first: what reading a row needs of each.
        let attributes: [(type: AttributeType, column: Int)]
        /// The faults of an object whose to-ones are all nil: shared, so such objects allocate no array of their own.
        let emptyFaults: [Int64]
        /// A nil per relationship, the start of a row's targets and positions.
        let noTargets: [Int64?]

        init(name: [UInt8], entity: Entity, layout: EntityLayout) {
            self.name = name
            self.entity = entity
            self.layout = layout
            let offset = StoreSchema.bookkeepingColumns.count
            attributes = zip(entity.attributes, layout.attributeColumns).map { ($0.type, offset + $1) }
            emptyFaults = layout.relationshipColumns.map { $0 == nil ? 0 : -1 }
            noTargets = Array(repeating: nil, count: entity.relationships.count)
        }

        func hasName(_ bytes: UnsafeRawBufferPointer) -> Bool {
            name.withUnsafeBytes { name in
                name.count == bytes.count
                    && (bytes.isEmpty || memcmp(name.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
            }
        }
    }

    /// Gives a new object the values of the current row, its relationships left as faults.
    private func fill(_ object: ManagedObject, from row: Statement, entity cache: RowEntity) {
        // Straight into the object's storage, over the entity's defaults it starts with.
        for (index, attribute) in cache.attributes.enumerated() {
            object.setFetchedValue(row.attribute(at: attribute.column, as: attribute.type), at: index)
        }
        if !cache.entity.relationships.isEmpty {
            let offset = StoreSchema.bookkeepingColumns.count
            // To-manies are pending (0); a to-one keeps its destination's row id until it is read, and a missing one
            // is simply nil (-1, loaded).
            var faults = cache.emptyFaults
            for (index, column) in cache.layout.relationshipColumns.enumerated() {
                if let column, !row.isNull(at: offset + column) { faults[index] = row.int64(at: offset + column) }
            }
            if faults.contains(where: { $0 != -1 }) { object.faults = faults }
        }
    }

    // MARK: SQL

    /// The SQL that reads rows of `table`: its bookkeeping columns then every other column, in schema order.
    ///
    ///     SELECT "Employee"."_id", "Employee"."_entity", ... FROM "Employee" WHERE "Employee"."_id" = ?
    func selectSQL(_ table: TableSchema, _ rest: String = "") -> String {
        "SELECT \(table.selectList) FROM \(table.quoted)\(rest.isEmpty ? "" : " ")\(rest)"
    }

    /// The largest row id of a root entity's table, or 0.
    func largestRowID(in table: String) throws -> Int64 {
        let select = try connection.cachedStatement(
            sql: "SELECT coalesce(max(\"_id\"), 0) FROM \(SQLIdentifier.quote(table))")
        defer { select.reset() }
        _ = try select.step()
        return select.int64(at: 0)
    }

    /// The SQL condition that selects an entity's rows: all of its tree's, or only its kinds'. The kinds' names are
    /// literals, part of the fetch's shape.
    func entityCondition(for entity: Entity, includesSubentities: Bool) -> String? {
        let kinds = includesSubentities ? entity.kinds : [entity.name]
        if kinds.count == model.entity(named: entity.rootName)!.kinds.count { return nil }
        let literals = kinds.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }
        return "\(SQLIdentifier.quote(entity.rootName)).\"_entity\" IN (\(literals.joined(separator: ", ")))"
    }
}

/// The prepared statement of a fetch shape (see ``FetchShape``), and whether its result is final: the rows in order,
/// paged, for the predicate exactly. A count's statement is nil when its predicate is not exact in SQL.
struct FetchPlan {
    let statement: Statement?
    let isFinal: Bool
}
