/// The names a store makes from a model: a table per root entity, a join table per many-to-many pair, indexes, and
/// columns for attributes, to-one relationships, positions and (in a PostgreSQL store) a date's nanoseconds, beside the
/// store's own tables and columns.
///
/// SQLite compares all of them without regard to case (tables, indexes and join tables share one namespace), and so
/// does PostgreSQL for names it folds. A model is refused when two of its names would be one in the store, or one
/// would be a name the store keeps for itself, so that a model that validates always makes a store:
///
///     Employee.ID: name 'ID' differs from 'id' only in case, and the store's names ignore case
///     A_bs: the entity's table would be named like the join table of A.bs (the store's names ignore case)
///
/// The store's schema (``StoreSchema``) takes its names from here, and its join tables from
/// ``EntityModel/linkStorage(of:in:)``.
package enum StoreNames {
    /// Prefixes of the names of the store's own tables (`_seedkit_metadata`, the seed ledger's `_seedkit_seed_…`)
    /// and of SQLite's (`sqlite_master`, …), in lowercase.
    package static let reservedTablePrefixes = ["_seedkit", sqlitePrefix]
    /// The prefix SQLite keeps for its own names, columns included, in lowercase.
    package static let sqlitePrefix = "sqlite_"
    /// The columns every root entity's table starts with: the row id, the concrete entity and the row version.
    package static let bookkeepingColumns = ["_id", "_entity", "_version"]

    package static func identityIndex(table: String) -> String { "\(table)_identity" }
    package static func foreignKeyIndex(table: String, column: String) -> String { "\(table)_\(column)" }
    package static func targetIndex(joinTable: String) -> String { "\(joinTable)_target" }
    /// The column of an ordered to-many's destination that keeps the order, named after the to-one inverse.
    package static func positionColumn(inverse: String) -> String { "\(inverse)_position" }
    /// The column beside a date's where a PostgreSQL store keeps the nanoseconds below its `timestamptz`'s
    /// microseconds.
    package static func nanosecondsColumn(date: String) -> String { "\(date)_ns" }
}

extension EntityModel {
    /// Every clash among the names a store makes from the model, as errors naming both sides.
    ///
    /// - Complexity: O(*n*) in the number of entities and properties.
    func storeNameClashes() -> [ModelError] {
        var clashes = StoreNameClashes()
        for entity in entities {
            for name in [entity.name] + entity.declaration.aliases {
                if let prefix = StoreNames.reservedTablePrefixes.first(where: { name.lowercased().hasPrefix($0) }) {
                    let owner = prefix == StoreNames.sqlitePrefix ? "SQLite's" : "the store's"
                    clashes.errors.append(
                        ModelError(
                            .reservedName, entity: entity.name,
                            "entity name '\(name)' is reserved: names starting with '\(prefix)' (in any case) belong to "
                                + "\(owner) own tables"))
                }
                clashes.add(entity: name, as: entity.name)
            }
        }
        // Root tables first, so that a clash with an index or join table is reported where that one is declared;
        // two tables can only clash as entity names differing in case, reported above.
        for root in entities where root.parentName == nil {
            clashes.add(table: root.name, "the table of \(root.name)", entity: root.name, property: nil, reports: false)
        }
        for root in entities where root.parentName == nil {
            if !root.identity.isEmpty {
                clashes.add(
                    table: StoreNames.identityIndex(table: root.name), "the identity index of \(root.name)",
                    entity: root.name, property: nil)
            }
            var columns = StoreColumnNames(table: root.name)
            // Parents before children, as the store adds their columns.
            let tree = root.kinds.compactMap(entity(named:)).sorted { $0.lineage.count < $1.lineage.count }
            for entity in tree {
                for attribute in entity.declaration.attributes {
                    columns.add(attribute.name, kind: .attribute(attribute.type), entity: entity.name, clashes: &clashes)
                    // Reserved on every store, so that a model that validates makes a store on each.
                    guard attribute.type == .date else { continue }
                    columns.add(
                        StoreNames.nanosecondsColumn(date: attribute.name), kind: .nanoseconds(date: attribute.name),
                        entity: entity.name, property: attribute.name, clashes: &clashes)
                }
                for relationship in entity.declaration.relationships where !relationship.isToMany {
                    let isNew = columns.add(
                        relationship.name, kind: .foreignKey(destination(of: relationship).rootName),
                        entity: entity.name, clashes: &clashes)
                    guard isNew else { continue }
                    clashes.add(
                        table: StoreNames.foreignKeyIndex(table: root.name, column: relationship.name),
                        "the index of \(entity.name).\(relationship.name)", entity: entity.name,
                        property: relationship.name)
                }
            }
            // Positions of ordered to-manys whose to-one inverse is stored in this table.
            for entity in entities {
                for relationship in entity.declaration.relationships {
                    guard destination(of: relationship).rootName == root.name,
                        case .memberColumn(let inverse, isOrdered: true) = linkStorage(of: relationship, in: entity)
                    else { continue }
                    columns.add(
                        StoreNames.positionColumn(inverse: inverse), kind: .position,
                        entity: entity.name, property: relationship.name, clashes: &clashes)
                }
            }
        }
        for entity in entities {
            for relationship in entity.declaration.relationships {
                guard case .joinTable(let name, isOwner: true, _) = linkStorage(of: relationship, in: entity) else { continue }
                clashes.add(
                    table: name, "the join table of \(entity.name).\(relationship.name)", entity: entity.name,
                    property: relationship.name)
                clashes.add(
                    table: StoreNames.targetIndex(joinTable: name), "the index of the join table \(name)",
                    entity: entity.name, property: relationship.name)
            }
        }
        return clashes.errors
    }
}

/// The names of one store met so far, by their lowercase form, and the clashes found.
private struct StoreNameClashes {
    var errors: [ModelError] = []
    private var entities: [String: String] = [:]
    private var tables: [String: String] = [:]

    /// An entity name or alias: entity names differing only in case would be one table, one template folder on a
    /// case-insensitive file system, and easy to mistake for each other.
    mutating func add(entity name: String, as entity: String) {
        let key = name.lowercased()
        if let other = entities[key], other != name {
            errors.append(
                ModelError(
                    .duplicateName, entity: entity,
                    "name '\(name)' differs from entity name '\(other)' only in case, and the store's names ignore case"))
        }
        entities[key] = entities[key] ?? name
    }

    /// A name in the namespace of tables and indexes; a clash is an error unless `reports` is false.
    mutating func add(table name: String, _ what: String, entity: String, property: String?, reports: Bool = true) {
        let key = name.lowercased()
        if let other = tables[key] {
            guard reports else { return }
            errors.append(
                ModelError(
                    .duplicateName, entity: entity, property: property,
                    "\(what) would be named '\(name)', like \(other) (the store's names ignore case); rename one"))
        } else {
            tables[key] = what
        }
    }
}

/// The columns of one root entity's table met so far, by their lowercase form.
private struct StoreColumnNames {
    enum Kind: Hashable {
        case attribute(AttributeType)
        case foreignKey(String)
        case position
        /// The nanoseconds of the named date, beside it in a PostgreSQL store.
        case nanoseconds(date: String)
    }

    let table: String
    private var columns: [String: (name: String, kind: Kind, entity: String)] = [:]

    init(table: String) {
        self.table = table
    }

    /// A column for a property of `entity` (or for the order of `property` of another entity): entities of one tree
    /// may share a column of one name and kind; any other meeting of names is a clash.
    ///
    /// - Returns: Whether the column is new, rather than shared or clashing.
    @discardableResult
    mutating func add(
        _ name: String, kind: Kind, entity: String, property: String? = nil, clashes: inout StoreNameClashes
    ) -> Bool {
        let key = name.lowercased()
        let property = property ?? name
        let reservation =
            StoreNames.bookkeepingColumns.contains(key)
            ? " for the store's own column '\(key)' (the store's names ignore case)"
            : key.hasPrefix(StoreNames.sqlitePrefix)
                ? ": column names starting with '\(StoreNames.sqlitePrefix)' (in any case) belong to SQLite" : nil
        if let reservation {
            clashes.errors.append(
                ModelError(.reservedName, entity: entity, property: property, "name '\(name)' is reserved\(reservation)"))
            return false
        }
        guard let other = columns[key] else {
            columns[key] = (name, kind, entity)
            return true
        }
        let whose = other.entity == entity ? "" : " of \(other.entity)"
        if case .nanoseconds(let date) = kind {
            // Two dates' columns meet only where the dates do, which is reported.
            if case .nanoseconds = other.kind { return false }
            clashes.errors.append(nanosecondsClash(name, date: date, attribute: other.name, entity: other.entity))
        } else if case .nanoseconds(let date) = other.kind {
            clashes.errors.append(nanosecondsClash(other.name, date: date, attribute: name, entity: entity))
        } else if other.name != name {
            clashes.errors.append(
                ModelError(
                    .duplicateName, entity: entity, property: property,
                    "column '\(name)' differs from '\(other.name)'\(whose) only in case, and the store's names "
                        + "ignore case; both would be stored in the table \(table)"))
        } else if other.kind != kind {
            let what = kind == .position ? "the order of \(entity).\(property)" : "\(entity).\(name)"
            clashes.errors.append(
                ModelError(
                    .duplicateName, entity: entity, property: property,
                    "\(what) would be stored in the column '\(name)' of the table \(table), which holds another kind "
                        + "of value for '\(other.name)'\(whose)"))
        }
        return false
    }

    /// The error of `attribute`, whose name (in some case) is `column`, the nanoseconds column of `date`.
    private func nanosecondsClash(_ column: String, date: String, attribute: String, entity: String) -> ModelError {
        ModelError(
            .duplicateName, entity: entity, property: attribute,
            "name '\(attribute)' is taken by the column '\(column)' in which a PostgreSQL store keeps the "
                + "nanoseconds of the date '\(date)' (the store's names ignore case); rename one")
    }
}
