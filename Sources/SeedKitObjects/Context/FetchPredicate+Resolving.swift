import SeedKitModel
import SeedKitSupport

extension FetchPredicate {
    /// The predicate resolved for fetching objects of `entity`.
    ///
    ///     let resolved = try (FetchKey("department.name") == "Sales").resolved(for: employee, in: model)
    ///
    /// - Throws: ``ObjectError``: `unknownKey` for a key no entity on the path has (with a did-you-mean),
    ///   `brokenKeyPath` for a step through a to-many relationship or an attribute, `typeMismatch` for a value of
    ///   another type than its attribute's (but an integer compares with a decimal or double attribute, exactly), or
    ///   a string condition on an attribute that is not a string.
    /// - Complexity: O(*k*) in the conditions and their steps.
    package func resolved(for entity: Entity, in model: EntityModel) throws -> ResolvedPredicate {
        switch self {
        case .constant(let value): return .constant(value)
        case .and(let predicates): return .and(try predicates.map { try $0.resolved(for: entity, in: model) })
        case .or(let predicates): return .or(try predicates.map { try $0.resolved(for: entity, in: model) })
        case .not(let predicate): return .not(try predicate.resolved(for: entity, in: model))
        case .comparison(let key, let comparison, let value):
            let path = try model.attributePath(key, from: entity)
            guard let value, value.type != path.type else { return .comparison(path, comparison, value) }
            if let converted = path.comparison(comparison, converting: value) { return converted }
            try path.check(value, key: key)
            return .comparison(path, comparison, value)
        case .among(let key, let values):
            let path = try model.attributePath(key, from: entity)
            let members = try values.compactMap { value -> AttributeValue? in
                guard value.type != path.type else { return value }
                switch path.converted(value) {
                case .exact(let number): return number
                // No value of the attribute's type is this integer: it matches nothing.
                case .between: return nil
                case nil:
                    try path.check(value, key: key)
                    return value
                }
            }
            return .among(path, members)
        case .string(let key, let match, let pattern, let options):
            let path = try model.attributePath(key, from: entity)
            guard path.type == .string else {
                throw ObjectError(
                    .typeMismatch, object: entity.name, key: key,
                    "'\(match.rawValue)' matches strings, but the attribute is \(path.type); compare it with == instead")
            }
            return .string(path, match, pattern: options.fold(pattern), options)
        }
    }
}

extension EntityModel {
    /// A key path of attributes and to-one relationships from `entity`, as predicates and sort keys name values.
    ///
    ///     try model.attributePath("department.name", from: employee)
    ///
    /// - Throws: ``ObjectError`` of kind `unknownKey` or `brokenKeyPath`, naming the step.
    /// - Complexity: O(*k*) in the number of steps.
    package func attributePath(_ key: String, from entity: Entity) throws -> AttributePath {
        if let index = entity.attributeIndex(named: key) { return AttributePath(steps: [], entity: entity, attribute: index) }
        var steps: [(entity: Entity, relationship: Int)] = []
        var current = entity
        let names = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (position, name) in names.enumerated() {
            let isLast = position == names.count - 1
            if isLast, let index = current.attributeIndex(named: name) {
                return AttributePath(steps: steps, entity: current, attribute: index)
            }
            guard let index = current.relationshipIndex(named: name) else {
                let candidates = isLast ? current.attributes.map(\.name) : current.relationships.map(\.name)
                if !isLast, current.attributeIndex(named: name) != nil {
                    throw ObjectError(
                        .brokenKeyPath, object: current.name, key: key,
                        "'\(name)' is an attribute; a key path passes through to-one relationships")
                }
                throw ObjectError(
                    .unknownKey, object: current.name, key: key,
                    "\(current.name) has no \(isLast ? "attribute" : "relationship") '\(name)'"
                        + "\(Suggestion.didYouMean(name, among: candidates)); it has: \(candidates.joined(separator: ", "))")
            }
            let relationship = current.relationships[index]
            guard !isLast, !relationship.isToMany else {
                throw ObjectError(
                    .brokenKeyPath, object: current.name, key: key,
                    isLast
                        ? "'\(name)' is a relationship; name one of its attributes, as in '\(name).…'"
                        : "'\(name)' is to-many; a predicate's key path passes through to-one relationships")
            }
            steps.append((current, index))
            current = self.entity(named: relationship.destination)!
        }
        preconditionFailure("a key path has at least one step")
    }
}

extension AttributePath {
    /// Checks a value is of the attribute's type.
    func check(_ value: AttributeValue, key: String) throws {
        guard value.type != type else { return }
        throw ObjectError(
            .typeMismatch, object: entity.name, key: key, "the value is \(value.type) but the attribute is \(type)")
    }
}
