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
    var joinTables: [String: (source: String, target: String)]
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

    /// Lays out `model` as ``StoreSchema`` does for SQLite.
    ///
    /// - Throws: ``StoreError`` of kind `invalidSchema` for a name PostgreSQL can't keep as it is, or a column that two
    ///   entities of a tree declare with different types.
    init(model: EntityModel) throws {
        var tables: [String: PostgreSQLTable] = [:]
        var joinTables: [String: (source: String, target: String)] = [:]
        for root in model.entities where root.parentName == nil {
            var table = PostgreSQLTable(name: try Self.identifier(root.name))
            let tree = root.kinds.compactMap(model.entity(named:)).sorted { $0.lineage.count < $1.lineage.count }
            for entity in tree {
                for attribute in entity.declaration.attributes {
                    try table.add(try Self.identifier(attribute.name), .attribute(attribute.type), entity: entity.name)
                }
                for relationship in entity.declaration.relationships where !relationship.isToMany {
                    try table.add(
                        try Self.identifier(relationship.name), .foreignKey(model.destination(of: relationship).rootName),
                        entity: entity.name)
                }
            }
            table.identity = root.identity
            tables[root.name] = table
        }
        var memberStorage: [String: [MemberStorage?]] = [:]
        for entity in model.entities {
            memberStorage[entity.name] = try entity.relationships.map { relationship -> MemberStorage? in
                switch model.linkStorage(of: relationship, in: entity) {
                case .sourceColumn:
                    return nil
                case .memberColumn(let inverse, let isOrdered):
                    let destination = model.destination(of: relationship)
                    guard isOrdered else { return .inverseColumn(inverse, positionColumn: nil) }
                    let position = try Self.identifier(StoreNames.positionColumn(inverse: inverse))
                    try tables[destination.rootName]!.add(position, .position, entity: destination.name)
                    return .inverseColumn(inverse, positionColumn: position)
                case .joinTable(let name, let isOwner, _):
                    let destination = model.destination(of: relationship).rootName
                    let table = try Self.identifier(name)
                    joinTables[table] = isOwner ? (entity.rootName, destination) : (destination, entity.rootName)
                    return .join(table: table, isOwner: isOwner, isOrdered: relationship.isOrdered)
                }
            }
        }
        self.tables = tables
        self.joinTables = joinTables
        self.memberStorage = memberStorage
    }

    private static func identifier(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count + 3 <= identifierLimit, !name.utf8.contains(0) else {
            throw StoreError(
                .invalidSchema, keys: [name],
                "PostgreSQL keeps names of 1 to \(identifierLimit - 3) bytes here (with room for the _ns and index "
                    + "suffixes): shorten it")
        }
        return name
    }

    /// The statements that create the schema, indexes included, in an empty database.
    var creationSQL: [String] {
        let entityTables: [String] = tables.keys.sorted().map { tables[$0]!.creationSQL }
        let joins: [String] = joinTables.keys.sorted().map { name in
            """
            CREATE TABLE \(quoted(name)) ("source" bigint NOT NULL, "target" bigint NOT NULL, "position" bigint, \
            PRIMARY KEY ("source", "target"))
            """
        }
        return entityTables + joins + indexes.map(\.creationSQL) + foreignKeys.map(\.creationSQL)
    }

    /// Every entity table's indexes (its identity's, then its foreign keys'), then the join tables' on `target`.
    var indexes: [PostgreSQLIndex] {
        tables.keys.sorted().flatMap { tables[$0]!.indexes }
            + joinTables.keys.sorted().map {
                PostgreSQLIndex(name: StoreNames.targetIndex(joinTable: $0), table: $0, columns: ["target"], isIdentity: false)
            }
    }

    /// Every reference between tables: the entity tables' to-ones, then the join tables' two ends.
    var foreignKeys: [PostgreSQLForeignKey] {
        tables.keys.sorted().flatMap { tables[$0]!.foreignKeys }
            + joinTables.keys.sorted().flatMap { name in
                let (source, target) = joinTables[name]!
                return [
                    PostgreSQLForeignKey(table: name, column: "source", target: source, deletes: true),
                    PostgreSQLForeignKey(table: name, column: "target", target: target, deletes: true),
                ]
            }
    }
}

/// `"name"`, with quotes doubled.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// The table of a root entity.
struct PostgreSQLTable {
    enum Kind: Hashable {
        case attribute(AttributeType)
        /// The row id of a row of the named root table.
        case foreignKey(String)
        case position
    }

    let name: String
    /// The columns after the bookkeeping ones, by name, in the order added. A date is one here, two in the table.
    private(set) var columns: [(name: String, kind: Kind)] = []
    private(set) var columnIndex: [String: Int] = [:]
    var identity: [String] = []

    static var bookkeepingColumns: [String] { StoreNames.bookkeepingColumns }

    init(name: String) {
        self.name = name
    }

    mutating func add(_ name: String, _ kind: Kind, entity: String) throws {
        if Self.bookkeepingColumns.contains(name) {
            throw StoreError(.invalidSchema, object: entity, keys: [name], "the name is reserved for the store's own columns")
        }
        if let index = columnIndex[name] {
            guard columns[index].kind == kind else {
                throw StoreError(
                    .invalidSchema, object: entity, keys: [name],
                    "another entity of the \(self.name) tree stores a different kind of value under this name")
            }
            return
        }
        columnIndex[name] = columns.count
        columns.append((name, kind))
    }

    /// The table's columns as PostgreSQL has them: a date's two for one.
    func physicalColumns(of name: String) -> [String] {
        guard case .attribute(.date) = columns[columnIndex[name]!].kind else { return [name] }
        return [name, "\(name)_ns"]
    }

    /// Every column of the table, in the order rows are read.
    var selectColumns: [String] {
        Self.bookkeepingColumns + columns.flatMap { physicalColumns(of: $0.name) }
    }

    var selectList: String {
        selectColumns.map { "\(quoted(name)).\(quoted($0))" }.joined(separator: ", ")
    }

    var creationSQL: String {
        var definitions = [#""_id" bigint PRIMARY KEY"#, #""_entity" text COLLATE "C" NOT NULL"#, #""_version" bigint NOT NULL DEFAULT 1"#]
        for (column, kind) in columns {
            switch kind {
            case .attribute(let type):
                definitions.append("\(quoted(column)) \(type.postgreSQLType)")
                if type == .date { definitions.append("\(quoted("\(column)_ns")) smallint") }
            case .foreignKey, .position:
                definitions.append("\(quoted(column)) bigint")
            }
        }
        return "CREATE TABLE \(quoted(name)) (\(definitions.joined(separator: ", ")))"
    }

    /// The references of the table's to-ones, added once every table exists (they may point either way).
    var foreignKeys: [PostgreSQLForeignKey] {
        columns.compactMap { column, kind in
            guard case .foreignKey(let target) = kind else { return nil }
            return PostgreSQLForeignKey(table: name, column: column, target: target, deletes: false)
        }
    }

    var indexes: [PostgreSQLIndex] {
        var indexes: [PostgreSQLIndex] = []
        if !identity.isEmpty {
            indexes.append(
                PostgreSQLIndex(
                    name: StoreNames.identityIndex(table: name), table: name, columns: identity.flatMap(physicalColumns),
                    isIdentity: true))
        }
        for (column, kind) in columns {
            if case .foreignKey = kind {
                indexes.append(
                    PostgreSQLIndex(
                        name: StoreNames.foreignKeyIndex(table: name, column: column), table: name, columns: [column],
                        isIdentity: false))
            }
        }
        return indexes
    }
}

/// An index of an entity table: the unique one of its identity, or one of a foreign key.
struct PostgreSQLIndex {
    let name: String
    let table: String
    let columns: [String]
    let isIdentity: Bool

    var creationSQL: String {
        "CREATE \(isIdentity ? "UNIQUE " : "")INDEX \(quoted(name)) ON \(quoted(table)) (\(columns.map(quoted).joined(separator: ", ")))"
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
