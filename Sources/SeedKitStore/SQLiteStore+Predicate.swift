import SeedKitModel
import SeedKitObjects
import SeedKitSQLite

/// The SQL of a fetch over a root entity's table: the joins its key paths need, its condition and its order.
///
///     LEFT JOIN "Department" AS "j1" ON "j1"."_id" = "Employee"."department"
///     WHERE "j1"."name" = ?1 AND ("Employee"."hired" IS NOT NULL AND "Employee"."hired" < ?2)
///
/// Every condition under a `NOT` is two-valued — true or false, never NULL, whatever is missing — so that `NOT`
/// complements it as ``ResolvedPredicate/evaluate(_:)`` does; elsewhere a NULL drops its row as false would. What SQL
/// can't decide as the context would (the order or equality of decimals, whose stored text is not their numeric
/// order; the order of JSON) is left out as true and marked inexact: the rows are then candidates, a superset, and
/// the context finishes in memory.
///
/// Parameters are numbered in the order ``FetchShape`` lists a fetch's values: a value left out keeps its number.
struct FetchQuery {
    /// A condition; inexact when it holds for more rows than the predicate.
    struct Condition {
        var sql: String
        var isExact: Bool

        static let unknown = Condition(sql: "1", isExact: false)
    }

    let schema: StoreSchema
    let table: TableSchema
    private(set) var joins: [String] = []
    private var aliases: [String: String] = [:]
    /// The values numbered so far.
    private(set) var valueCount = 0
    /// How many `NOT`s enclose the condition being made.
    private var negations = 0

    init(schema: StoreSchema, root: String) {
        self.schema = schema
        self.table = schema.tables[root]!
    }

    /// The name of the SQL function that runs string conditions with options, and `like`.
    static let matchFunction = "seedkit_matches"

    /// `FROM`'s joins, then the condition when there is one: the text after the table in a statement.
    func clauses(where conditions: [String]) -> String {
        (joins + (conditions.isEmpty ? [] : ["WHERE " + conditions.joined(separator: " AND ")])).joined(separator: " ")
    }

    /// The parameter of the next value.
    mutating func parameter() -> String {
        valueCount += 1
        return "?\(valueCount)"
    }

    /// The column of a key path's value, joining the tables of its steps (once per distinct step).
    mutating func column(_ path: AttributePath) -> String {
        var source = table.quoted
        var key = ""
        for (position, step) in path.steps.enumerated() {
            guard case .foreignKey(let column) = schema.layouts[step.entity.name]!.relationships[step.relationship] else {
                preconditionFailure("a to-one relationship is stored in a column of its source")
            }
            key += "\(step.entity.name)#\(step.relationship)/"
            if let alias = aliases[key] {
                source = alias
                continue
            }
            let destination = position + 1 < path.steps.count ? path.steps[position + 1].entity : path.entity
            let alias = SQLIdentifier.quote("j\(aliases.count + 1)")
            joins.append(
                "LEFT JOIN \(SQLIdentifier.quote(destination.rootName)) AS \(alias) ON \(alias).\"_id\" = "
                    + "\(source).\(SQLIdentifier.quote(column))")
            aliases[key] = alias
            source = alias
        }
        let name = path.entity.attributes[path.attribute].name
        return path.steps.isEmpty ? table.column(name) : "\(source).\(SQLIdentifier.quote(name))"
    }

    /// The predicate as a two-valued SQL condition.
    mutating func condition(_ predicate: ResolvedPredicate) -> Condition {
        switch predicate {
        case .constant(let value):
            return Condition(sql: value ? "1" : "0", isExact: true)
        case .and(let predicates):
            let parts = predicates.map { condition($0) }
            let kept = parts.filter { $0.sql != "1" }
            return Condition(
                sql: kept.isEmpty ? "1" : "(\(kept.map(\.sql).joined(separator: " AND ")))",
                isExact: parts.allSatisfy(\.isExact))
        case .or(let predicates):
            let parts = predicates.map { condition($0) }
            // A superset of one alternative is no superset of the whole: the or is unknown then.
            guard parts.allSatisfy(\.isExact) else { return .unknown }
            return Condition(sql: parts.isEmpty ? "0" : "(\(parts.map(\.sql).joined(separator: " OR ")))", isExact: true)
        case .not(let predicate):
            negations += 1
            let part = condition(predicate)
            negations -= 1
            guard part.isExact else { return .unknown }
            return Condition(sql: "NOT \(part.sql)", isExact: true)
        case .comparison(let path, let comparison, let value):
            return self.comparison(path, comparison, value)
        case .among(let path, let values):
            let list = values.map { _ in parameter() }
            guard path.type != .decimal else { return .unknown }
            if values.isEmpty { return Condition(sql: "0", isExact: true) }
            let column = column(path)
            return Condition(
                sql: "(\(column) IS NOT NULL AND \(column) IN (\(list.joined(separator: ", "))))", isExact: true)
        case .string(let path, let match, _, let options):
            let column = column(path), pattern = parameter()
            if match == .equals && options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty {
                return Condition(sql: "\(column) \(equality) \(pattern)", isExact: true)
            }
            let known = options.intersection([.caseInsensitive, .diacriticInsensitive])
            let mode = FetchPredicate.StringMatch.allCases.firstIndex(of: match)! * 4 + known.rawValue
            return Condition(sql: "\(Self.matchFunction)(\(column), \(pattern), \(mode))", isExact: true)
        }
    }

    /// How a column equals a value that is not NULL: `IS`, two-valued, under a `NOT`; elsewhere `=`, whose NULL for a
    /// missing value drops its row as false would. SQLite reads a unique index, the identity's, as one row for `=`
    /// only: for `IS` it looks for a next row too.
    private var equality: String { negations == 0 ? "=" : "IS" }

    private mutating func comparison(
        _ path: AttributePath, _ comparison: FetchPredicate.Comparison, _ value: AttributeValue?
    ) -> Condition {
        let column = column(path)
        guard value != nil else {
            switch comparison {
            case .equal, .lessOrEqual, .greaterOrEqual: return Condition(sql: "\(column) IS NULL", isExact: true)
            case .notEqual: return Condition(sql: "\(column) IS NOT NULL", isExact: true)
            case .less, .greater: return Condition(sql: "0", isExact: true)
            }
        }
        let value = parameter()
        switch comparison {
        case .equal, .notEqual:
            // Decimal text is exact, not canonical: 1.5 and 1.50 are equal numbers with different text.
            guard path.type != .decimal else { return .unknown }
            return Condition(sql: "\(column) \(comparison == .equal ? equality : "IS NOT") \(value)", isExact: true)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard path.type.sortsInSQL else { return .unknown }
            return Condition(
                sql: "(\(column) IS NOT NULL AND \(column) \(comparison.rawValue) \(value))", isExact: true)
        }
    }
}

extension SQLiteStore {
    /// Defines the SQL function string conditions call, on the store's connection.
    ///
    ///     seedkit_matches(text, folded pattern, match × 4 + options) -- 1 or 0, 0 for NULL
    ///
    /// It folds and matches with the very functions the in-memory evaluation uses.
    func defineMatchFunction() throws {
        try connection.defineFunction(FetchQuery.matchFunction, argumentCount: 3) { arguments in
            guard case .text(let text) = arguments[0], case .text(let pattern) = arguments[1],
                case .integer(let mode) = arguments[2]
            else { return .integer(0) }
            let match = FetchPredicate.StringMatch.allCases[Int(mode) / 4]
            let options = StringOptions(rawValue: Int(mode) % 4)
            return .integer(match.matches(options.fold(text), pattern: pattern) ? 1 : 0)
        }
    }
}
