import SeedKitModel

/// What to fetch: objects of an entity (and its subentities) that a predicate holds for, sorted, from an offset, up to
/// a limit.
///
///     var request = FetchRequest("Employee", predicate: FetchKey("department.name") == "Sales")
///     request.sortedBy = [SortKey("hired", ascending: false), SortKey("name")]
///     request.offset = 20
///     request.limit = 10
///
/// - Complexity: O(1) to build; see ``ObjectContext/fetch(_:)-(FetchRequest)`` for running it.
public struct FetchRequest: Sendable, Hashable {
    public var entityName: String
    /// Whether objects of subentities are included (the default, as in Core Data).
    public var includesSubentities: Bool
    /// The condition objects meet; every object when nil.
    public var predicate: FetchPredicate?
    /// Sort keys, most significant first; objects equal by every key come in the order they were stored.
    public var sortedBy: [SortKey]
    /// How many of the sorted objects to skip.
    public var offset: Int
    public var limit: Int?
}

// In an extension, so the struct keeps its memberwise initializer: assigning the properties one by one makes the
// optimizer copy the whole request and destroy the original (a retain and a release of each reference) in every
// caller it inlines into, where delegating hands the values over as they are.
extension FetchRequest {
    public init(
        _ entityName: String, predicate: FetchPredicate? = nil, sortedBy: [SortKey] = [], offset: Int = 0,
        limit: Int? = nil, includesSubentities: Bool = true
    ) {
        self.init(
            entityName: entityName, includesSubentities: includesSubentities, predicate: predicate, sortedBy: sortedBy,
            offset: offset, limit: limit)
    }
}

/// A sort key: a key path (an attribute, or through to-one relationships, `"department.name"`) and a direction.
/// Missing values sort first in ascending order; values order as ``FetchPredicate`` compares them.
///
///     SortKey("department.name")
public struct SortKey: Sendable, Hashable {
    public var key: String
    public var ascending: Bool

    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
