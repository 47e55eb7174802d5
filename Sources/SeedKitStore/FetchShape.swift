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
    /// While loading: how many codes and values the fetch has given so far. Not part of the shape.
    private var codeCount = 0
    private var valueCount = 0

    /// Makes this the shape of `fetch` and `values` its values, reusing the storage of both: a store runs every
    /// fetch through one shape and one array, so that finding a fetch's statement allocates nothing.
    ///
    /// Each code and value goes where the last fetch's was, and a code is written only where it differs: a run of
    /// fetches of one shape writes no code, and removes nothing but a shorter fetch's extra codes and values.
    ///
    /// - Complexity: O(*k*) in the conditions, their steps and values, and the sort keys.
    mutating func load(_ fetch: StoreFetch, counting: Bool, values: inout [AttributeValue?]) {
        codeCount = 0
        valueCount = 0
        digest = 0
        defer {
            if codeCount < codes.count { codes.removeSubrange(codeCount...) }
            if valueCount < values.count { values.removeSubrange(valueCount...) }
        }
        let pages = fetch.limit != nil || fetch.offset > 0
        add(Self.code(fetch.entity))
        add(Self.flags(counting, fetch.includesSubentities, fetch.mayBeFinal, pages) | fetch.sortKeys.count << 4)
        for key in fetch.sortKeys { add(key.path, flag: key.ascending) }
        add(fetch.predicate, values: &values)
        if pages {
            // No limit is -1 to SQLite.
            add(value: .integer(Int64(fetch.limit.map { max(0, $0) } ?? -1)), to: &values)
            add(value: .integer(Int64(max(0, fetch.offset))), to: &values)
        }
    }

    static func == (lhs: FetchShape, rhs: FetchShape) -> Bool {
        lhs.digest == rhs.digest && lhs.codes == rhs.codes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    // A shape's codes are few words, packed so that a run of fetches writes and compares few: the fetch's flags
    // share a word with its number of sort keys; each condition starts with one word, its kind in the low three bits
    // and its comparison or count above them; a key path is a word of its step count and a flag, its attribute, then
    // an entity and relationship per step and its entity. The sequence reads back one way only, so two shapes with the
    // same codes are the same shape.

    private static let noPredicate = 7

    // The predicate is optional here so that a fetch's is used where it lies: unwrapping it copied it (a retain) and
    // destroyed the copy.
    private mutating func add(_ predicate: ResolvedPredicate?, values: inout [AttributeValue?]) {
        switch predicate {
        case nil:
            add(Self.noPredicate)
        case .constant(let value)?:
            add(0 | (value ? 1 : 0) << 3)
        case .and(let predicates)?, .or(let predicates)?:
            if case .and? = predicate { add(1 | predicates.count << 3) } else { add(2 | predicates.count << 3) }
            for predicate in predicates { add(predicate, values: &values) }
        case .not(let predicate)?:
            add(3)
            add(predicate, values: &values)
        case .comparison(let path, let comparison, let value)?:
            add(4 | Self.code(comparison) << 3)
            add(path, flag: value != nil)
            if let value { add(value: value, to: &values) }
        case .among(let path, let list)?:
            add(5 | list.count << 3)
            add(path, flag: false)
            for member in list { add(value: member, to: &values) }
        case .string(let path, let match, let pattern, let options)?:
            add(6 | Self.code(match) << 3)
            add(options.rawValue)
            add(path, flag: false)
            add(value: .string(pattern), to: &values)
        }
    }

    private mutating func add(_ path: AttributePath, flag: Bool) {
        add(path.steps.count << 1 | (flag ? 1 : 0))
        add(path.attribute)
        for step in path.steps {
            add(Self.code(step.entity))
            add(step.relationship)
        }
        add(Self.code(path.entity))
    }

    @inline(__always)
    private mutating func add(_ code: Int) {
        if codeCount == codes.count {
            codes.append(code)
        } else if codes[codeCount] != code {
            codes[codeCount] = code
        }
        codeCount += 1
        // FNV-1a's step over whole words: equal codes give equal digests; equality still compares the codes.
        digest = (digest ^ UInt64(bitPattern: Int64(code))) &* 0x100_0000_01B3
    }

    private mutating func add(value: AttributeValue?, to values: inout [AttributeValue?]) {
        if valueCount == values.count { values.append(value) } else { values[valueCount] = value }
        valueCount += 1
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

    private static func flags(_ counting: Bool, _ includesSubentities: Bool, _ mayBeFinal: Bool, _ pages: Bool) -> Int {
        (counting ? 1 : 0) | (includesSubentities ? 2 : 0) | (mayBeFinal ? 4 : 0) | (pages ? 8 : 0)
    }

    /// An entity of the store's model, which lives as long as the store and its shapes.
    private static func code(_ entity: Entity) -> Int {
        Int(bitPattern: ObjectIdentifier(entity))
    }
}
