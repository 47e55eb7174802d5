import SeedKitModel

/// Where a typed property is declared, as one number: how a property wrapper finds its storage slot.
///
/// A property wrapper cannot know its property's name. Its initializer's default arguments, though, are evaluated at
/// the declaration, so `#fileID`, `#line` and `#column` tell declarations apart; reflecting a prototype once per class
/// maps each key to its property name, and the entity maps the name to a slot.
@usableFromInline
struct PropertyKey: Hashable, Sendable {
    @usableFromInline let rawValue: UInt64

    @usableFromInline
    init(fileID: StaticString, line: UInt, column: UInt) {
        // A literal's address is fixed for the life of the process, and keys never outlive it.
        let file = UInt64(UInt(bitPattern: fileID.utf8Start))
        var mixed = file &* 0x9E37_79B9_7F4A_7C15
        mixed ^= UInt64(line) << 24 ^ UInt64(column)
        rawValue = mixed
    }
}

/// What reflection reads from a typed property's wrapper.
protocol ReflectableProperty {
    var key: PropertyKey { get }
    /// The property's declaration; `name` is the property name without the wrapper's underscore.
    func declaration(named name: String) -> PropertyDeclaration
}

enum PropertyDeclaration {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription, destinationClass: ManagedObject.Type)
}
