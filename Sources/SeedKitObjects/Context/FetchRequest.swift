import SeedKitModel

/// What to fetch: objects of an entity (and its subentities), filtered, sorted and limited.
///
///     var request = FetchRequest("Employee")
///     request.filters = [AttributeFilter("name", .equal, "Ann")]
///     request.sortedBy = [SortKey("hired", ascending: false)]
///     request.limit = 10
public struct FetchRequest: Sendable, Hashable {
    public var entityName: String
    /// Whether objects of subentities are included (the default, as in Core Data).
    public var includesSubentities: Bool
    /// Every filter must hold.
    public var filters: [AttributeFilter]
    public var sortedBy: [SortKey]
    public var limit: Int?

    public init(
        _ entityName: String, filters: [AttributeFilter] = [], sortedBy: [SortKey] = [], limit: Int? = nil,
        includesSubentities: Bool = true
    ) {
        self.entityName = entityName
        self.filters = filters
        self.sortedBy = sortedBy
        self.limit = limit
        self.includesSubentities = includesSubentities
    }
}

/// A condition on one attribute. A missing value matches only `.equal` to nil and `.notEqual` to a value.
public struct AttributeFilter: Sendable, Hashable {
    public enum Comparison: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    public var key: String
    public var comparison: Comparison
    public var value: AttributeValue?

    public init(_ key: String, _ comparison: Comparison, _ value: AttributeValue?) {
        self.key = key
        self.comparison = comparison
        self.value = value
    }

    public init(_ key: String, _ comparison: Comparison, _ value: String) {
        self.init(key, comparison, .string(value))
    }
}

/// A sort key: an attribute name and a direction. Missing values sort first in ascending order.
public struct SortKey: Sendable, Hashable {
    public var key: String
    public var ascending: Bool

    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
