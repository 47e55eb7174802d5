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
    /// The codes mixed into one word as they are added, so that hashing a shape feeds the table's hasher one word.
    private var digest: UInt64 = 0

    /// Makes this the shape of `fetch` and `values` its values, reusing the storage of both: a store runs every
    /// fetch through one shape and one array, so that finding a fetch's statement allocates nothing.
    ///
    /// - Complexity: O(*k*) in the conditions, their steps and values, and the sort keys.
    mutating func load(_ fetch: StoreFetch, counting: Bool, values: inout [AttributeValue?]) {
        codes.removeAll(keepingCapacity: true)
        digest = 0
        values.removeAll(keepingCapacity: true)
        let pages = fetch.limit != nil || fetch.offset > 0
        add(counting ? 1 : 0, Self.code(fetch.entity), fetch.includesSubentities ? 1 : 0)
        add(fetch.mayBeFinal ? 1 : 0, pages ? 1 : 0, fetch.sortKeys.count)
        for key in fetch.sortKeys {
            add(key.path)
            add(key.ascending ? 1 : 0)
        }
        if let predicate = fetch.predicate { add(predicate, values: &values) } else { add(-1) }
        if pages {
            // No limit is -1 to SQLite.
            values.append(.integer(Int64(fetch.limit.map { max(0, $0) } ?? -1)))
            values.append(.integer(Int64(max(0, fetch.offset))))
        }
    }

    static func == (lhs: FetchShape, rhs: FetchShape) -> Bool {
        lhs.digest == rhs.digest && lhs.codes == rhs.codes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    private mutating func add(_ predicate: ResolvedPredicate, values: inout [AttributeValue?]) {
        switch predicate {
        case .constant(let value):
            add(0, value ? 1 : 0)
        case .and(let predicates), .or(let predicates):
            if case .and = predicate { add(1, predicates.count) } else { add(2, predicates.count) }
            for predicate in predicates { add(predicate, values: &values) }
        case .not(let predicate):
            add(3)
            add(predicate, values: &values)
        case .comparison(let path, let comparison, let value):
            add(4, Self.code(comparison), value == nil ? 0 : 1)
            add(path)
            if let value { values.append(value) }
        case .among(let path, let list):
            add(5, list.count)
            add(path)
            for member in list { values.append(member) }
        case .string(let path, let match, let pattern, let options):
            add(6, Self.code(match), options.rawValue)
            add(path)
            values.append(.string(pattern))
        }
    }

    private mutating func add(_ path: AttributePath) {
        add(path.steps.count)
        for step in path.steps { add(Self.code(step.entity), step.relationship) }
        add(Self.code(path.entity), path.attribute)
    }

    private mutating func add(_ first: Int, _ second: Int, _ third: Int? = nil) {
        add(first)
        add(second)
        if let third { add(third) }
    }

    private mutating func add(_ code: Int) {
        codes.append(code)
        // FNV-1a's step over whole words: equal codes give equal digests; equality still compares the codes.
        digest = (digest ^ UInt64(bitPattern: Int64(code))) &* 0x100_0000_01B3
    }

    // Codes of the cases by a switch: `allCases` builds an array on every call.

    private static func code(_ comparison: FetchPredicate.Comparison) -> Int {
        switch comparison {
        case .equal: 0
        case .notEqual: 1
        case .less: 2
        case .lessOrEqual: 3
        case .greater: 4
        case .greaterOrEqual: 5
        }
    }

    private static func code(_ match: FetchPredicate.StringMatch) -> Int {
        switch match {
        case .equals: 0
        case .beginsWith: 1
        case .endsWith: 2
        case .contains: 3
        case .like: 4
        }
    }

    /// An entity of the store's model, which lives as long as the store and its shapes.
    private static func code(_ entity: Entity) -> Int {
        Int(bitPattern: ObjectIdentifier(entity))
    }
}
