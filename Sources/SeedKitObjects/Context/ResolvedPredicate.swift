import SeedKitModel

/// A key path resolved against a model: the to-one relationships it follows, then an attribute.
///
///     "department.name" from Employee: steps [(Employee, department)], attribute name of Department
package struct AttributePath {
    /// Each step: the entity it leaves from and the relationship's index there (the same in its subentities).
    package var steps: [(entity: Entity, relationship: Int)]
    /// The entity whose attribute ends the path (a step's declared destination), and the attribute's index.
    package var entity: Entity
    package var attribute: Int

    package var type: AttributeType { entity.attributes[attribute].type }

    /// The value at the path from `object`; nil when a step is nil. Steps fire faults.
    ///
    /// - Complexity: O(*k*) in the number of steps.
    package func value(of object: ManagedObject) -> AttributeValue? {
        var current = object
        for step in steps {
            guard let next = current.object(at: step.relationship) else { return nil }
            current = next
        }
        return current.attributeValues[attribute]
    }
}

/// A ``FetchPredicate`` resolved against an entity: key paths checked and resolved, values checked against their
/// attributes' types, string patterns folded. Stores translate it; ``evaluate(_:)`` runs it in memory.
package enum ResolvedPredicate {
    case constant(Bool)
    case and([ResolvedPredicate])
    case or([ResolvedPredicate])
    /// The only case boxed, as its recursion needs (as in ``FetchPredicate``): resolving a comparison, the usual
    /// predicate, allocates nothing, and a fetch moves it into its ``StoreFetch`` rather than copying it.
    indirect case not(ResolvedPredicate)
    case comparison(AttributePath, FetchPredicate.Comparison, AttributeValue?)
    case among(AttributePath, [AttributeValue])
    /// The pattern is folded by the options already.
    case string(AttributePath, FetchPredicate.StringMatch, pattern: String, StringOptions)

    /// Whether the predicate holds for `object`.
    ///
    /// - Complexity: O(*k*) in the conditions and their steps, plus folding strings for string conditions.
    package func evaluate(_ object: ManagedObject) -> Bool {
        switch self {
        case .constant(let value): return value
        case .and(let predicates): return predicates.allSatisfy { $0.evaluate(object) }
        case .or(let predicates): return predicates.contains { $0.evaluate(object) }
        case .not(let predicate): return !predicate.evaluate(object)
        case .comparison(let path, let comparison, let value):
            return comparison.holds(path.value(of: object), value)
        case .among(let path, let values):
            guard let stored = path.value(of: object) else { return false }
            return values.contains { stored.compare(to: $0) == .orderedSame }
        case .string(let path, let match, let pattern, let options):
            guard case .string(let text)? = path.value(of: object) else { return false }
            return match.matches(options.fold(text), pattern: pattern)
        }
    }

    /// The root entities whose objects the key paths pass through (not the fetched one).
    package var destinationRoots: Set<String> {
        switch self {
        case .constant: []
        case .and(let predicates), .or(let predicates): predicates.reduce(into: []) { $0.formUnion($1.destinationRoots) }
        case .not(let predicate): predicate.destinationRoots
        case .comparison(let path, _, _), .among(let path, _), .string(let path, _, _, _):
            path.steps.isEmpty ? [] : Set(path.steps.dropFirst().map(\.entity.rootName) + [path.entity.rootName])
        }
    }
}

extension FetchPredicate.Comparison {
    /// Whether `stored` compares to `value` this way; a missing value equals only nil and orders with nothing.
    ///
    /// - Complexity: O(1), but for strings and data: O(*n*) in their length.
    package func holds(_ stored: AttributeValue?, _ value: AttributeValue?) -> Bool {
        switch (stored, value) {
        case (nil, nil): return self == .equal || self == .lessOrEqual || self == .greaterOrEqual
        case (nil, _), (_, nil): return self == .notEqual
        case (let stored?, let value?):
            let order = stored.compare(to: value) ?? .orderedSame
            switch self {
            case .equal: return order == .orderedSame
            case .notEqual: return order != .orderedSame
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            case .greaterOrEqual: return order != .orderedAscending
            }
        }
    }
}
