import Foundation
import SeedKitModel
import SeedKitSupport

extension ObjectContext {
    /// The objects a request asks for, from the objects the context holds.
    ///
    ///     let engineers = try context.fetch(FetchRequest("Employee", filters: [AttributeFilter("title", .equal, "Engineer")]))
    ///
    /// Without a sort key, objects come in the order they were registered. Over a store, the store runs the request,
    /// and rows already registered come back as the registered objects, unsaved changes kept; while the context has
    /// unsaved changes, or for what the store cannot run (with SQLite, sorts and range filters on decimals and JSON),
    /// the final filtering, sort and limit happen in memory over the stored candidates and the changed objects.
    ///
    /// - Throws: ``ObjectError`` for an unknown entity or attribute, or a filter value of the wrong type.
    /// - Complexity: O(*n* log *n*) in the number of registered objects.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let entity = try entity(named: request.entityName)
        let filters = try request.filters.map { filter -> (Int, AttributeFilter) in
            let index = try attributeIndex(filter.key, of: entity)
            if let value = filter.value, value.type != entity.attributes[index].type {
                throw ObjectError(
                    .typeMismatch, object: entity.name, key: filter.key,
                    "filter value is \(value.type) but the attribute is \(entity.attributes[index].type)")
            }
            return (index, filter)
        }
        let sortKeys = try request.sortedBy.map { (try attributeIndex($0.key, of: entity), $0.ascending) }
        let candidates: [ManagedObject]
        if store != nil {
            let stored = try fetchFromStore(request, entity: entity, filters: filters, sortKeys: sortKeys)
            if stored.isFinal { return stored.objects }
            candidates = stored.objects
        } else {
            candidates = registered.objects
        }
        var results = candidates.filter { object in
            (request.includesSubentities ? object.entity.isKind(of: entity.name) : object.entity === entity)
                && filters.allSatisfy { index, filter in filter.matches(object.attributeValues[index]) }
        }
        results.sort { a, b in
            for (index, ascending) in sortKeys {
                let order = Self.order(a.attributeValues[index], b.attributeValues[index])
                if order != .orderedSame { return ascending ? order == .orderedAscending : order == .orderedDescending }
            }
            return a.objectID < b.objectID
        }
        if let limit = request.limit, limit < results.count { results.removeSubrange(max(0, limit)...) }
        return results
    }

    /// Every object of an entity and its subentities.
    public func fetch(_ entityName: String) throws -> [ManagedObject] {
        try fetch(FetchRequest(entityName))
    }

    /// Every object of a typed class's entity and its subentities.
    ///
    ///     let departments = try context.fetch(Department.self)
    @inlinable
    public func fetch<Object: ManagedObject>(_ objectClass: Object.Type, _ request: FetchRequest? = nil) throws -> [Object] {
        var request = request ?? FetchRequest(objectClass.entityName)
        request.entityName = objectClass.entityName
        // Inlinable so the cast is specialized for the caller's class: unspecialized, it costs about what fetching
        // a row does.
        return try fetch(request).compactMap { $0 as? Object }
    }

    /// The number of objects a request matches.
    public func count(_ request: FetchRequest) throws -> Int {
        if store != nil, let count = try countInStore(request) { return count }
        var unlimited = request
        unlimited.sortedBy = []
        return min(try fetch(unlimited).count, request.limit ?? .max)
    }

    private func attributeIndex(_ key: String, of entity: Entity) throws -> Int {
        guard let index = entity.attributeIndex(named: key) else {
            let names = entity.attributes.map(\.name)
            throw ObjectError(
                .unknownKey, object: entity.name, key: key,
                "\(entity.name) has no attribute '\(key)'\(Suggestion.didYouMean(key, among: names)); filters and sort keys name attributes: \(names.joined(separator: ", "))")
        }
        return index
    }

    package static func order(_ a: AttributeValue?, _ b: AttributeValue?) -> ComparisonResult {
        switch (a, b) {
        case (nil, nil): .orderedSame
        case (nil, _): .orderedAscending
        case (_, nil): .orderedDescending
        case (let a?, let b?): a.compare(to: b) ?? .orderedSame
        }
    }
}

extension AttributeFilter {
    func matches(_ stored: AttributeValue?) -> Bool {
        switch (stored, value) {
        case (nil, nil): return comparison == .equal || comparison == .lessOrEqual || comparison == .greaterOrEqual
        case (nil, _), (_, nil): return comparison == .notEqual
        case (let stored?, let value?):
            let order = stored.compare(to: value) ?? .orderedSame
            switch comparison {
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
