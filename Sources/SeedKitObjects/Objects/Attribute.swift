import SeedKitModel

/// Declares a typed attribute of a ``ManagedObject`` subclass; its value lives in the object's storage.
///
///     final class Employee: ManagedObject {
///         @Attribute var name: String
///         @Attribute var hired: Date?                 // optional
///         @Attribute var address: String = ""        // a default for new objects
///         @Attribute(aliases: ["mail"]) var email: String
///     }
///
/// Reading a required attribute that has no value yet is a programming error, like force-unwrapping nil; declare it
/// optional or give it a default when it can be missing.
///
/// - Complexity: reading and writing are O(1): one hash lookup of the declaration's slot, then the storage access.
@propertyWrapper
public struct Attribute<Value: AttributeRepresentable>: ReflectableProperty {
    @usableFromInline let key: PropertyKey
    let defaultValue: AttributeValue?
    let aliases: [String]

    public init(aliases: [String] = [], fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
        key = PropertyKey(fileID: fileID, line: line, column: column)
        defaultValue = nil
        self.aliases = aliases
    }

    public init(
        wrappedValue: Value, aliases: [String] = [], fileID: StaticString = #fileID, line: UInt = #line,
        column: UInt = #column
    ) {
        key = PropertyKey(fileID: fileID, line: line, column: column)
        defaultValue = wrappedValue.attributeValue
        self.aliases = aliases
    }

    @available(*, unavailable, message: "@Attribute is only available on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            let index = object.attributeSlot(for: object[keyPath: storageKeyPath].key)
            if let observation = object.observation { observation.access(object, slot: index) }
            guard let value = Value(attributeValue: object.attributeValues[index]) else {
                object.missingRequiredValue(at: index)
            }
            return value
        }
        set {
            let index = object.attributeSlot(for: object[keyPath: storageKeyPath].key)
            object.setAttributeValueUnchecked(newValue.attributeValue, at: index)
        }
    }

    func declaration(named name: String) -> PropertyDeclaration {
        .attribute(
            AttributeDescription(
                name, Value.attributeType, isOptional: Value.isOptionalAttribute, defaultValue: defaultValue,
                aliases: aliases))
    }
}
