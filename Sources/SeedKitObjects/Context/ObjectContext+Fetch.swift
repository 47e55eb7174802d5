import Foundation
import SeedKitModel
import SeedKitSupport

extension ObjectContext {
    /// The objects a request asks for, from the objects the context holds.
    ///
    ///     let engineers = try context.fetch(FetchRequest("Employee", predicate: FetchKey("title") == "Engineer"))
    ///
    /// Without a sort key, objects come in the order they were registered. Over a store, the store runs the request,
    /// and rows already registered come back as the registered objects, unsaved changes kept; while the context has
    /// unsaved changes, or for what the store cannot run (with SQLite, order and equality of decimals, order of
    /// JSON), the final filtering, sort, offset and limit happen in memory over the stored candidates and the changed
    /// objects. Both evaluations give the same result (see ``FetchPredicate``).
    ///
    /// - Throws: ``ObjectError`` for an unknown entity or key path, or a value of the wrong type.
    /// - Complexity: O(*n* log *n*) in the number of candidates; what the store's query costs over a store.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        try fetch(request, entity: try entity(named: request.entityName))
    }

    /// The objects a request of `entity` asks for (see ``fetch(_:)-(FetchRequest)``).
    ///
    /// Takes the entity its caller looked up, so that it moves into the store's fetch rather than being retained there.
    private func fetch(_ request: FetchRequest, entity: consuming Entity) throws -> [ManagedObject] {
        var predicate = try request.predicate?.resolved(for: entity, in: model)
        let sortKeys = try request.sortedBy.map { (path: try model.attributePath($0.key, from: entity), ascending: $0.ascending) }
        if store != nil {
            let hasChanges = hasChanges
            // A stored object whose destination changed in memory matches by the new values, so the store must not
            // filter by a predicate passing through changed objects: the in-memory pass alone has it.
            let unfiltered = hasChanges && predicate.map(passesChangedDestinations) == true ? predicate.take() : nil
            // The predicate and sort keys move into the store's fetch, and the in-memory pass reads them there: a
            // copy retained and released each of their references on every fetch.
            let fetch = StoreFetch(
                request: request, entity: consume entity, predicate: consume predicate, sortKeys: consume sortKeys,
                mayBeFinal: !hasChanges)
            let stored = try fetchFromStore(fetch)
            if stored.isFinal { return stored.objects }
            return finish(
                request, entity: fetch.entity, stored.objects, predicate: unfiltered ?? fetch.predicate,
                sortKeys: fetch.sortKeys)
        }
        if let parent {
            // A child sees what its parent holds, unsaved changes included, as its own copies: the parent's objects
            // of the entity, then the predicate and sort here, where the child's edits are.
            var everything = request
            everything.predicate = nil
            everything.sortedBy = []
            everything.offset = 0
            everything.limit = nil
            try adoptAll(try parent.fetch(everything))
        }
        return finish(request, entity: entity, registered.objects, predicate: predicate, sortKeys: sortKeys)
    }

    /// The in-memory pass of a fetch: the candidates the predicate holds for, sorted, from the offset up to the limit.
    private func finish(
        _ request: FetchRequest, entity: Entity, _ candidates: [ManagedObject], predicate: ResolvedPredicate?,
        sortKeys: [(path: AttributePath, ascending: Bool)]
    ) -> [ManagedObject] {
        var results = candidates.filter { object in
            (request.includesSubentities ? object.entity.isKind(of: entity.name) : object.entity === entity)
                && predicate?.evaluate(object) ?? true
        }
        if !sortKeys.isEmpty {
            // Each key's values once per object, not once per comparison: a key path may pass through faults.
            let keyed = results.map { object in (object, sortKeys.map { $0.path.value(of: object) }) }
            results = keyed.sorted { a, b in
                for (position, key) in sortKeys.enumerated() {
                    let order = Self.order(a.1[position], b.1[position])
                    if order != .orderedSame { return key.ascending ? order == .orderedAscending : order == .orderedDescending }
                }
                return a.0.objectID < b.0.objectID
            }.map(\.0)
        } else {
            results.sort { $0.objectID < $1.objectID }
        }
        let start = min(max(0, request.offset), results.count)
        let end = request.limit.map { min(results.count, start + max(0, $0)) } ?? results.count
        return Array(results[start..<end])
    }

    /// Every object of an entity and its subentities.
    ///
    /// - Complexity: as ``fetch(_:)-(FetchRequest)``.
    public func fetch(_ entityName: String) throws -> [ManagedObject] {
        try fetch(FetchRequest(entityName))
    }

    /// Every object of a typed class's entity and its subentities, or those `request` asks for.
    ///
    ///     let departments = try context.fetch(Department.self)
    ///
    /// - Complexity: as ``fetch(_:)-(FetchRequest)``.
    @inlinable
    public func fetch<Object: ManagedObject>(_ objectClass: Object.Type, _ request: FetchRequest? = nil) throws -> [Object] {
        guard let request else { return Self.objects(try fetch(FetchRequest(objectClass.entityName)), of: objectClass) }
        return try fetch(objectClass, request)
    }

    /// The objects a request asks for, of a typed class.
    ///
    ///     let sales = try context.fetch(Department.self, FetchRequest("Department", predicate: FetchKey("name") == "Sales"))
    ///
    /// An overload of its own so that the request goes on as it is, without a copy into an optional and back.
    @inlinable
    public func fetch<Object: ManagedObject>(_ objectClass: Object.Type, _ request: FetchRequest) throws -> [Object] {
        Self.objects(try fetchObjects(of: objectClass, request), of: objectClass)
    }

    /// The objects of a typed fetch as the class's instances.
    ///
    /// Inlinable so the cast is specialized for the caller's class: unspecialized, it costs about what fetching a row
    /// does. A model from classes binds one to every entity, so the objects are nearly always all of the class: the
    /// array of their references is then the result as it is, as Swift's own array downcast does, not a copy.
    @inlinable
    static func objects<Object: ManagedObject>(_ objects: [ManagedObject], of objectClass: Object.Type) -> [Object] {
        if objects.allSatisfy({ $0 is Object }) { return unsafeBitCast(objects, to: [Object].self) }
        return objects.compactMap { $0 as? Object }
    }

    /// The objects of a typed fetch, of the class's entity. Its entity is looked up once, and the class asked for its
    /// own name only when the request names another entity, since the class's default name is made by reflection
    /// (costing about what a fetch by identity does).
    @usableFromInline
    func fetchObjects(of objectClass: ManagedObject.Type, _ request: FetchRequest) throws -> [ManagedObject] {
        if let entity = model.entity(named: request.entityName), entity.bindings?.objectClass == objectClass {
            return try fetch(request, entity: entity)
        }
        var renamed = request
        renamed.entityName = objectClass.entityName
        return try fetch(renamed)
    }

    /// The number of objects a request matches, after its offset and up to its limit.
    ///
    ///     let salesCount = try context.count(FetchRequest("Employee", predicate: FetchKey("department.name") == "Sales"))
    ///
    /// - Complexity: One count query over a store without unsaved changes; otherwise what
    ///   ``fetch(_:)-(FetchRequest)`` costs.
    public func count(_ request: FetchRequest) throws -> Int {
        if store != nil, let count = try countInStore(request) { return count }
        var unsorted = request
        unsorted.sortedBy = []
        return try fetch(unsorted).count
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
