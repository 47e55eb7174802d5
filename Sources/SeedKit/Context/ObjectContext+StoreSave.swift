extension ObjectContext {
    /// Writes every unsaved change to the store in one `BEGIN IMMEDIATE` transaction, then gives inserted objects
    /// their permanent ids and every written object its new row version.
    ///
    /// Nothing in the context changes when it throws: the transaction is rolled back and the changes stay unsaved.
    ///
    /// When the connection is already inside a transaction the caller opened, the save joins it through a savepoint
    /// instead, so the caller can write its own rows atomically with the objects (the seeder's ledger does). That
    /// transaction must hold the write lock (`BEGIN IMMEDIATE`), since new row ids are chosen from the largest ones
    /// stored. The context takes the save as done when the savepoint is released: a caller that later rolls the
    /// outer transaction back must discard the context.
    ///
    /// - Throws: ``StoreError`` of kind `conflict` for a row changed in the store since it was fetched, when the
    ///   merge policy doesn't settle it; ``DatabaseError`` for a failed statement (a UNIQUE identity, a busy store).
    /// - Complexity: O(*n*) statements for *n* changed objects, plus one per member of each changed to-many that
    ///   keeps positions or a join table.
    func persistChanges() throws {
        guard let store, hasChanges else { return }
        let connection = store.connection
        let inserted = insertedObjects, updated = updatedObjects, deleted = deletedObjects
        var newRowIDs: [ObjectIdentifier: Int64] = [:]
        var versions: [(ManagedObject, Int64)] = []
        var adoptions: [(ManagedObject, Int, AttributeValue?)] = []
        func write() throws {
            // The write lock is held from BEGIN IMMEDIATE, ours or the caller's: nobody else can take these row ids.
            var nextRowID: [String: Int64] = [:]
            for object in inserted {
                let table = object.entity.rootName
                let rowID = try nextRowID[table] ?? (store.largestRowID(in: table) + 1)
                newRowIDs[ObjectIdentifier(object)] = rowID
                nextRowID[table] = rowID + 1
            }
            func rowID(_ object: ManagedObject?) -> Int64? {
                guard let object else { return nil }
                return newRowIDs[ObjectIdentifier(object)] ?? object.objectID.number
            }
            // Deletes, updates, inserts: freeing an identity before another object takes it.
            for object in deleted { try deleteRow(of: object, store: store) }
            for object in updated {
                if let version = try updateRow(of: object, store: store, rowID: rowID, adoptions: &adoptions) {
                    versions.append((object, version))
                }
            }
            // One statement per entity, looked up once: finding a cached statement by its text hashes the text.
            var insertStatements: [ObjectIdentifier: Statement] = [:]
            for (written, object) in inserted.enumerated() {
                if written % 1024 == 0 { insertionProgress?(written, inserted.count) }
                let entity = object.entity
                let statement = try insertStatements[ObjectIdentifier(entity)]
                    ?? store.connection.cachedStatement(sql: store.insertSQL(for: entity))
                insertStatements[ObjectIdentifier(entity)] = statement
                try insertRow(of: object, rowID: rowID(object)!, with: statement, rowIDOf: rowID)
            }
            for object in inserted { try writeToMany(of: object, all: true, store: store, rowIDOf: rowID) }
            if !inserted.isEmpty { insertionProgress?(inserted.count, inserted.count) }
            for object in updated { try writeToMany(of: object, all: false, store: store, rowIDOf: rowID) }
        }
        if connection.isInsideTransaction {
            try connection.inSavepoint(write)
        } else {
            try connection.inTransaction(.immediate, write)
        }
        for object in inserted {
            registered[object.objectID] = nil
            object.objectID = ObjectID(entityName: object.entity.rootName, number: newRowIDs[ObjectIdentifier(object)]!)
            object.rowVersion = 1
            registered[object.objectID] = object
        }
        for (object, version) in versions { object.rowVersion = version }
        for (object, index, value) in adoptions {
            let oldIdentity = object.identityValues
            object.attributeValues[index] = value
            if object.entity.identityIndices.contains(index) { identityDidChange(object, from: oldIdentity) }
        }
    }

    /// Inserts the object's row with its entity's insert statement, binding every parameter.
    private func insertRow(
        of object: ManagedObject, rowID: Int64, with statement: Statement, rowIDOf: (ManagedObject?) -> Int64?
    ) throws {
        let entity = object.entity
        try statement.bind(rowID, at: 1)
        try statement.bind(entity.name, at: 2)
        var parameter = 3
        for value in object.attributeValues {
            try statement.bind(attribute: value, at: parameter)
            parameter += 1
        }
        for (index, relationship) in entity.relationships.enumerated() where !relationship.isToMany {
            if let target = rowIDOf(object.object(at: index)) {
                try statement.bind(target, at: parameter)
            } else {
                try statement.bindNull(at: parameter)
            }
            parameter += 1
        }
        try statement.execute()
    }

    /// Updates the changed columns of a saved object, checking its row version; returns the new version, or nil
    /// when no column changed.
    private func updateRow(
        of object: ManagedObject, store: SQLiteStore, rowID: (ManagedObject?) -> Int64?,
        adoptions: inout [(ManagedObject, Int, AttributeValue?)]
    ) throws -> Int64? {
        let entity = object.entity
        let attributeCount = entity.attributes.count
        // Changed columns by slot: attributes, then to-one relationships.
        var slots = object.changedSlots.indices.filter { slot in
            object.changedSlots[slot] && (slot < attributeCount || !entity.relationships[slot - attributeCount].isToMany)
        }
        guard !slots.isEmpty else { return nil }
        let table = store.schema.tables[entity.rootName]!
        if let version = try runUpdate(object, slots: slots, table: table, checkingVersion: true, store: store, rowID: rowID) {
            return version
        }
        // The row changed or went since the object was fetched.
        let stored = try fetchStoredValues(of: object, store: store)
        guard let stored else {
            throw StoreError(
                .conflict, object: object.description, keys: object.changedKeys.sorted(),
                "the row was deleted from the store since the object was fetched")
        }
        let changedInStore = slots.filter { slot in
            guard slot < attributeCount else {
                return stored.foreignKeys[slot - attributeCount] != rowID(object.snapshotObject(at: slot - attributeCount))
            }
            return stored.attributes[slot] != object.snapshot?.attributes[slot]
        }
        switch mergePolicy {
        case .rejectConflicts:
            let keys = changedInStore.isEmpty ? object.changedKeys.sorted() : changedInStore.map { entity.propertyName(slot: $0) }
            throw StoreError(
                .conflict, object: object.description, keys: keys,
                "the row changed in the store since it was fetched (version \(stored.version), fetched at \(object.rowVersion))")
        case .inMemoryWins:
            break
        case .storeWins:
            for slot in changedInStore where slot < attributeCount {
                adoptions.append((object, slot, stored.attributes[slot]))
            }
            // Relationships keep their in-memory value: adopting a stored one would have to relink inverses.
            slots.removeAll { $0 < attributeCount && changedInStore.contains($0) }
        }
        return try runUpdate(object, slots: slots, table: table, checkingVersion: false, store: store, rowID: rowID)
    }

    private func runUpdate(
        _ object: ManagedObject, slots: [Int], table: TableSchema, checkingVersion: Bool, store: SQLiteStore,
        rowID: (ManagedObject?) -> Int64?
    ) throws -> Int64? {
        let entity = object.entity
        let assignments = slots.map { "\(SQLIdentifier.quote(entity.propertyName(slot: $0))) = ?" } + ["\"_version\" = \"_version\" + 1"]
        let sql = "UPDATE \(table.quoted) SET \(assignments.joined(separator: ", ")) WHERE \"_id\" = ?"
            + (checkingVersion ? " AND \"_version\" = ?" : "") + " RETURNING \"_version\""
        let statement = try store.connection.cachedStatement(sql: sql)
        defer { statement.reset() }
        var parameter = 1
        for slot in slots {
            if slot < entity.attributes.count {
                try statement.bind(attribute: object.attributeValues[slot], at: parameter)
            } else if let target = rowID(object.object(at: slot - entity.attributes.count)) {
                try statement.bind(target, at: parameter)
            } else {
                try statement.bindNull(at: parameter)
            }
            parameter += 1
        }
        try statement.bind(object.objectID.number, at: parameter)
        if checkingVersion { try statement.bind(object.rowVersion, at: parameter + 1) }
        guard try statement.step() else { return nil }
        let version = statement.int64(at: 0)
        while try statement.step() {}
        return version
    }

    private func deleteRow(of object: ManagedObject, store: SQLiteStore) throws {
        let table = store.schema.tables[object.entity.rootName]!
        let checks = mergePolicy == .rejectConflicts
        let statement = try store.connection.cachedStatement(
            sql: "DELETE FROM \(table.quoted) WHERE \"_id\" = ?" + (checks ? " AND \"_version\" = ?" : ""))
        var arguments: [SQLiteValue] = [.integer(object.objectID.number)]
        if checks { arguments.append(.integer(object.rowVersion)) }
        try statement.execute(arguments: arguments)
        if checks && store.connection.changesCount == 0, let stored = try fetchStoredValues(of: object, store: store) {
            throw StoreError(
                .conflict, object: object.description,
                "cannot delete: the row changed in the store since it was fetched (version \(stored.version), fetched at \(object.rowVersion))")
        }
    }

    /// Writes the to-many relationships kept outside the object's row: positions in the destination and join rows.
    private func writeToMany(
        of object: ManagedObject, all: Bool, store: SQLiteStore, rowIDOf: (ManagedObject?) -> Int64?
    ) throws {
        let entity = object.entity
        let layout = store.schema.layouts[entity.name]!
        for (index, relationship) in entity.relationships.enumerated() where relationship.isToMany {
            guard all || object.changedSlots[entity.attributes.count + index] else { continue }
            switch layout.relationships[index] {
            case .foreignKey, .join(_, isOwner: false, _), .inverseForeignKey(_, _, positionColumn: nil):
                continue
            case .inverseForeignKey(let table, _, let positionColumn?):
                let update = try store.connection.cachedStatement(
                    sql: "UPDATE \(SQLIdentifier.quote(table)) SET \(SQLIdentifier.quote(positionColumn)) = ? WHERE \"_id\" = ?")
                for (position, member) in object.objects(at: index).enumerated() {
                    try update.execute(arguments: [.integer(Int64(position)), .integer(rowIDOf(member)!)])
                }
            case .join(let table, isOwner: true, let isOrdered):
                let join = SQLIdentifier.quote(table)
                let source = rowIDOf(object)!
                if !all {
                    try store.connection.cachedStatement(sql: "DELETE FROM \(join) WHERE \"source\" = ?")
                        .execute(arguments: [.integer(source)])
                }
                let insert = try store.connection.cachedStatement(
                    sql: "INSERT INTO \(join) (\"source\", \"target\", \"position\") VALUES (?, ?, ?)")
                for (position, member) in object.objects(at: index).enumerated() {
                    try insert.execute(arguments: [
                        .integer(source), .integer(rowIDOf(member)!), isOrdered ? .integer(Int64(position)) : .null,
                    ])
                }
            }
        }
    }

    /// The object's row as stored now, or nil when it is gone.
    func fetchStoredValues(of object: ManagedObject, store: SQLiteStore) throws -> StoredValues? {
        let table = store.schema.tables[object.entity.rootName]!
        let layout = store.schema.layouts[object.entity.name]!
        let statement = try store.connection.cachedStatement(sql: store.selectSQL(table, "WHERE \"_id\" = ?"))
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
}

/// A row's values as the store holds them.
struct StoredValues {
    var version: Int64
    var attributes: [AttributeValue?]
    /// Per relationship: the destination row id of a to-one; nil for none and for to-many.
    var foreignKeys: [Int64?]
}

extension Entity {
    /// The name of the property at a change slot: attributes, then relationships.
    func propertyName(slot: Int) -> String {
        slot < attributes.count ? attributes[slot].name : relationships[slot - attributes.count].name
    }
}

extension ManagedObject {
    /// The object a to-one relationship pointed to at the last save.
    func snapshotObject(at index: Int) -> ManagedObject? {
        guard case .toOne(let target)? = snapshot?.relationships[index] else { return nil }
        return target
    }
}
