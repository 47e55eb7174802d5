import SeedKitModel
import SeedKitObjects

/// How a model is laid out in PostgreSQL: the same tables, columns and join tables as an SQLite store of the model,
/// typed for PostgreSQL.
///
/// A table per root entity with `_id` (the row id), `_entity` and `_version`, then a column per attribute and per
/// to-one of every entity of its tree; `<inverse>_position` in the destination for an ordered to-many whose inverse
/// is to-one; a join table `<Entity>_<relationship>` (`source`, `target`, `position`) for the others. Text is
/// `COLLATE "C"`, so identities compare and sort as exact bytes. A date is a `timestamptz` (microseconds) and a
/// `smallint` column `<name>_ns` beside it with the nanoseconds below them, so that dates round-trip exactly.
struct PostgreSQLSchema {
    var tables: [String: PostgreSQLTable]
    var joinTables: [String: StoreLayout.JoinTable]
    /// Per entity and relationship: where a to-many's members are.
    var memberStorage: [String: [MemberStorage?]]

    enum MemberStorage {
        /// A to-many whose inverse is to-one: the inverse's column in the destination's table.
        case inverseColumn(String, positionColumn: String?)
        /// A join table, from its source side when `isOwner`.
        case join(table: String, isOwner: Bool, isOrdered: Bool)
    }

    /// PostgreSQL truncates longer identifiers, which would make two names one.
    static let identifierLimit = 63

    /// Lays out `model` (see ``StoreLayout``) in PostgreSQL.
    ///
    /// - Throws: ``StoreError`` of kind `invalidSchema` for a name PostgreSQL can't keep as it is, or a column that two
    ///   entities of a tree declare with different types.
    init(model: EntityModel) throws {
        let layout = try StoreLayout(model: model)
        var tables: [String: PostgreSQLTable] = [:]
        for (root, table) in layout.tables {
            for name in [table.name] + table.columns.map(\.name) { try Self.checkIdentifier(name) }
            tables[root] = PostgreSQLTable(layout: table)
        }
        for name in layout.joinTables.keys { try Self.checkIdentifier(name) }
        self.tables = tables
        joinTables = layout.joinTables
        memberStorage = model.entities.reduce(into: [:]) { storage, entity in
            storage[entity.name] = entity.relationships.map { relationship -> MemberStorage? in
                switch model.linkStorage(of: relationship, in: entity) {
                case .sourceColumn:
                    nil
                case .memberColumn(let inverse, let isOrdered):
                    .inverseColumn(inverse, positionColumn: isOrdered ? StoreNames.positionColumn(inverse: inverse) : nil)
                case .joinTable(let name, let isOwner, _):
                    .join(table: name, isOwner: isOwner, isOrdered: relationship.isOrdered)
                }
            }
        }
    }

    private static func checkIdentifier(_ name: String) throws {
        guard !name.isEmpty, name.utf8.count + 3 <= identifierLimit, !name.utf8.contains(0) else {
            throw StoreError(
                .invalidSchema, keys: [name],
                "PostgreSQL keeps names of 1 to \(identifierLimit - 3) bytes here (with room for the _ns and index "
                    + "suffixes): shorten it")
        }
    }

    /// The statements that create the schema, indexes included, in an empty database.
    var creationSQL: [String] {
        let entityTables: [String] = tables.keys.sorted().map { tables[$0]!.creationSQL }
        let joins: [String] = joinTables.keys.sorted().map(Self.joinTableCreationSQL)
        return entityTables + joins + indexes.map(\.creationSQL) + foreignKeys.map(\.creationSQL)
    }

    static func joinTableCreationSQL(_ name: String) -> String {
        """
        CREATE TABLE \(quoted(name)) ("source" bigint NOT NULL, "target" bigint NOT NULL, "position" bigint, \
        PRIMARY KEY ("source", "target"))
        """
    }

    /// Every entity table's indexes (its identity's, then its foreign keys'), then the join tables' on `target`.
    var indexes: [PostgreSQLIndex] {
        tables.keys.sorted().flatMap { tables[$0]!.indexes }
            + joinTables.keys.sorted().map { PostgreSQLIndex(joinTables[$0]!.targetIndex) }
    }

    /// Every reference between tables: the entity tables' to-ones, then the join tables' two ends.
    var foreignKeys: [PostgreSQLForeignKey] {
        tables.keys.sorted().flatMap { tables[$0]!.foreignKeys }
            + joinTables.keys.sorted().flatMap { name in
                [
                    PostgreSQLForeignKey(table: name, column: "source", target: joinTables[name]!.source, deletes: true),
                    PostgreSQLForeignKey(table: name, column: "target", target: joinTables[name]!.target, deletes: true),
                ]
            }
    }
}

/// `"name"`, with quotes doubled.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// The table of a root entity, as PostgreSQL has it.
struct PostgreSQLTable {
    /// The table in every store's terms.
    let layout: StoreLayout.Table
    var name: String { layout.name }
    /// The columns after the bookkeeping ones, in the order added. A date is one here, two in the table.
    var columns: [StoreLayout.Column] { layout.columns }
    var columnIndex: [String: Int] { layout.columnIndex }
    var identity: [String] { layout.identity }

    static var bookkeepingColumns: [String] { StoreNames.bookkeepingColumns }

    /// The table's columns as PostgreSQL has them: a date's two for one.
    func physicalColumns(of name: String) -> [String] {
        Self.physicalColumns(of: columns[columnIndex[name]!])
    }

    /// A column's columns in a PostgreSQL table: the date's and its nanoseconds' for a date.
    static func physicalColumns(of column: StoreLayout.Column) -> [String] {
        guard case .attribute(.date) = column.kind else { return [column.name] }
        return [column.name, StoreNames.nanosecondsColumn(date: column.name)]
    }

    /// Every column of the table, in the order rows are read.
    var selectColumns: [String] {
        Self.bookkeepingColumns + columns.flatMap(Self.physicalColumns)
    }

    var selectList: String {
        selectColumns.map { "\(quoted(name)).\(quoted($0))" }.joined(separator: ", ")
    }

    var creationSQL: String {
        let definitions = [#""_id" bigint PRIMARY KEY"#, #""_entity" text COLLATE "C" NOT NULL"#, #""_version" bigint NOT NULL DEFAULT 1"#]
            + columns.flatMap(Self.definitions)
        return "CREATE TABLE \(quoted(name)) (\(definitions.joined(separator: ", ")))"
    }

    /// The definitions of a column's columns, in the order of ``physicalColumns(of:)-(StoreLayout.Column)``.
    static func definitions(of column: StoreLayout.Column) -> [String] {
        switch column.kind {
        case .attribute(let type):
            let value = "\(quoted(column.name)) \(type.postgreSQLType)"
            return type == .date ? [value, "\(quoted(StoreNames.nanosecondsColumn(date: column.name))) smallint"] : [value]
        case .foreignKey, .position:
            return ["\(quoted(column.name)) bigint"]
        }
    }

    /// The references of the table's to-ones, added once every table exists (they may point either way).
    var foreignKeys: [PostgreSQLForeignKey] {
        columns.compactMap { column in
            guard case .foreignKey(let target) = column.kind else { return nil }
            return PostgreSQLForeignKey(table: name, column: column.name, target: target, deletes: false)
        }
    }

    var indexes: [PostgreSQLIndex] {
        layout.indexes.map { PostgreSQLIndex($0, physicalColumns: physicalColumns) }
    }
}

/// An index of an entity table (the unique one of its identity, or one of a foreign key), or of a join table's targets.
struct PostgreSQLIndex {
    let name: String
    let table: String
    let columns: [String]
    let isIdentity: Bool

    var creationSQL: String {
        "CREATE \(isIdentity ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoted(name)) ON \(quoted(table)) (\(columns.map(quoted).joined(separator: ", ")))"
    }
}

extension PostgreSQLIndex {
    /// An index of the layout, over the table's columns for each of the layout's (a join table's are as they are).
    init(_ index: StoreLayout.Index, physicalColumns: (String) -> [String] = { [$0] }) {
        self.init(
            name: index.name, table: index.table, columns: index.columns.flatMap(physicalColumns), isIdentity: index.isIdentity)
    }
}

/// A reference from a column to the `_id` of a root table, as a named constraint that a bulk load drops and adds
/// again: added to full tables, it checks every row in one join rather than one look-up per row.
struct PostgreSQLForeignKey {
    let table: String
    let column: String
    let target: String
    /// Whether deleting the target deletes the row (a join row), rather than emptying the column (a to-one).
    let deletes: Bool

    var name: String { "\(table)_\(column)_fkey" }

    var creationSQL: String {
        // Deferred: rows go in any order and the references only need to hold at commit.
        "ALTER TABLE \(quoted(table)) ADD CONSTRAINT \(quoted(name)) FOREIGN KEY (\(quoted(column))) "
            + "REFERENCES \(quoted(target))(\"_id\") ON DELETE \(deletes ? "CASCADE" : "SET NULL") DEFERRABLE INITIALLY DEFERRED"
    }

    var dropSQL: String {
        "ALTER TABLE \(quoted(table)) DROP CONSTRAINT \(quoted(name))"
    }
}

extension AttributeType {
    /// The column type of the attribute's values: exact decimals, JSON as its canonical text.
    var postgreSQLType: String {
        switch self {
        case .string, .url: #"text COLLATE "C""#
        case .integer: "bigint"
        case .double: "double precision"
        case .bool: "boolean"
        case .decimal: "numeric"
        case .date: "timestamptz"
        case .data: "bytea"
        case .uuid: "uuid"
        case .json: "json"
        }
    }
}
