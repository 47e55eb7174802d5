import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL

/// A context's change set, written as ``SQLiteStore`` writes it: the same row ids, row versions, conflicts and
/// to-many storage, so that a context behaves the same over either store.
extension PostgreSQLStore {
    // MARK: PersistentStore: saving

    /// Writes a change set in one transaction holding the store's advisory lock (``write(_:)``); inside a
    /// transaction the caller opened, in a savepoint of it, so that the caller's own rows commit with the objects.
    /// That transaction must hold the lock (``write(_:)`` takes it), since new row ids are chosen from the largest
    /// ones stored.
    ///
    /// Deletes go first, then updates, then inserts (one binary COPY per entity), then the positions and join rows
    /// of the changed to-manys (one statement per table): an identity freed by one object can be taken by another,
    /// and the references are deferred to the commit.
    ///
    /// - Throws: ``StoreError`` of kind `conflict`; ``PostgreSQLError`` for a failed statement (a duplicate
    ///   identity, a lock wait that timed out, a connection gone).
    /// - Complexity: O(*n*) statements for *n* updated or deleted objects; one COPY per inserted entity and one
    ///   statement per table of to-many members.
    package func save(_ changes: StoreChanges) throws -> StoreSaveResult {
        if connection.isInsideTransaction {
            return try connection.inSavepoint { try writeChanges(changes) }
        }
        return try write { try writeChanges(changes) }
    }

    private func writeChanges(_ changes: StoreChanges) throws -> StoreSaveResult {
        // The advisory lock is held, ours or the caller's: no other SeedKit writer can take these row ids.
        let (inserted, rowID) = try changes.newRowIDs { try largestRowID(root: $0) }
        var result = StoreSaveResult(rowIDs: inserted, versions: [], adoptions: [])
        for object in changes.deleted { try deleteRow(of: object, changes: changes) }
        for object in changes.updated {
            try changes.writeUpdate(of: object, rowID: rowID, result: &result, storedValues: storedValues) {
                try runUpdate(object, slots: $0, checkingVersion: $1, rowID: rowID)
            }
        }
        try insertRows(of: changes, rowIDs: result.rowIDs, rowIDOf: rowID)
        var members = MemberChanges()
        for object in changes.inserted { members.add(object, all: true, of: self, rowIDOf: rowID) }
        for object in changes.updated { members.add(object, all: false, of: self, rowIDOf: rowID) }
        try members.write(to: self)
        return result
    }

    /// Inserts the new objects' rows, one COPY per run of objects of one entity.
    private func insertRows(
        of changes: StoreChanges, rowIDs: [Int64], rowIDOf: (ManagedObject?) -> Int64?
    ) throws {
        let total = changes.inserted.count
        var written = 0
        var start = 0
        while start < total {
            let entity = changes.inserted[start].entity
            var batch = RowBatch(entity: entity)
            var end = start
            while end < total, changes.inserted[end].entity === entity {
                let object = changes.inserted[end]
                let targets = entity.relationships.indices.map { index in
                    entity.relationships[index].isToMany ? nil : rowIDOf(object.object(at: index))
                }
                // Positions are the owners' to write (``MemberChanges``), as for a stored member that moves.
                batch.append(
                    rowID: rowIDs[end], values: object.attributeValues, targets: targets,
                    positions: repeatElement(nil, count: entity.relationships.count))
                end += 1
            }
            try insert(batch)
            written += batch.count
            changes.insertionProgress?(written, total)
            start = end
        }
    }

    /// `UPDATE … SET <slots>, "_version" = "_version" + 1 WHERE "_id" = … [AND "_version" = …] RETURNING
    /// "_version"`: the new version, or nil when no row matched.
    private func runUpdate(
        _ object: ManagedObject, slots: [Int], checkingVersion: Bool, rowID: (ManagedObject?) -> Int64?
    ) throws -> Int64? {
        let entity = object.entity
        let table = schema.tables[entity.rootName]!
        let attributeCount = entity.attributes.count
        var assignments: [String] = []
        var arguments: [PostgreSQLValue] = []
        for slot in slots {
            if slot < attributeCount {
                let columns = table.physicalColumns(of: entity.attributes[slot].name)
                if let value = object.attributeValues[slot] {
                    value.postgreSQLArguments(into: &arguments)
                } else {
                    arguments += repeatElement(.null, count: columns.count)
                }
                for column in columns { assignments.append("\(quoted(column)) = $\(assignments.count + 1)") }
            } else {
                let index = slot - attributeCount
                arguments.append(rowID(object.object(at: index)).map(PostgreSQLValue.integer) ?? .null)
                assignments.append("\(quoted(entity.relationships[index].name)) = $\(assignments.count + 1)")
            }
        }
        arguments.append(.integer(object.objectID.number))
        // Every slot may have been settled to the stored value: the version moves on all the same.
        assignments.append("\"_version\" = \"_version\" + 1")
        var sql = "UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) "
            + "WHERE \"_id\" = $\(arguments.count)"
        if checkingVersion {
            arguments.append(.integer(object.rowVersion))
            sql += " AND \"_version\" = $\(arguments.count)"
        }
        let rows = try connection.cachedStatement(sql: sql + " RETURNING \"_version\"").query(arguments: arguments)
        return try rows.first?.int64(at: 0)
    }

    /// Deletes a stored object's row; under ``MergePolicy/rejectConflicts``, only at the version it was fetched at.
    private func deleteRow(of object: ManagedObject, changes: StoreChanges) throws {
        let table = schema.tables[object.entity.rootName]!
        let checks = changes.mergePolicy == .rejectConflicts
        var arguments: [PostgreSQLValue] = [.integer(object.objectID.number)]
        if checks { arguments.append(.integer(object.rowVersion)) }
        let deleted = try connection.cachedStatement(
            sql: "DELETE FROM \(quoted(table.name)) WHERE \"_id\" = $1" + (checks ? " AND \"_version\" = $2" : "")
        ).execute(arguments: arguments)
        if checks && deleted == 0, let stored = try storedValues(of: object) {
            throw changes.deletionConflict(object, stored: stored)
        }
    }
}

/// The to-many relationships of a save kept outside their owners' rows, gathered per table so that each table
/// takes one statement: members' positions in the destination, and join rows.
private struct MemberChanges {
    /// Per table and position column: each member's row id and its place.
    var positions: [String: (table: String, column: String, rowIDs: [Int64], places: [Int64])] = [:]
    /// Per join table: the members of new owners, and those of stored owners that replace what is stored.
    var joins: [String: (isOrdered: Bool, new: [(source: Int64, targets: [Int64])],
        replaced: [(source: Int64, targets: [Int64])])] = [:]

    /// Gathers the object's to-manys: all of them for a new object, the changed ones for a stored one.
    mutating func add(
        _ object: ManagedObject, all: Bool, of store: PostgreSQLStore, rowIDOf: (ManagedObject?) -> Int64?
    ) {
        let entity = object.entity
        for (index, storage) in store.schema.memberStorage[entity.name]!.enumerated() {
            guard let storage, all || object.changedSlots[entity.attributes.count + index] else { continue }
            switch storage {
            case .inverseColumn(_, positionColumn: nil), .join(_, isOwner: false, _):
                continue
            case .inverseColumn(_, let column?):
                let table = store.model.destination(of: entity.relationships[index]).rootName
                let members = object.objects(at: index)
                positions["\(table)\0\(column)", default: (table, column, [], [])].rowIDs
                    += members.map { rowIDOf($0)! }
                positions["\(table)\0\(column)"]!.places += members.indices.map(Int64.init)
            case .join(let table, isOwner: true, let isOrdered):
                let row = (source: rowIDOf(object)!, targets: object.objects(at: index).map { rowIDOf($0)! })
                if all {
                    joins[table, default: (isOrdered, [], [])].new.append(row)
                } else {
                    joins[table, default: (isOrdered, [], [])].replaced.append(row)
                }
            }
        }
    }

    func write(to store: PostgreSQLStore) throws {
        for key in positions.keys.sorted() {
            let (table, column, rowIDs, places) = positions[key]!
            try store.connection.cachedStatement(
                sql: "UPDATE \(quoted(table)) SET \(quoted(column)) = m.\"place\" "
                    + "FROM unnest($1::bigint[], $2::bigint[]) AS m(\"id\", \"place\") "
                    + "WHERE \(quoted(table)).\"_id\" = m.\"id\""
            ).execute(arguments: [
                .text(PostgreSQLStore.arrayLiteral(rowIDs)), .text(PostgreSQLStore.arrayLiteral(places)),
            ])
        }
        for table in joins.keys.sorted() {
            let (isOrdered, new, replaced) = joins[table]!
            if !replaced.isEmpty {
                try store.replaceJoinMembers(
                    table: table, members: replaced, isOrdered: isOrdered, sourcesAreNew: false)
            }
            if !new.isEmpty {
                try store.replaceJoinMembers(table: table, members: new, isOrdered: isOrdered, sourcesAreNew: true)
            }
        }
    }
}
