import SeedKitModel

/// How every store lays out a model, in the model's terms: a table per root entity with its columns and indexes, and
/// join tables. Each store types the columns in its own SQL (``SQLiteStore``'s `StoreSchema`, the PostgreSQL store's
/// schema); migrations are decided on layouts (``SchemaMigration``), so they are the same on every store.
///
///     let layout = try StoreLayout(model: model)
///     layout.tables["Employee"]!.columns.map(\.name)    // ["name", "email", "hired", "department", "level", …]
///
/// A root entity's table is named after it and has, after the store's bookkeeping columns
/// (``StoreNames/bookkeepingColumns``), a column per attribute and per to-one of every entity of its tree, parents
/// before children; then `<inverse>_position` for each ordered to-many whose inverse is a to-one of the tree. A
/// many-to-many, or a to-many without inverse, has a join table named as ``EntityModel/linkStorage(of:in:)`` says.
///
/// - Complexity: O(*n*) in the number of entities and properties.
package struct StoreLayout {
    /// The tables of the root entities, by entity name.
    package var tables: [String: Table] = [:]
    /// The join tables, by name.
    package var joinTables: [String: JoinTable] = [:]

    /// A column after the bookkeeping ones.
    package struct Column: Equatable {
        package enum Kind: Hashable, CustomStringConvertible {
            case attribute(AttributeType)
            /// The row id of a row of the named root entity's table.
            case foreignKey(String)
            /// The place of the row in an ordered to-many relationship.
            case position

            package var description: String {
                switch self {
                case .attribute(let type): "\(type.rawValue) attribute"
                case .foreignKey(let table): "reference to \(table)"
                case .position: "position"
                }
            }
        }

        package let name: String
        package let kind: Kind
        /// Names the column had in earlier models.
        package let aliases: [String]
        /// The attribute the column stores, for defaults and optionality in migrations.
        package let attribute: AttributeDescription?

        package var isForeignKey: Bool {
            if case .foreignKey = kind { return true }
            return false
        }
    }

    /// The table of a root entity.
    package struct Table {
        package let name: String
        /// Names the entity had in earlier models.
        package let aliases: [String]
        /// In the order added.
        package private(set) var columns: [Column] = []
        package private(set) var columnIndex: [String: Int] = [:]
        /// The identity's columns, from the root entity.
        package var identity: [String] = []

        /// Adds a column, or checks that an existing one of the same name agrees with it.
        ///
        /// - Throws: ``StoreError`` of kind `invalidSchema` for a bookkeeping column's name, or a name two entities
        ///   of the tree give two kinds of value.
        mutating func add(_ column: Column, entity: String) throws {
            if StoreNames.bookkeepingColumns.contains(column.name) {
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
        }

        package func column(named name: String) -> Column? {
            columnIndex[name].map { columns[$0] }
        }

        /// The unique index of the identity, then one index per foreign key (for loading to-manys).
        package var indexes: [Index] {
            var indexes: [Index] = []
            if !identity.isEmpty {
                indexes.append(Index(name: StoreNames.identityIndex(table: name), table: name, columns: identity, isIdentity: true))
            }
            for column in columns where column.isForeignKey {
                indexes.append(
                    Index(
                        name: StoreNames.foreignKeyIndex(table: name, column: column.name), table: name,
                        columns: [column.name], isIdentity: false))
            }
            return indexes
        }
    }

    /// An index of a root entity's table (the unique one of its identity, or one of a foreign key), or of a join
    /// table's targets.
    package struct Index: Equatable {
        package let name: String
        package let table: String
        package let columns: [String]
        /// Whether it is the identity index, which is unique.
        package let isIdentity: Bool
    }

    /// A join table: a row per pair, `position` the target's place in an ordered source relationship.
    package struct JoinTable: Equatable {
        package let name: String
        /// The root entity of the owner end's rows, in `source`.
        package let source: String
        package let target: String

        /// The index of its targets, for a target's members and for cascades (the primary key starts with `source`).
        package var targetIndex: Index {
            Index(name: StoreNames.targetIndex(joinTable: name), table: name, columns: ["target"], isIdentity: false)
        }
    }

    /// Lays out `model`.
    ///
    /// - Throws: ``StoreError`` of kind `invalidSchema` for a property named like a bookkeeping column, or a column
    ///   that two entities of a tree declare with different kinds (a validated model has neither).
    package init(model: EntityModel) throws {
        for root in model.entities where root.parentName == nil {
            var table = Table(name: root.name, aliases: root.declaration.aliases)
            table.identity = root.identity
            let tree = root.kinds.compactMap(model.entity(named:)).sorted { $0.lineage.count < $1.lineage.count }
            for entity in tree {
                for attribute in entity.declaration.attributes {
                    try table.add(
                        Column(name: attribute.name, kind: .attribute(attribute.type), aliases: attribute.aliases, attribute: attribute),
                        entity: entity.name)
                }
                for relationship in entity.declaration.relationships where !relationship.isToMany {
                    try table.add(
                        Column(
                            name: relationship.name, kind: .foreignKey(model.destination(of: relationship).rootName),
                            aliases: relationship.aliases, attribute: nil),
                        entity: entity.name)
                }
            }
            tables[root.name] = table
        }
        for entity in model.entities {
            for relationship in entity.relationships {
                switch model.linkStorage(of: relationship, in: entity) {
                case .sourceColumn, .memberColumn(_, isOrdered: false):
                    continue
                case .memberColumn(let inverse, isOrdered: true):
                    let destination = model.destination(of: relationship)
                    try tables[destination.rootName]!.add(
                        Column(name: StoreNames.positionColumn(inverse: inverse), kind: .position, aliases: [], attribute: nil),
                        entity: destination.name)
                case .joinTable(let name, let isOwner, _):
                    let destination = model.destination(of: relationship).rootName
                    joinTables[name] = JoinTable(
                        name: name, source: isOwner ? entity.rootName : destination,
                        target: isOwner ? destination : entity.rootName)
                }
            }
        }
    }
}
