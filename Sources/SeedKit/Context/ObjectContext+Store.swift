import Foundation

/// How a context settles an object changed both in memory and in the store since it was fetched, property by
/// property.
public enum MergePolicy: Sendable, Hashable {
    /// Saving fails with a ``StoreError`` of kind `conflict`; merging keeps the unsaved values and the old row
    /// version, so the next save reports the conflict. The default.
    case rejectConflicts
    /// The store's value wins for each property changed in both; the others keep the in-memory change.
    case storeWins
    /// The in-memory value wins for each property changed in both; the others take the store's value.
    case inMemoryWins
}

extension ObjectContext {
    // MARK: Fetching

    /// Runs a fetch in SQL. The result is final when SQL did all of it; otherwise it is the candidates — stored rows
    /// matching the filters SQL can run, plus the changed and inserted objects — for the in-memory pass.
    func fetchFromStore(
        _ request: FetchRequest, entity: Entity, filters: [(Int, AttributeFilter)], sortKeys: [(Int, Bool)]
    ) throws -> (objects: [ManagedObject], isFinal: Bool) {
        let store = store!
        let table = store.schema.tables[entity.rootName]!
        var conditions: [String] = []
        var arguments: [AttributeValue?] = []
        if let condition = store.entityCondition(for: entity, includesSubentities: request.includesSubentities) {
            conditions.append(condition.sql)
            arguments += condition.arguments
        }
        var isFinal = !hasChanges
        for (index, filter) in filters {
            let attribute = entity.attributes[index]
            let column = "\(table.quoted).\(SQLIdentifier.quote(attribute.name))"
            if let condition = filter.sqlCondition(column: column, type: attribute.type) {
                conditions.append(condition.sql)
                arguments += condition.arguments
            } else {
                isFinal = false
            }
        }
        if sortKeys.contains(where: { !entity.attributes[$0.0].type.sortsInSQL }) { isFinal = false }
        var sql = conditions.isEmpty ? "" : "WHERE \(conditions.joined(separator: " AND "))"
        if isFinal {
            let order = sortKeys.map { "\(table.quoted).\(SQLIdentifier.quote(entity.attributes[$0.0].name)) \($0.1 ? "ASC" : "DESC")" }
            sql += " ORDER BY \((order + ["\(table.quoted).\"_id\""]).joined(separator: ", "))"
            if let limit = request.limit {
                sql += " LIMIT ?"
                arguments.append(.integer(Int64(max(0, limit))))
            }
        }
        if request.limit == nil, let count = try countInStore(request) {
            // Growing the registry row by row copies it again and again; one count is far cheaper for a big fetch.
            registered.table(named: table.name).reserve(count)
        }
        var objects = try fetchRows(store.selectSQL(table, sql), arguments, table: table)
        noteFaultSiblings(objects)
        if !isFinal {
            // Unsaved objects and values are candidates too; the in-memory pass decides.
            var seen = Set(objects.map(ObjectIdentifier.init))
            for object in insertedObjects + updatedObjects
            where object.entity.isKind(of: entity.rootName) && seen.insert(ObjectIdentifier(object)).inserted {
                objects.append(object)
            }
        }
        return (objects, isFinal)
    }

    /// The count of a request in SQL, or nil when it needs the in-memory pass.
    func countInStore(_ request: FetchRequest) throws -> Int? {
        guard let store, !hasChanges, let entity = model.entity(named: request.entityName) else { return nil }
        let table = store.schema.tables[entity.rootName]!
        var conditions: [String] = []
        var arguments: [AttributeValue?] = []
        if let condition = store.entityCondition(for: entity, includesSubentities: request.includesSubentities) {
            conditions.append(condition.sql)
            arguments += condition.arguments
        }
        for filter in request.filters {
            guard let index = entity.attributeIndex(named: filter.key) else { return nil }
            let attribute = entity.attributes[index]
            guard filter.value == nil || filter.value?.type == attribute.type,
                let condition = filter.sqlCondition(
                    column: "\(table.quoted).\(SQLIdentifier.quote(attribute.name))", type: attribute.type)
            else { return nil }
            conditions.append(condition.sql)
            arguments += condition.arguments
        }
        let sql = "SELECT count(*) FROM \(table.quoted)" + (conditions.isEmpty ? "" : " WHERE \(conditions.joined(separator: " AND "))")
        let statement = try store.connection.cachedStatement(sql: sql)
        defer { statement.reset() }
        for (offset, argument) in arguments.enumerated() { try statement.bind(attribute: argument, at: offset + 1) }
        _ = try statement.step()
        return min(statement.int(at: 0), request.limit ?? .max)
    }

    /// The objects of the rows `sql` selects from `table`, registering the new ones.
    ///
    /// - Complexity: O(*n*) in the number of rows, each an O(1) registry lookup plus decoding its values when new.
    func fetchRows(_ sql: String, _ arguments: [AttributeValue?], table: TableSchema) throws -> [ManagedObject] {
        let statement = try store!.connection.cachedStatement(sql: sql)
        defer { statement.reset() }
        for (offset, argument) in arguments.enumerated() { try statement.bind(attribute: argument, at: offset + 1) }
        let rows = registered.table(named: table.name)
        let deletedRowIDs = Set(deletedObjects.lazy.filter { $0.objectID.entityName == table.name }.map(\.objectID.number))
        var objects: [ManagedObject] = []
        var rowEntity = RowEntity()
        while try statement.step() {
            if let object = materialize(statement, table: table, rows: rows, deletedRowIDs: deletedRowIDs, entity: &rowEntity) {
                objects.append(object)
            }
        }
        return objects
    }

    /// The entity and layout of the rows being read, looked up again only when a row names another entity.
    ///
    /// A fetch's rows nearly always share one entity: comparing the name's bytes in SQLite's buffer costs far less
    /// than building a `String` and looking it up twice per row.
    private struct RowEntity {
        var name: [UInt8] = []
        var entity: Entity?
        var layout: EntityLayout?
        /// The faults of an object whose to-ones are all nil: shared, so such objects allocate no array of their own.
        var emptyFaults: [Int64] = []

        func hasName(_ bytes: UnsafeRawBufferPointer) -> Bool {
            name.withUnsafeBytes { name in
                name.count == bytes.count && (bytes.isEmpty || memcmp(name.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
            }
        }
    }

    /// The object of the current row: the registered one (with its unsaved changes) or a new one, registered in
    /// `rows`, the registry's table for `table`, with its relationships left as faults. Nil for a row this context has
    /// deleted.
    private func materialize(
        _ row: Statement, table: TableSchema, rows: RowTable, deletedRowIDs: Set<Int64>, entity cache: inout RowEntity
    ) -> ManagedObject? {
        let rowID = row.int64(at: 0)
        if let registered = rows[rowID] { return registered }
        guard deletedRowIDs.isEmpty || !deletedRowIDs.contains(rowID) else { return nil }
        let name = row.textBuffer(at: 1)
        if cache.entity == nil || !cache.hasName(name) {
            guard let entity = model.entity(named: String(decoding: name, as: UTF8.self)),
                let layout = store!.schema.layouts[entity.name]
            else { return nil }
            cache = RowEntity(name: Array(name), entity: entity, layout: layout)
            cache.emptyFaults = layout.relationshipColumns.map { $0 == nil ? 0 : -1 }
        }
        let entity = cache.entity!, layout = cache.layout!
        let object = instantiate(entity)
        object.objectID = ObjectID(entityName: table.name, number: rowID)
        object.rowVersion = row.int64(at: 2)
        let offset = StoreSchema.bookkeepingColumns.count
        // One access to the object's storage for all its values rather than one per value.
        object.attributeValues.withUnsafeMutableBufferPointer { values in
            for (index, attribute) in entity.attributes.enumerated() {
                values[index] = row.attribute(at: offset + layout.attributeColumns[index], as: attribute.type)
            }
        }
        if !entity.relationships.isEmpty {
            // To-manies are pending (0); a to-one keeps its destination's row id until it is read, and a missing one
            // is simply nil (-1, loaded).
            var faults = cache.emptyFaults
            for (index, column) in layout.relationshipColumns.enumerated() {
                if let column, !row.isNull(at: offset + column) { faults[index] = row.int64(at: offset + column) }
            }
            if faults.contains(where: { $0 != -1 }) { object.faults = faults }
        }
        rows[rowID] = object
        if let identity = object.identityValues { index(object, identity: identity) }
        return object
    }

    /// The object of a root entity's row, registered or read from the store; nil when the row is gone.
    func object(table name: String, rowID: Int64) throws -> ManagedObject? {
        if let registered = registered[ObjectID(entityName: name, number: rowID)] { return registered }
        let table = store!.schema.tables[name]!
        return try fetchRows(store!.selectSQL(table, "WHERE \(table.quoted).\"_id\" = ?"), [.integer(rowID)], table: table).first
    }

    // MARK: Faults

    /// Loads a relationship of a stored object: the to-one's destination row, or the to-many's rows in one query.
    ///
    /// A fault fires from a property read, which can't throw: when the query fails, the relationship reads as empty
    /// and stays a fault, to be loaded again on the next access.
    ///
    /// - Precondition: this is `object`'s context. An object of this context is registered or deleted: the paths that
    ///   unregister an object otherwise (saving its deletion, rolling back its insertion) take it out of the context,
    ///   so no registry lookup is needed here.
    func loadFault(of object: ManagedObject, relationship index: Int) {
        guard let store else {
            object.faults = []
            return
        }
        let pending = object.faults[index]
        // Loaded from here on: loading the members must not come back to this slot.
        object.faults[index] = -1
        // Most faults are to-ones (the only faults with a row id) whose destination is registered already.
        if pending > 0, let destination = foreignKeyDestinations(of: object.entity)[index]?[pending] {
            return settle(object, relationship: index, as: .toOne(destination))
        }
        let relationship = object.entity.relationships[index]
        let destination = model.entity(named: relationship.destination)!
        let table = store.schema.tables[destination.rootName]!
        let value: RelationshipValue
        do {
            switch store.schema.layouts[object.entity.name]!.relationships[index] {
            case .foreignKey:
                if pending <= 0 {
                    value = .toOne(nil)
                } else {
                    try loadDestinations(of: object, relationship: index, rowID: pending, table: table)
                    value = .toOne(try self.object(table: table.name, rowID: pending))
                }
            case .inverseForeignKey(_, let column, let positionColumn):
                let order = (positionColumn.map { ["\(table.quoted).\(SQLIdentifier.quote($0))"] } ?? []) + ["\(table.quoted).\"_id\""]
                let sql = store.selectSQL(
                    table, "WHERE \(table.quoted).\(SQLIdentifier.quote(column)) = ? ORDER BY \(order.joined(separator: ", "))")
                value = .toMany(Self.related(noteFaultSiblings(try fetchRows(sql, [.integer(object.objectID.number)], table: table))))
            case .join(let joinTable, let isOwner, let isOrdered):
                let join = SQLIdentifier.quote(joinTable)
                let (own, other) = isOwner ? ("source", "target") : ("target", "source")
                let order = (isOwner && isOrdered ? ["\(join).\"position\""] : []) + ["\(table.quoted).\"_id\""]
                let sql = store.selectSQL(
                    table,
                    "JOIN \(join) ON \(join).\"\(other)\" = \(table.quoted).\"_id\" WHERE \(join).\"\(own)\" = ? ORDER BY \(order.joined(separator: ", "))")
                value = .toMany(Self.related(noteFaultSiblings(try fetchRows(sql, [.integer(object.objectID.number)], table: table))))
            }
        } catch {
            object.faults[index] = pending
            return
        }
        settle(object, relationship: index, as: value)
    }

    /// Gives a relationship whose fault just fired its loaded value.
    private func settle(_ object: ManagedObject, relationship index: Int, as value: RelationshipValue) {
        object.relationshipValues[index] = value
        // The snapshot holds the saved state, which is what was just loaded.
        object.snapshot?.relationships[index] = value
        if object.faults.allSatisfy({ $0 == -1 }) { object.faults = [] }
    }

    /// The registry tables of an entity's to-one destinations stored as foreign keys, by relationship slot (nil for
    /// the other relationships).
    ///
    /// Faults fire in runs over one entity, so the tables of the last entity are kept: a fault then finds its
    /// destination without looking anything up by name.
    private func foreignKeyDestinations(of entity: Entity) -> [RowTable?] {
        if let last = lastFaultDestinations, last.entity === entity { return last.tables }
        let layout = store!.schema.layouts[entity.name]!
        let tables = entity.relationships.indices.map { index -> RowTable? in
            guard case .foreignKey = layout.relationships[index] else { return nil }
            return registered.table(named: model.entity(named: entity.relationships[index].destination)!.rootName)
        }
        lastFaultDestinations = (entity, tables)
        return tables
    }

    /// Keeps `objects`, just fetched together, as the ones whose to-one faults load their destinations together.
    @discardableResult
    private func noteFaultSiblings(_ objects: [ManagedObject]) -> [ManagedObject] {
        if objects.count > 1 {
            faultSiblings = objects
            faultSiblingsCursor = 0
        }
        return objects
    }

    /// Loads the destination `rowID` of a to-one fault of `object`, and with it the unregistered destinations of the
    /// same relationship pending in the objects fetched with it: one query per `destinationBatchSize` rows instead of
    /// one per object.
    ///
    /// The siblings are scanned from a cursor that only moves forward, so faults fired in fetch order cost O(1)
    /// each, amortized.
    ///
    ///     for item in try context.fetch(Item.self) { _ = item.tag }   // one query per 500 distinct tags
    ///
    /// - Complexity: O(*k*) for the *k* siblings scanned, plus one query per batch.
    private func loadDestinations(of object: ManagedObject, relationship index: Int, rowID: Int64, table: TableSchema) throws {
        var rowIDs: [Int64] = [rowID]
        var seen: Set<Int64> = [rowID]
        var position = faultSiblingsCursor
        let rows = registered.table(named: table.name)
        while rowIDs.count < Self.destinationBatchSize && position < faultSiblings.count {
            let sibling = faultSiblings[position]
            position += 1
            guard sibling.entity === object.entity, !sibling.faults.isEmpty, case let id = sibling.faults[index], id > 0,
                rows[id] == nil, seen.insert(id).inserted
            else { continue }
            rowIDs.append(id)
        }
        faultSiblingsCursor = position
        // One statement for any number of ids: they travel as one JSON array.
        let list = "[" + rowIDs.map(String.init).joined(separator: ",") + "]"
        _ = try fetchRows(
            store!.selectSQL(table, "WHERE \(table.quoted).\"_id\" IN (SELECT value FROM json_each(?))"), [.string(list)],
            table: table)
    }

    /// How many to-one destinations one fault loads at most.
    static let destinationBatchSize = 500

    private static func related(_ objects: [ManagedObject]) -> RelatedObjects {
        var related = RelatedObjects()
        for object in objects { related.append(object) }
        return related
    }

    // MARK: Identity

    /// The stored object of a tree with these identity values, when no registered object stands for its row.
    func storedObject(rootEntity: String, identity: [AttributeValue]) -> ManagedObject? {
        guard let store, let table = store.schema.tables[rootEntity], table.identity.count == identity.count,
            !table.identity.isEmpty
        else { return nil }
        let conditions = table.identity.map { "\(table.quoted).\(SQLIdentifier.quote($0)) = ?" }
        guard let statement = try? store.connection.cachedStatement(
            sql: "SELECT \"_id\" FROM \(table.quoted) WHERE \(conditions.joined(separator: " AND "))")
        else { return nil }
        var rowID: Int64?
        do {
            for (offset, value) in identity.enumerated() { try statement.bind(attribute: value, at: offset + 1) }
            if try statement.step() { rowID = statement.int64(at: 0) }
            statement.reset()
        } catch {
            return nil
        }
        // A registered object of that row has other identity values in memory now, or it would be in the index.
        guard let rowID, registered[ObjectID(entityName: rootEntity, number: rowID)] == nil else { return nil }
        return try? object(table: rootEntity, rowID: rowID)
    }
}
