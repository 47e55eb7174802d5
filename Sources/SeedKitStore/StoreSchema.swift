import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

/// How a model is laid out in SQLite: one table per root entity, join tables, and where each property lives.
///
/// Every root entity gets a table named after it with three bookkeeping columns — `_id` (the row id, which is the
/// object's permanent ``ObjectID`` number), `_entity` (the concrete entity, for subentities) and `_version` (bumped by
/// every update, for conflict detection) — then a column per attribute and per to-one relationship of every entity of
/// its tree. An ordered to-many whose inverse is to-one keeps its order in a `<inverse>_position` column of the
/// destination. Many-to-many relationships, and to-many ones without an inverse, get a join table
/// `<Entity>_<relationship>` with `source`, `target` and `position`.
package struct StoreSchema {
    package var tables: [String: TableSchema]
    var joinTables: [String: JoinTableSchema]
    /// Per entity name: where its attributes and relationships are stored.
    var layouts: [String: EntityLayout]

    static var bookkeepingColumns: [String] { StoreNames.bookkeepingColumns }

    /// Lays out `model`.
    ///
    /// - Throws: ``StoreError`` of kind `invalidSchema` for a name that is not an SQL identifier or a column that two
    ///   entities of a tree declare with different types; `InvalidSQLIdentifierError` wrapped in its message.
    init(model: EntityModel) throws {
        var tables: [String: TableSchema] = [:]
        var joinTables: [String: JoinTableSchema] = [:]
        for root in model.entities where root.parentName == nil {
            var table = TableSchema(name: try Self.identifier(root.name), aliases: root.declaration.aliases)
            table.identity = root.identity
            // Every entity of the tree, parents before children, adds the columns of what it declares.
            let tree = root.kinds.compactMap(model.entity(named:)).sorted { $0.lineage.count < $1.lineage.count }
            for entity in tree {
                for attribute in entity.declaration.attributes {
                    try table.add(
                        ColumnSchema(
                            name: try Self.identifier(attribute.name), kind: .attribute(attribute.type),
                            aliases: attribute.aliases, attribute: attribute),
                        entity: entity.name)
                }
                for relationship in entity.declaration.relationships where !relationship.isToMany {
                    try table.add(
                        ColumnSchema(
                            name: try Self.identifier(relationship.name),
                            kind: .foreignKey(model.destination(of: relationship).rootName),
                            aliases: relationship.aliases, attribute: nil),
                        entity: entity.name)
                }
            }
            tables[root.name] = table
        }
        var layouts: [String: EntityLayout] = [:]
        for entity in model.entities {
            var storages: [RelationshipStorage] = []
            for relationship in entity.relationships {
                switch model.linkStorage(of: relationship, in: entity) {
                case .sourceColumn:
                    storages.append(.foreignKey(column: relationship.name))
                case .memberColumn(let inverse, let isOrdered):
                    let destination = model.destination(of: relationship)
                    var positionColumn: String?
                    if isOrdered {
                        let name = try Self.identifier(StoreNames.positionColumn(inverse: inverse))
                        positionColumn = name
                        try tables[destination.rootName]!.add(
                            ColumnSchema(name: name, kind: .position, aliases: [], attribute: nil),
                            entity: destination.name)
                    }
                    storages.append(.inverseForeignKey(table: destination.rootName, column: inverse, positionColumn: positionColumn))
                case .joinTable(let tableName, let isOwner, _):
                    let destination = model.destination(of: relationship)
                    let name = try Self.identifier(tableName)
                    let sourceTable = isOwner ? entity.rootName : destination.rootName
                    let targetTable = isOwner ? destination.rootName : entity.rootName
                    joinTables[name] = JoinTableSchema(name: name, sourceTable: sourceTable, targetTable: targetTable)
                    storages.append(.join(table: name, isOwner: isOwner, isOrdered: relationship.isOrdered))
                }
            }
            layouts[entity.name] = EntityLayout(relationships: storages)
        }
        for name in tables.keys {
            for entityName in model.entity(named: name)!.kinds {
                let entity = model.entity(named: entityName)!
                layouts[entityName]!.attributeColumns = entity.attributes.map { tables[name]!.columnIndex[$0.name]! }
                layouts[entityName]!.relationshipColumns = entity.relationships.map {
                    $0.isToMany ? nil : tables[name]!.columnIndex[$0.name]
                }
            }
        }
        self.tables = tables
        self.joinTables = joinTables
        self.layouts = layouts
    }

    private static func identifier(_ name: String) throws -> String {
        do {
            return try SQLIdentifier(validating: name).name
        } catch let error as InvalidSQLIdentifierError {
            throw StoreError(.invalidSchema, "\(error)")
        }
    }

    /// The statements that create the schema in an empty database.
    var creationSQL: [String] {
        tables.keys.sorted().flatMap { tables[$0]!.creationSQL } + joinTables.keys.sorted().flatMap { joinTables[$0]!.creationSQL }
    }
}

/// The table of a root entity.
package struct TableSchema {
    let name: String
    let aliases: [String]
    /// The columns after the bookkeeping ones, in the order they were added.
    private(set) var columns: [ColumnSchema] = []
    private(set) var columnIndex: [String: Int] = [:]
    /// The identity columns, from the root entity.
    var identity: [String] = []
    package let quoted: String
    /// Each column's qualified name (see ``column(_:)``), bookkeeping ones too: made once, as SQL is made per fetch.
    private var qualifiedColumns: [String: String] = [:]
    /// `"Employee"."_id", "Employee"."_entity", "Employee"."_version", "Employee"."name", ...`: the columns a row is
    /// read with, in order.
    private(set) var selectList = ""

    init(name: String, aliases: [String]) {
        self.name = name
        self.aliases = aliases
        self.quoted = SQLIdentifier.quote(name)
        for column in StoreSchema.bookkeepingColumns { addQualified(column) }
    }

    private mutating func addQualified(_ column: String) {
        let qualified = "\(quoted).\(SQLIdentifier.quote(column))"
        qualifiedColumns[column] = qualified
        selectList += selectList.isEmpty ? qualified : ", " + qualified
    }

    /// Adds a column, or checks an existing one of the same name agrees with it.
    mutating func add(_ column: ColumnSchema, entity: String) throws {
        if StoreSchema.bookkeepingColumns.contains(column.name) {
            throw StoreError(
                .invalidSchema, object: entity, keys: [column.name], "the name is reserved for the store's own columns")
        }
        if let index = columnIndex[column.name] {
            guard columns[index].kind == column.kind else {
                throw StoreError(
                    .invalidSchema, object: entity, keys: [column.name],
                    "another entity of the \(name) tree stores a different kind of value under this name")
            }
            return
        }
        columnIndex[column.name] = columns.count
        columns.append(column)
        addQualified(column.name)
    }

    /// A column of the table, qualified: `"Employee"."name"`.
    func column(_ name: String) -> String {
        qualifiedColumns[name] ?? "\(quoted).\(SQLIdentifier.quote(name))"
    }

    var creationSQL: [String] {
        let definitions = ["\"_id\" INTEGER PRIMARY KEY", "\"_entity\" TEXT NOT NULL", "\"_version\" INTEGER NOT NULL DEFAULT 1"]
            + columns.map(\.definition)
        var statements = ["CREATE TABLE \(quoted) (\(definitions.joined(separator: ", ")))"]
        statements += indexSQL
        return statements
    }

    /// The statements that create ``indexes``.
    var indexSQL: [String] {
        indexes.map(\.creationSQL)
    }

    /// The unique identity index and one index per foreign key, for loading to-many relationships.
    var indexes: [IndexSchema] {
        var indexes: [IndexSchema] = []
        if !identity.isEmpty {
            indexes.append(
                IndexSchema(name: StoreNames.identityIndex(table: name), table: name, columns: identity, isIdentity: true))
        }
        for column in columns where column.isForeignKey {
            indexes.append(
                IndexSchema(
                    name: StoreNames.foreignKeyIndex(table: name, column: column.name), table: name, columns: [column.name],
                    isIdentity: false))
        }
        return indexes
    }
}

/// An index of a root entity's table: the unique one of its identity, or one of a foreign key.
struct IndexSchema {
    let name: String
    let table: String
    let columns: [String]
    /// Whether it is the identity index, which is unique.
    let isIdentity: Bool

    var quoted: String { SQLIdentifier.quote(name) }

    var creationSQL: String {
        "CREATE \(isIdentity ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoted) ON \(SQLIdentifier.quote(table)) (\(columns.map(SQLIdentifier.quote).joined(separator: ", ")))"
    }
}

struct ColumnSchema {
    enum Kind: Hashable {
        case attribute(AttributeType)
        /// The row id of the destination, in the named root table.
        case foreignKey(String)
        /// The place of the row in an ordered to-many relationship.
        case position
    }

    let name: String
    let kind: Kind
    let aliases: [String]
    /// The attribute the column stores, for defaults and optionality in migrations.
    let attribute: AttributeDescription?

    var isForeignKey: Bool {
        if case .foreignKey = kind { return true }
        return false
    }

    /// The column's SQL type: what reads naturally in the `sqlite3` shell and sorts right.
    var sqlType: String {
        switch kind {
        case .attribute(let type):
            switch type {
            case .integer, .bool: "INTEGER"
            case .double: "REAL"
            case .data: "BLOB"
            // Decimals as their exact digits, dates as fixed-width ISO 8601, JSON as canonical text.
            case .string, .decimal, .date, .uuid, .url, .json: "TEXT"
            }
        case .foreignKey, .position: "INTEGER"
        }
    }

    var definition: String {
        var definition = "\(SQLIdentifier.quote(name)) \(sqlType)"
        if case .foreignKey(let table) = kind {
            // Deferred: a save writes rows in any order and the references only need to hold at commit.
            definition += " REFERENCES \(SQLIdentifier.quote(table))(\"_id\") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"
        }
        return definition
    }
}

/// A join table: a row per pair, `position` the target's place in an ordered source relationship.
package struct JoinTableSchema {
    let name: String
    let sourceTable: String
    let targetTable: String

    var quoted: String { SQLIdentifier.quote(name) }

    var creationSQL: [String] {
        let reference = "ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"
        return [
            """
            CREATE TABLE \(quoted) (\
            "source" INTEGER NOT NULL REFERENCES \(SQLIdentifier.quote(sourceTable))("_id") \(reference), \
            "target" INTEGER NOT NULL REFERENCES \(SQLIdentifier.quote(targetTable))("_id") \(reference), \
            "position" INTEGER, PRIMARY KEY ("source", "target")) WITHOUT ROWID
            """,
            "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quote(StoreNames.targetIndex(joinTable: name))) ON \(quoted) (\"target\")",
        ]
    }
}

/// Where one entity's properties live.
struct EntityLayout {
    var relationships: [RelationshipStorage]
    /// Per attribute: its column, counted after the bookkeeping columns.
    var attributeColumns: [Int] = []
    /// Per relationship: its foreign-key column for a to-one, counted after the bookkeeping columns.
    var relationshipColumns: [Int?] = []
}

enum RelationshipStorage {
    /// A to-one: a column of the entity's own table.
    case foreignKey(column: String)
    /// A to-many whose inverse is to-one: the inverse's column in the destination table.
    case inverseForeignKey(table: String, column: String, positionColumn: String?)
    /// A many-to-many, or a to-many without inverse: rows of a join table. The owner is its `source` side.
    case join(table: String, isOwner: Bool, isOrdered: Bool)
}
