import SeedKitModel

extension GraphDiff {
    /// The model changes between two models, in the model file's terms: entities added or removed, and for an entity
    /// on both sides, each attribute, relationship or setting (identity, parent, aliases) added, removed or changed.
    ///
    ///     ~ model.Employee.salary: "decimal" → "decimal?"
    ///
    /// - Complexity: O(*p*) for *p* properties in the two models.
    static func modelChanges(from old: EntityModel, to new: EntityModel) -> [GraphChange] {
        guard old != new, case .object(let before)? = old.json["entities"], case .object(let after)? = new.json["entities"]
        else { return [] }
        var changes: [GraphChange] = []
        for entity in Set(before.keys).union(after.keys).sorted() where before[entity] != after[entity] {
            guard case .object(let oldEntity)? = before[entity], case .object(let newEntity)? = after[entity] else {
                changes.append(GraphChange(kind: .model, object: "model", property: entity, old: before[entity], new: after[entity]))
                continue
            }
            for setting in Set(oldEntity.keys).union(newEntity.keys).sorted() where oldEntity[setting] != newEntity[setting] {
                guard setting == "attributes" || setting == "relationships" else {
                    changes.append(GraphChange(
                        kind: .model, object: "model", property: "\(entity).\(setting)", old: oldEntity[setting],
                        new: newEntity[setting]))
                    continue
                }
                let oldProperties = oldEntity[setting]?.objectValue ?? [:]
                let newProperties = newEntity[setting]?.objectValue ?? [:]
                for property in Set(oldProperties.keys).union(newProperties.keys).sorted()
                where oldProperties[property] != newProperties[property] {
                    changes.append(GraphChange(
                        kind: .model, object: "model", property: "\(entity).\(property)", old: oldProperties[property],
                        new: newProperties[property]))
                }
            }
        }
        return changes
    }
}
