import SeedKitModel

/// A key path in a predicate, for writing conditions with operators.
///
///     let request = FetchRequest("Employee", predicate: FetchKey("department.name") == "Sales" && !FetchKey("hired").isNil)
///
/// - Complexity: O(1) to build a condition.
public struct FetchKey: Sendable, Hashable {
    public var path: String

    public init(_ path: String) {
        self.path = path
    }

    /// The value is missing.
    public var isNil: FetchPredicate { .comparison(path, .equal, nil) }

    /// The value is one of `values`.
    public func among<Value: AttributeRepresentable>(_ values: some Sequence<Value>) -> FetchPredicate {
        .among(path, values.compactMap(\.attributeValue))
    }

    public func equals(_ pattern: String, options: StringOptions = []) -> FetchPredicate {
        .string(path, .equals, pattern, options)
    }

    public func beginsWith(_ prefix: String, options: StringOptions = []) -> FetchPredicate {
        .string(path, .beginsWith, prefix, options)
    }

    public func endsWith(_ suffix: String, options: StringOptions = []) -> FetchPredicate {
        .string(path, .endsWith, suffix, options)
    }

    public func contains(_ part: String, options: StringOptions = []) -> FetchPredicate {
        .string(path, .contains, part, options)
    }

    /// Matches a pattern with `*` and `?` wildcards (see ``FetchPredicate/StringMatch/like``).
    public func like(_ pattern: String, options: StringOptions = []) -> FetchPredicate {
        .string(path, .like, pattern, options)
    }

    public static func == <Value: AttributeRepresentable>(key: FetchKey, value: Value) -> FetchPredicate {
        .comparison(key.path, .equal, value.attributeValue)
    }

    public static func != <Value: AttributeRepresentable>(key: FetchKey, value: Value) -> FetchPredicate {
        .comparison(key.path, .notEqual, value.attributeValue)
    }

    public static func < <Value: AttributeRepresentable>(key: FetchKey, value: Value) -> FetchPredicate {
        .comparison(key.path, .less, value.attributeValue)
    }

    public static func <= <Value: AttributeRepresentable>(key: FetchKey, value: Value) -> FetchPredicate {
        .comparison(key.path, .lessOrEqual, value.attributeValue)
    }

    public static func > <Value: AttributeRepresentable>(key: FetchKey, value: Value) -> FetchPredicate {
        .comparison(key.path, .greater, value.attributeValue)
    }

    public static func >= <Value: AttributeRepresentable>(key: FetchKey, value: Value) -> FetchPredicate {
        .comparison(key.path, .greaterOrEqual, value.attributeValue)
    }
}

extension FetchPredicate {
    /// Both hold; nested ands flatten into one.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .and(lhs.terms(ofAnd: true) + rhs.terms(ofAnd: true))
    }

    /// Either holds; nested ors flatten into one.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .or(lhs.terms(ofAnd: false) + rhs.terms(ofAnd: false))
    }

    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        .not(predicate)
    }

    private func terms(ofAnd isAnd: Bool) -> [FetchPredicate] {
        switch self {
        case .and(let terms) where isAnd: terms
        case .or(let terms) where !isAnd: terms
        default: [self]
        }
    }
}
