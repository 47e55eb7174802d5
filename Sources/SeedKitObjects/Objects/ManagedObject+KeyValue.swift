import Foundation
import SeedKitModel
import SeedKitSupport

extension ManagedObject {
    /// The value of an attribute, a to-one relationship's object, or a to-many relationship's members.
    ///
    ///     try employee.value(forKey: "name")        // "Ann" as String
    ///     try employee.value(forKey: "department")  // the Department, as ManagedObject
    ///     try department.value(forKey: "employees") // [ManagedObject]
    ///
    /// Attributes come back as `String`, `Int64`, `Double`, `Bool`, `Decimal`, `Date`, `Data`, `UUID`, `URL` or `JSON`.
    ///
    /// - Throws: ``ObjectError`` of kind `unknownKey`, suggesting the nearest property name.
    /// - Complexity: O(1) on average.
    public func value(forKey key: String) throws -> Any? {
        if let index = entity.attributeIndex(named: key) { return attributeValue(at: index)?.anyValue }
        if let index = entity.relationshipIndex(named: key) {
            return entity.relationships[index].isToMany ? objects(at: index) : object(at: index)
        }
        throw unknownKey(key)
    }

    /// Sets an attribute or relationship by name, checking the value's type.
    ///
    ///     try employee.setValue("Ann", forKey: "name")
    ///     try employee.setValue(sales, forKey: "department")   // also adds the employee to sales.employees
    ///     try employee.setValue(nil, forKey: "hired")
    ///
    /// - Throws: ``ObjectError``: `unknownKey`; `typeMismatch` for a value of the wrong type or an object of the wrong
    ///   entity or context; `identityConflict` when another object of the context already has the identity this
    ///   value would give. Nothing changes when it throws.
    /// - Complexity: O(1) for an attribute or to-one; O(*m*) for a to-many of *m* members, old and new.
    public func setValue(_ value: Any?, forKey key: String) throws {
        if let index = entity.attributeIndex(named: key) {
            let attribute = entity.attributes[index]
            guard let value, !(value is NSNull) else {
                try setAttributeValue(nil, at: index)
                return
            }
            guard let converted = AttributeValue(value, as: attribute.type) else {
                throw ObjectError(
                    .typeMismatch, object: description, key: attribute.name,
                    "expected \(Self.expectation(for: attribute.type)), got \(type(of: value)) \(String(reflecting: value))")
            }
            try setAttributeValue(converted, at: index)
        } else if let index = entity.relationshipIndex(named: key) {
            let relationship = entity.relationships[index]
            if relationship.isToMany {
                let members: [Any]
                switch value {
                case nil, is NSNull: members = []
                case let array as [Any]: members = array
                case let set as Set<ManagedObject>: members = Array(set)
                default:
                    throw ObjectError(
                        .typeMismatch, object: description, key: relationship.name,
                        "expected an array of \(relationship.destination) objects, got \(type(of: value!))")
                }
                let objects = try members.map { try checkedDestination($0, for: relationship) }
                setObjects(objects, at: index)
            } else {
                let target = try value.flatMap { $0 is NSNull ? nil : try checkedDestination($0, for: relationship) }
                setObject(target, at: index)
            }
        } else {
            throw unknownKey(key)
        }
    }

    /// The value at a key path through to-one relationships, e.g. `"department.name"`; nil when a step is nil.
    ///
    /// A step through a to-many relationship collects the values of every member, as Core Data does; a collection
    /// operator after one reduces them: `"employees.@count"`, `"employees.@sum.salary"`, and `@avg`, `@min`, `@max`,
    /// `@distinctUnionOfObjects`.
    ///
    /// - Throws: ``ObjectError`` of kind `unknownKey`, naming the step and entity.
    /// - Complexity: O(*k*) for *k* steps through to-one relationships; a step through a to-many visits
    ///   every member.
    public func value(forKeyPath keyPath: String) throws -> Any? {
        var steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let position = steps.firstIndex(where: { $0.hasPrefix("@") }) {
            return try collectionOperatorValue(keyPath, steps: steps, at: position)
        }
        let last = steps.removeLast()
        let (current, collects) = try objects(along: steps, keyPath: keyPath)
        if collects { return try current.map { try $0.value(forKey: last) as Any } }
        return try current.first?.value(forKey: last)
    }

    /// The objects a key path's relationship steps reach from this object, and whether a step was to-many.
    ///
    /// - Throws: ``ObjectError``: `brokenKeyPath` for a step that is an attribute, `unknownKey` for one that is nothing.
    /// - Complexity: O(*m*) in the objects reached.
    func objects(along steps: [String], keyPath: String) throws -> (objects: [ManagedObject], passesToMany: Bool) {
        var current: [ManagedObject] = [self]
        var passesToMany = false
        for step in steps {
            var next: [ManagedObject] = []
            for object in current {
                guard let index = object.entity.relationshipIndex(named: step) else {
                    if object.entity.attributeIndex(named: step) != nil {
                        throw ObjectError(
                            .brokenKeyPath, object: object.description, key: step,
                            "'\(step)' is an attribute; key path '\(keyPath)' can only pass through relationships")
                    }
                    throw object.unknownKey(step)
                }
                if object.entity.relationships[index].isToMany {
                    passesToMany = true
                    next += object.objects(at: index)
                } else if let target = object.object(at: index) {
                    next.append(target)
                }
            }
            current = next
        }
        return (current, passesToMany)
    }

    /// Sets the value at a key path whose every step before the last is a to-one relationship.
    ///
    /// - Throws: ``ObjectError``: `brokenKeyPath` when a step is nil or to-many, and what ``setValue(_:forKey:)`` throws.
    /// - Complexity: as ``value(forKeyPath:)`` to the last step, then ``setValue(_:forKey:)``.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        var steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = steps.removeLast()
        var object: ManagedObject = self
        for step in steps {
            guard let index = object.entity.relationshipIndex(named: step) else { throw object.unknownKey(step) }
            guard !object.entity.relationships[index].isToMany else {
                throw ObjectError(
                    .brokenKeyPath, object: object.description, key: step,
                    "'\(step)' is to-many; a key path that sets a value passes through to-one relationships only")
            }
            guard let target = object.object(at: index) else {
                throw ObjectError(
                    .brokenKeyPath, object: object.description, key: step, "is nil, so '\(keyPath)' cannot be set")
            }
            object = target
        }
        try object.setValue(value, forKey: last)
    }

    /// Adds an object to a to-many relationship, keeping the inverse consistent.
    ///
    /// - Throws: ``ObjectError`` for an unknown or to-one key, or an object of the wrong entity.
    public func add(_ object: ManagedObject, to key: String) throws {
        let index = try toManyIndex(key)
        addObject(try checkedDestination(object, for: entity.relationships[index]), at: index)
    }

    /// Removes an object from a to-many relationship, keeping the inverse consistent.
    public func remove(_ object: ManagedObject, from key: String) throws {
        removeObject(object, at: try toManyIndex(key))
    }

    /// The raw value of the attribute at `index` in ``Entity/attributes``.
    ///
    /// - Complexity: O(1).
    package func attributeValue(at index: Int) -> AttributeValue? {
        if let observation { observation.access(self, slot: index) }
        return attributeValues[index]
    }

    /// Sets the attribute at `index`, checking its type and, for identity attributes, that the identity stays unique.
    ///
    /// - Complexity: O(1) on average.
    package func setAttributeValue(_ value: AttributeValue?, at index: Int) throws {
        let attribute = entity.attributes[index]
        if let value, value.type != attribute.type {
            throw ObjectError(
                .typeMismatch, object: description, key: attribute.name,
                "expected \(Self.expectation(for: attribute.type)), got a \(value.type) value")
        }
        if case .double(let double)? = value, !double.isFinite {
            throw ObjectError(.typeMismatch, object: description, key: attribute.name, "expected a finite number, got \(double)")
        }
        if entity.identityIndices.contains(index), let value, let context {
            let proposed = entity.identityIndices.map { $0 == index ? value : attributeValues[$0] }
            if proposed.allSatisfy({ $0 != nil }),
                let holder = context.registeredObject(rootEntity: entity.rootName, identity: proposed.map { $0! }),
                holder !== self
            {
                throw ObjectError(
                    .identityConflict, object: description, key: attribute.name,
                    "\(holder) already has this identity in the context")
            }
        }
        setAttributeValueUnchecked(value, at: index)
    }

    /// Sets an attribute whose type the caller has already checked (typed properties, decoders).
    @usableFromInline
    package func setAttributeValueUnchecked(_ value: AttributeValue?, at index: Int) {
        guard attributeValues[index] != value else { return }
        let isIdentity = entity.identityIndices.contains(index)
        let oldIdentity = isIdentity ? identityValues : nil
        willChange(attribute: index)
        willChange(slot: index)
        attributeValues[index] = value
        didChange(slot: index)
        if isIdentity { context?.identityDidChange(self, from: oldIdentity) }
    }

    func unknownKey(_ key: String) -> ObjectError {
        let names = entity.propertyNames
        return ObjectError(
            .unknownKey, object: description, key: key,
            "\(entity.name) has no property '\(key)'\(Suggestion.didYouMean(key, among: names)); it has: \(names.joined(separator: ", "))")
    }

    private func toManyIndex(_ key: String) throws -> Int {
        guard let index = entity.relationshipIndex(named: key) else { throw unknownKey(key) }
        guard entity.relationships[index].isToMany else {
            throw ObjectError(.typeMismatch, object: description, key: key, "is a to-one relationship; set it with setValue")
        }
        return index
    }

    private func checkedDestination(_ value: Any, for relationship: RelationshipDescription) throws -> ManagedObject {
        guard let object = value as? ManagedObject else {
            throw ObjectError(
                .typeMismatch, object: description, key: relationship.name,
                "expected a \(relationship.destination) object, got \(type(of: value))")
        }
        guard object.entity.isKind(of: relationship.destination) else {
            throw ObjectError(
                .typeMismatch, object: description, key: relationship.name,
                "expected a \(relationship.destination) object, got \(object.entity.name) \(object)")
        }
        guard object.context === context else {
            throw ObjectError(
                .wrongContext, object: description, key: relationship.name,
                "\(object) belongs to another context; related objects must share one")
        }
        return object
    }

    static func expectation(for type: AttributeType) -> String {
        switch type {
        case .string: "a string (String)"
        case .integer: "an integer (Int, Int64, …)"
        case .double: "a number (Double)"
        case .bool: "a boolean (Bool)"
        case .decimal: "a decimal (Decimal)"
        case .date: "a date (Date or Timestamp)"
        case .data: "bytes (Data)"
        case .uuid: "a UUID"
        case .url: "a URL"
        case .json: "a JSON value (JSON)"
        }
    }
}
