import SeedKitSupport
import SeedKitJSON
import SeedKitObjects

// Second phase of a decoder run: references resolved, facts about each link gathered from both of its ends, and
// every pending object checked against the context. Still nothing is changed.

extension GraphReading {
    /// Resolves `"$ref"`s and records each relationship fact on its source, and on its target through a to-one
    /// inverse, so that contradictions between the two ends are found.
    func resolve() {
        for fact in relationshipFacts {
            let source = fact.source
            let relationship = source.entity.relationships[fact.index]
            func link(_ link: Link, at place: Place) {
                guard let target = resolved(link, at: place) else { return }
                guard target.entity.isKind(of: relationship.destination) else {
                    problem(
                        .typeMismatch, at: place,
                        "\(describe(target)) is not a \(relationship.destination); '\(relationship.name)' of \(source.entity.name) holds \(model.destination(of: relationship).kinds.joined(separator: ", ")) objects")
                    return
                }
                if relationship.isToMany {
                    source.toMany[fact.index, default: MemberList()].append(target)
                } else {
                    state(target, for: source, at: fact.index, place: place, isStated: true)
                }
                if let inverseName = relationship.inverse, let inverseIndex = target.entity.relationshipIndex(named: inverseName),
                    !target.entity.relationships[inverseIndex].isToMany
                {
                    state(source, for: target, at: inverseIndex, place: place, isStated: false)
                }
            }
            switch fact.value {
            case .null where relationship.isToMany:
                source.clearedToMany.insert(fact.index)
            case .null:
                state(nil, for: source, at: fact.index, place: fact.place, isStated: true)
            case .target(let target):
                link(target, at: fact.place)
            case .members(let members):
                for (member, place) in members { link(member, at: place) }
            }
        }
        for (link, place) in rootLinks { _ = resolved(link, at: place) }
    }

    private func resolved(_ link: Link, at place: Place) -> PendingObject? {
        switch link {
        case .object(let pending):
            return pending
        case .reference(let id):
            if let fact = pendingByID[id] { return fact.value }
            let ids = pendingByID.keys.sorted()
            let suggestion = Suggestion.didYouMean(id, among: ids)
            problem(
                .unresolvedReference, at: place.appending("$ref"),
                "no object has \"$id\": \"\(id)\"" + suggestion
                    + (suggestion.isEmpty && !ids.isEmpty && ids.count <= 20 ? "; ids are: \(ids.joined(separator: ", "))" : ""))
            return nil
        }
    }

    /// Records a to-one target of `pending`; a different target stated elsewhere is a conflict.
    private func state(_ target: PendingObject?, for pending: PendingObject, at index: Int, place: Place, isStated: Bool) {
        if isStated { pending.statedToOne.insert(index) }
        guard let stated = pending.toOne[index] else {
            pending.toOne[index] = Fact(value: target, place: place)
            return
        }
        guard stated.value !== target else { return }
        let name = pending.entity.relationships[index].name
        problem(
            .identityConflict, at: place,
            "\(describe(pending)).\(name) is \(target.map(describe) ?? "null") here but \(stated.value.map(describe) ?? "null") at \(describe(stated.place))",
            related: stated.place)
    }

    /// Finds the context's object of each pending object with identity, and checks what creating or changing it needs.
    func check() {
        for pending in pendingObjects {
            if pending.existing == nil, let identity = pending.identity {
                pending.existing = context.existingObject(rootEntity: pending.entity.rootName, identity: identity)
            }
            if let existing = pending.existing {
                guard existing.entity.isKind(of: pending.entity.name) else {
                    problem(
                        .identityConflict, at: pending.definitionPlace ?? pending.firstPlace,
                        "\(existing) is a \(existing.entity.name) in the context, so it cannot be a \(pending.entity.name)")
                    continue
                }
                pending.entity = existing.entity
                checkIdentityChange(of: pending, existing: existing)
                continue
            }
            let missing = pending.entity.attributes.indices.filter { index in
                let attribute = pending.entity.attributes[index]
                return !attribute.isOptional && pending.attributes[index] == nil && attribute.defaultValue == nil
                    && !pending.unreadableAttributes.contains(index)
            }
            guard !missing.isEmpty else { continue }
            // As the input writes them.
            let names = missing.map { "'\(pending.entity.attributeKeys[$0])'" }.joined(separator: ", ")
            let noun = missing.count == 1 ? "attribute" : "attributes"
            if pending.identity == nil {
                problem(.missingValue, at: pending.firstPlace, "missing required \(noun) \(names) of \(pending.entity.name)")
            } else if let place = pending.definitionPlace {
                problem(.missingValue, at: place, "\(describe(pending)) lacks required \(noun) \(names)")
            } else {
                problem(
                    .missingValue, at: pending.firstPlace,
                    "\(describe(pending)) is referenced but never defined; it lacks required \(noun) \(names)")
            }
        }
    }

    /// New identity values for an object the context has must not be another object's.
    private func checkIdentityChange(of pending: PendingObject, existing: ManagedObject) {
        let indices = existing.entity.identityIndices
        guard indices.contains(where: { pending.attributes[$0] != nil }) else { return }
        let proposed = indices.map { pending.attributes[$0]?.value ?? existing.attributeValues[$0] }
        guard proposed.allSatisfy({ $0 != nil }) else { return }
        let identity = proposed.map { $0! }
        if let holder = context.existingObject(rootEntity: existing.entity.rootName, identity: identity), holder !== existing {
            let place = indices.compactMap { pending.attributes[$0]?.place }.first ?? pending.firstPlace
            problem(.identityConflict, at: place, "\(holder) already has this identity in the context")
        }
    }

    /// The problems as public errors, with line and column for inputs parsed from text.
    func decodingErrors() -> GraphDecodingErrors {
        var errors: [GraphDecodingError] = []
        for (index, input) in inputs.enumerated() {
            if let syntax = syntaxErrors[index] {
                errors.append(
                    GraphDecodingError(.syntax, pointer: .root, file: input.file, location: syntax.location, message: syntax.message))
            }
        }
        for problem in problems {
            errors.append(
                GraphDecodingError(
                    problem.kind, pointer: problem.place.pointer, file: inputs[problem.place.input].file,
                    location: location(of: problem.place, isAtKey: problem.isAtKey), message: problem.message,
                    relatedPointer: problem.related?.pointer,
                    relatedLocation: problem.related.flatMap { location(of: $0, isAtKey: false) }))
        }
        return GraphDecodingErrors(errors: errors)
    }

    /// The document of an input, for locations; a text input is parsed again (and read again, if it was let go), as
    /// its value was let go after reading.
    private func document(of input: Int) -> JSONDocument? {
        if let document = inputs[input].document ?? reparsed[input] { return document }
        guard let text = inputs[input].text ?? inputs[input].reload?(),
            let document = try? JSONDocument(parsing: text, file: inputs[input].file)
        else {
            return nil
        }
        reparsed[input] = document
        return document
    }

    /// The location of a place in text input: of its key or its value, or of the nearest enclosing value that exists.
    private func location(of place: Place, isAtKey: Bool) -> SourceLocation? {
        guard let document = document(of: place.input) else { return nil }
        if isAtKey, let location = document.locationOfKey(place.pointer) { return location }
        var pointer: JSONPointer? = place.pointer
        while let current = pointer {
            if let location = document.location(of: current) { return location }
            pointer = current.parent
        }
        return nil
    }
}
