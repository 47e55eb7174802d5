import SeedKitSupport
import SeedKitJSON

/// Which end of a relationship keeps its links: the same for every store, so that a store's schema and the seeding
/// pipeline, which plans what each row holds, agree.
///
///     model.linkStorage(of: employee.relationship(named: "department")!, in: employee)   // .sourceColumn
///     model.linkStorage(of: department.relationship(named: "employees")!, in: department)
///     // .memberColumn(inverse: "department", isOrdered: false)
package enum LinkStorage: Equatable {
    /// A column of the source's row: a to-one.
    case sourceColumn
    /// A column of each member's row, its inverse to-one, and the member's place when the relationship is ordered.
    case memberColumn(inverse: String, isOrdered: Bool)
    /// Rows of a join table: a many-to-many, or a to-many without inverse. The owner end is the table's `source`;
    /// it is named after the owner end's declaring entity and relationship, and keeps the owner end's order.
    case joinTable(name: String, isOwner: Bool, isOrdered: Bool)
}

extension EntityModel {
    /// Where the links of `relationship`, a relationship of `entity`, are kept.
    ///
    /// The owner end of a join table is the ordered end when one end is ordered (its order is what the table
    /// keeps), else the end whose declaring entity and name sort first.
    ///
    /// - Complexity: O(*d*) in the depth of the entities' inheritance.
    package func linkStorage(of relationship: RelationshipDescription, in entity: Entity) -> LinkStorage {
        guard relationship.isToMany else { return .sourceColumn }
        let destination = destination(of: relationship)
        let inverse = relationship.inverse.flatMap { destination.relationship(named: $0) }
        if let inverse, !inverse.isToMany { return .memberColumn(inverse: inverse.name, isOrdered: relationship.isOrdered) }
        let mine = (declaringEntity(of: relationship.name, in: entity), relationship.name)
        guard let inverse else { return .joinTable(name: "\(mine.0)_\(mine.1)", isOwner: true, isOrdered: relationship.isOrdered) }
        let theirs = (declaringEntity(of: inverse.name, in: destination), inverse.name)
        let isOwner = relationship.isOrdered != inverse.isOrdered ? relationship.isOrdered : mine <= theirs
        let owner = isOwner ? mine : theirs
        return .joinTable(
            name: "\(owner.0)_\(owner.1)", isOwner: isOwner, isOrdered: isOwner ? relationship.isOrdered : inverse.isOrdered)
    }

    /// The entity of `entity`'s lineage that declares the relationship `name`.
    func declaringEntity(of name: String, in entity: Entity) -> String {
        entity.lineage.last { self.entity(named: $0)?.declaration.relationships.contains { $0.name == name } ?? false }
            ?? entity.name
    }
}
