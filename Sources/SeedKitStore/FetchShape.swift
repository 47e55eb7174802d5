import SeedKitModel
import SeedKitObjects

/// What a fetch's SQL depends on — its entity, its predicate without the values, its sort keys, whether it pages,
/// whether it counts — with the values it binds: fetches of one shape run one prepared statement.
///
///     FetchKey("code") == "A-1" and FetchKey("code") == "B-2" over FetchItem: one shape, values ["A-1"] and ["B-2"]
///
/// The values come in the order ``FetchQuery`` numbers its parameters — the predicate's depth first, left to right,
/// then the limit and offset — whether or not the statement uses them all: one it leaves out to the in-memory pass
/// still holds its number, so the numbers never depend on what SQL can decide.
struct FetchShape: Hashable {
    private var codes: [Int] = []

    /// The shape of `fetch`, and its values.
    ///
    /// - Complexity: O(*k*) in the conditions, their steps and values, and the sort keys.
    static func of(_ fetch: StoreFetch, counting: Bool) -> (shape: FetchShape, values: [AttributeValue?]) {
        var shape = FetchShape()
        var values: [AttributeValue?] = []
        let request = fetch.request
        let pages = request.limit != nil || request.offset > 0
        shape.codes.reserveCapacity(16)
        // Appended one by one: an array literal would allocate on every fetch.
        shape.add(counting ? 1 : 0, Self.code(fetch.entity), request.includesSubentities ? 1 : 0)
        shape.add(fetch.mayBeFinal ? 1 : 0, pages ? 1 : 0, fetch.sortKeys.count)
        for key in fetch.sortKeys {
            shape.add(key.path)
            shape.codes.append(key.ascending ? 1 : 0)
        }
        if let predicate = fetch.predicate { shape.add(predicate, values: &values) } else { shape.codes.append(-1) }
        if pages {
            // No limit is -1 to SQLite.
            values += [.integer(Int64(request.limit.map { max(0, $0) } ?? -1)), .integer(Int64(max(0, request.offset)))]
        }
        return (shape, values)
    }

    private mutating func add(_ predicate: ResolvedPredicate, values: inout [AttributeValue?]) {
        switch predicate {
        case .constant(let value):
            add(0, value ? 1 : 0)
        case .and(let predicates), .or(let predicates):
            if case .and = predicate { add(1, predicates.count) } else { add(2, predicates.count) }
            for predicate in predicates { add(predicate, values: &values) }
        case .not(let predicate):
            codes.append(3)
            add(predicate, values: &values)
        case .comparison(let path, let comparison, let value):
            add(4, FetchPredicate.Comparison.allCases.firstIndex(of: comparison)!, value == nil ? 0 : 1)
            add(path)
            if let value { values.append(value) }
        case .among(let path, let list):
            add(5, list.count)
            add(path)
            for member in list { values.append(member) }
        case .string(let path, let match, let pattern, let options):
            add(6, FetchPredicate.StringMatch.allCases.firstIndex(of: match)!, options.rawValue)
            add(path)
            values.append(.string(pattern))
        }
    }

    private mutating func add(_ path: AttributePath) {
        codes.append(path.steps.count)
        for step in path.steps { add(Self.code(step.entity), step.relationship) }
        add(Self.code(path.entity), path.attribute)
    }

    private mutating func add(_ first: Int, _ second: Int, _ third: Int? = nil) {
        codes.append(first)
        codes.append(second)
        if let third { codes.append(third) }
    }

    /// An entity of the store's model, which lives as long as the store and its shapes.
    private static func code(_ entity: Entity) -> Int {
        Int(bitPattern: ObjectIdentifier(entity))
    }
}
