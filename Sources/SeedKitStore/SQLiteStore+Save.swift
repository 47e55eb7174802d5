import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

extension SQLiteStore {
    // MARK: PersistentStore: saving

    /// Writes a change set in one `BEGIN IMMEDIATE` transaction; inside a transaction the caller opened, in a
    /// savepoint of it, so that the caller's own rows commit with the objects (the seeder's ledger does). That
    /// transaction must hold the write lock (`BEGIN IMMEDIATE`, as ``write(_:)`` opens), since new row ids are chosen
    /// from the largest ones stored.
    ///
    /// Deletes go first, then updates, then inserts: an identity freed by one object can be taken by another.
    ///
    /// - Throws: ``StoreError`` of kind `conflict`; ``DatabaseError`` for a failed statement (a UNIQUE identity, a
    ///   busy store).
    /// - Complexity: O(*n*) statements for *n* changed objects, plus one per member of each changed to-many that
    ///   keeps positions or a join table.
    package func save(_ changes: StoreChanges) throws -> StoreSaveResult {
        var result = StoreSaveResult(rowIDs: [], versions: [], adoptions: [])
        func write() throws {
            // The write lock is held from BEGIN IMMEDIATE, ours or the caller's: nobody else can take these row ids.
            let (inserted, rowID) = try changes.newRowIDs { try largestRowID(in: $0) }
            result.rowIDs = inserted
            for object in changes.deleted { try deleteRow(of: object, changes: changes) }
            for object in changes.updated {
                let table = schema.tables[object.entity.rootName]!
                try changes.writeUpdate(of: object, rowID: rowID, result: &result, storedValues: storedValues) {
                    try runUpdate(object, slots: $0, table: table, checkingVersion: $1, rowID: rowID)
                }
            }
            // One statement per entity, looked up once: finding a cached statement by its text hashes the text.
            var insertStatements: [ObjectIdentifier: Statement] = [:]
            for (written, object) in changes.inserted.enumerated() {
                if written % 1024 == 0 { changes.insertionProgress?(written, changes.inserted.count) }
                let entity = object.entity
                let statement = try insertStatements[ObjectIdentifier(entity)]
                    ?? connection.cachedStatement(sql: insertSQL(for: entity))
                insertStatements[ObjectIdentifier(entity)] = statement
                try insertRow(of: object, rowID: result.rowIDs[written], with: statement, rowIDOf: rowID)
            }
            for object in changes.inserted { try writeToMany(of: object, all: true, rowIDOf: rowID) }
            if !changes.inserted.isEmpty { changes.insertionProgress?(changes.inserted.count, changes.inserted.count) }
            for object in changes.updated { try writeToMany(of: object, all: false, rowIDOf: rowID) }
        }
        if connection.isInsideTransaction {
            try connection.inSavepoint(write)
        } else {
            try connection.inTransaction(.immediate, write)
        }
        return result
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
            try statement.bind(rowIDOf(object.object(at: index)), at: parameter)
            parameter += 1
        }
        try statement.execute()
    }

    private func runUpdate(
        _ object: ManagedObject, slots: [Int], table: TableSchema, checkingVersion: Bool,
        rowID: (ManagedObject?) -> Int64?
    ) throws -> Int64? {
        let entity = object.entity
        let assignments = slots.map { "\(SQLIdentifier.quote(entity.propertyName(slot: $0))) = ?" }
            + ["\"_version\" = \"_version\" + 1"]
        let sql = "UPDATE \(table.quoted) SET \(assignments.joined(separator: ", ")) WHERE \"_id\" = ?"
            + (checkingVersion ? " AND \"_version\" = ?" : "") + " RETURNING \"_version\""
        let statement = try connection.cachedStatement(sql: sql)
        defer { statement.reset() }
        var parameter = 1
        for slot in slots {
            if slot < entity.attributes.count {
                try statement.bind(attribute: object.attributeValues[slot], at: parameter)
            } else {
                try statement.bind(rowID(object.object(at: slot - entity.attributes.count)), at: parameter)
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

    private func deleteRow(of object: ManagedObject, changes: StoreChanges) throws {
        let table = schema.tables[object.entity.rootName]!
        let checks = changes.mergePolicy == .rejectConflicts
        let statement = try connection.cachedStatement(
            sql: "DELETE FROM \(table.quoted) WHERE \"_id\" = ?" + (checks ? " AND \"_version\" = ?" : ""))
        var arguments: [SQLiteValue] = [.integer(object.objectID.number)]
        if checks { arguments.append(.integer(object.rowVersion)) }
        try statement.execute(arguments: arguments)
        if checks && connection.changesCount == 0, let stored = try storedValues(of: object) {
            throw changes.deletionConflict(object, stored: stored)
        }
    }

    /// Writes the to-many relationships kept outside the object's row: positions in the destination and join rows.
    private func writeToMany(of object: ManagedObject, all: Bool, rowIDOf: (ManagedObject?) -> Int64?) throws {
        let entity = object.entity
        let layout = schema.layouts[entity.name]!
        for (index, relationship) in entity.relationships.enumerated() where relationship.isToMany {
            guard all || object.changedSlots[entity.attributes.count + index] else { continue }
            switch layout.relationships[index] {
            case .foreignKey, .join(_, isOwner: false, _), .inverseForeignKey(_, _, positionColumn: nil):
                continue
            case .inverseForeignKey(let table, _, let positionColumn?):
                let update = try connection.cachedStatement(
                    sql: "UPDATE \(SQLIdentifier.quote(table)) SET \(SQLIdentifier.quote(positionColumn)) = ? "
                        + "WHERE \"_id\" = ?")
                for (position, member) in object.objects(at: index).enumerated() {
                    try update.execute(arguments: [.integer(Int64(position)), .integer(rowIDOf(member)!)])
                }
            case .join(let table, isOwner: true, let isOrdered):
                let join = SQLIdentifier.quote(table)
                let source = rowIDOf(object)!
                if !all {
                    try connection.cachedStatement(sql: "DELETE FROM \(join) WHERE \"source\" = ?")
                        .execute(arguments: [.integer(source)])
                }
                let insert = try connection.cachedStatement(
                    sql: "INSERT INTO \(join) (\"source\", \"target\", \"position\") VALUES (?, ?, ?)")
                for (position, member) in object.objects(at: index).enumerated() {
                    try insert.execute(arguments: [
                        .integer(source), .integer(rowIDOf(member)!), isOrdered ? .integer(Int64(position)) : .null,
                    ])
                }
            }
        }
    }

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
    package func insertSQL(for entity: Entity, rowCount: Int) -> String {
        let columns = entity.attributes.map(\.name) + entity.relationships.filter { !$0.isToMany }.map(\.name)
        let names = ["_id", "_entity", "_version"] + columns
        let values = "(" + (["?", "?", "1"] + columns.map { _ in "?" }).joined(separator: ", ") + ")"
        return "INSERT INTO \(SQLIdentifier.quote(entity.rootName)) "
            + "(\(names.map(SQLIdentifier.quote).joined(separator: ", "))) "
            + "VALUES \(repeatElement(values, count: rowCount).joined(separator: ", "))"
    }
}
