import SeedKitModel

/// A condition on objects, composable with and, or and not, that a fetch evaluates in SQL over a store and in memory
/// over unsaved objects, with the same result.
///
///     let engineers: FetchPredicate = FetchKey("department.name") == "Engineering"
///         && (FetchKey("name").beginsWith("a", options: .caseInsensitive) || FetchKey("hired").isNil)
///
/// Keys are key paths: attribute names, or to-one relationship names followed by a key of their destination
/// (`"department.name"`). A step through a missing object gives a missing value.
///
/// The meaning of values, the same in every evaluation:
/// - A missing value equals only nil (`== nil`; `!=` a value holds for it); it is never less or greater than anything,
///   is in no `IN` list and matches no string condition.
/// - Values of a type order as ``AttributeValue`` orders them: strings by Unicode scalars, which is the byte order of
///   their UTF-8 (SQLite's `BINARY` collation). Equality of strings is equality of bytes: NFC and NFD spellings
///   differ, as identities do.
/// - String conditions fold both sides by their ``StringOptions`` first.
///
/// - Complexity: Evaluating it in memory is O(*k*) in its number of conditions times the length of their key paths.
public enum FetchPredicate: Sendable, Hashable {
    /// Holds for every object (`true`) or none.
    case constant(Bool)
    /// Every predicate holds; true when there are none.
    case and([FetchPredicate])
    /// Some predicate holds; false when there are none.
    case or([FetchPredicate])
    /// The only case boxed, as its recursion needs: a comparison, the usual predicate, lives in its request, so that
    /// making and dropping one allocates and frees nothing.
    indirect case not(FetchPredicate)
    /// The value at a key path compared with a value; nil compares as described in the type's summary.
    case comparison(String, Comparison, AttributeValue?)
    /// The value at a key path equals one of the values (`IN`).
    case among(String, [AttributeValue])
    /// The string at a key path matches a pattern.
    case string(String, StringMatch, String, StringOptions)

    /// How a value at a key path compares with a given value.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// How a string at a key path matches a pattern.
    public enum StringMatch: String, Sendable, Hashable, CaseIterable {
        /// The whole string equals the pattern.
        case equals
        case beginsWith
        case endsWith
        case contains
        /// The pattern with wildcards: `*` matches any run of characters (Unicode scalars), `?` one; a backslash
        /// makes the next character literal.
        case like
    }
}

/// How string conditions compare: exactly (the default), or folding case, diacritics, or both.
///
///     FetchKey("name").contains("zoe", options: [.caseInsensitive, .diacriticInsensitive])   // matches "Zoë"
public struct StringOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Compares the lowercase mappings of Unicode (`String.lowercased()`).
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// Compares without combining marks: both sides are decomposed canonically (NFD) and nonspacing marks removed.
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

extension FetchPredicate {
    /// Holds for every object.
    public static let all = FetchPredicate.constant(true)
}
