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

    /// Lays out `model` (see ``StoreLayout``) in SQLite.
    ///
    /// - Throws: ``StoreError`` of kind `invalidSchema` for a name that is not an SQL identifier or a column that two
    ///   entities of a tree declare with different types; `InvalidSQLIdentifierError` wrapped in its message.
    init(model: EntityModel) throws {
        let layout = try StoreLayout(model: model)
        var tables: [String: TableSchema] = [:]
        for (root, table) in layout.tables {
            for name in [table.name] + table.columns.map(\.name) { _ = try Self.identifier(name) }
            tables[root] = TableSchema(layout: table)
        }
        var joinTables: [String: JoinTableSchema] = [:]
        for (name, table) in layout.joinTables {
            _ = try Self.identifier(name)
            joinTables[name] = JoinTableSchema(layout: table)
        }
        var layouts: [String: EntityLayout] = [:]
        for entity in model.entities {
            let storages = entity.relationships.map { relationship -> RelationshipStorage in
                switch model.linkStorage(of: relationship, in: entity) {
                case .sourceColumn:
                    return .foreignKey(column: relationship.name)
                case .memberColumn(let inverse, let isOrdered):
                    return .inverseForeignKey(
                        table: model.destination(of: relationship).rootName, column: inverse,
                        positionColumn: isOrdered ? StoreNames.positionColumn(inverse: inverse) : nil)
                case .joinTable(let name, let isOwner, _):
                    return .join(table: name, isOwner: isOwner, isOrdered: relationship.isOrdered)
                }
            }
            let table = tables[entity.rootName]!
            layouts[entity.name] = EntityLayout(
                relationships: storages, attributeColumns: entity.attributes.map { table.columnIndex[$0.name]! },
                relationshipColumns: entity.relationships.map { $0.isToMany ? nil : table.columnIndex[$0.name] },
                positionColumns: entity.relationships.map {
                    $0.isToMany ? nil : table.columnIndex[StoreNames.positionColumn(inverse: $0.name)]
                })
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

    /// Every index: each entity table's (its identity's, then its foreign keys'), then each join table's of targets.
    var indexes: [IndexSchema] {
        tables.keys.sorted().flatMap { tables[$0]!.indexes } + joinTables.keys.sorted().map { joinTables[$0]!.targetIndex }
    }

    /// The statements that create the schema in an empty database.
    var creationSQL: [String] {
        tables.keys.sorted().flatMap { tables[$0]!.creationSQL } + joinTables.keys.sorted().flatMap { joinTables[$0]!.creationSQL }
    }
}

/// The table of a root entity, as SQLite has it.
package struct TableSchema {
    /// The table in every store's terms.
    let layout: StoreLayout.Table
    var name: String { layout.name }
    var aliases: [String] { layout.aliases }
    /// The columns after the bookkeeping ones, in the order they were added.
    var columns: [ColumnSchema] { layout.columns }
    var columnIndex: [String: Int] { layout.columnIndex }
    /// The identity columns, from the root entity.
    var identity: [String] { layout.identity }
    package let quoted: String
    /// Each column's qualified name (see ``column(_:)``), bookkeeping ones too: made once, as SQL is made per fetch.
    private var qualifiedColumns: [String: String] = [:]
    /// `"Employee"."_id", "Employee"."_entity", "Employee"."_version", "Employee"."name", ...`: the columns a row is
    /// read with, in order.
    private(set) var selectList = ""

    init(layout: StoreLayout.Table) {
        self.layout = layout
        self.quoted = SQLIdentifier.quote(layout.name)
        for column in StoreSchema.bookkeepingColumns + layout.columns.map(\.name) {
            let qualified = "\(quoted).\(SQLIdentifier.quote(column))"
            qualifiedColumns[column] = qualified
            selectList += selectList.isEmpty ? qualified : ", " + qualified
        }
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
    var indexes: [IndexSchema] { layout.indexes }
}

/// An index of a root entity's table, as SQLite creates it.
typealias IndexSchema = StoreLayout.Index

extension StoreLayout.Index {
    var quoted: String { SQLIdentifier.quote(name) }

    var creationSQL: String {
        "CREATE \(isIdentity ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoted) ON \(SQLIdentifier.quote(table)) (\(columns.map(SQLIdentifier.quote).joined(separator: ", ")))"
    }
}

/// A column of a root entity's table, as SQLite types it.
typealias ColumnSchema = StoreLayout.Column

extension StoreLayout.Column {
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
    let layout: StoreLayout.JoinTable

    var name: String { layout.name }

    var targetIndex: IndexSchema { layout.targetIndex }

    var quoted: String { SQLIdentifier.quote(name) }

    var creationSQL: [String] {
        let reference = "ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"
        return [
            """
            CREATE TABLE \(quoted) (\
            "source" INTEGER NOT NULL REFERENCES \(SQLIdentifier.quote(layout.source))("_id") \(reference), \
            "target" INTEGER NOT NULL REFERENCES \(SQLIdentifier.quote(layout.target))("_id") \(reference), \
            "position" INTEGER, PRIMARY KEY ("source", "target")) WITHOUT ROWID
            """,
            targetIndex.creationSQL,
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
    /// Per relationship: for a to-one whose inverse is an ordered to-many, the column of its place in that list.
    var positionColumns: [Int?] = []
}

enum RelationshipStorage {
    /// A to-one: a column of the entity's own table.
    case foreignKey(column: String)
    /// A to-many whose inverse is to-one: the inverse's column in the destination table.
    case inverseForeignKey(table: String, column: String, positionColumn: String?)
    /// A many-to-many, or a to-many without inverse: rows of a join table. The owner is its `source` side.
    case join(table: String, isOwner: Bool, isOrdered: Bool)
}
