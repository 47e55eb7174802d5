import SeedKitModel

/// An object's attribute values by attribute index: the first four in the object's own memory, any others in an
/// array beside them.
///
///     var values = AttributeValues(entity.defaultValues)
///     values[0] = .string("Ann")
///     for value in values { … }
///
/// Most entities have few attributes. An array of its own cost every object an allocation to make and a free to
/// destroy — for an object fetched by identity, about as much as filling it from its row — where values kept in the
/// object come and go with it. The fifth value and later ones stay in the array they came from, the entity's
/// defaults for a new object, until one of them changes.
///
/// - Complexity: O(1) to read or write a value; copying copies the inline values and shares the array.
@usableFromInline
package struct AttributeValues: RandomAccessCollection, MutableCollection {
    @usableFromInline var inline: (AttributeValue?, AttributeValue?, AttributeValue?, AttributeValue?)
    /// A value per attribute, of which only the fifth and later ones are read: the array the values came from, kept
    /// whole so that it is shared as it is (and gives the count) rather than copied from the fifth value on.
    @usableFromInline var overflow: [AttributeValue?]

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { overflow.count }

    @inlinable
    package subscript(index: Int) -> AttributeValue? {
        @inline(__always)
        get {
            precondition(index >= 0 && index < endIndex, "attribute index out of range")
            switch index {
            case 0: return inline.0
            case 1: return inline.1
            case 2: return inline.2
            case 3: return inline.3
            default: return overflow[index]
            }
        }
        @inline(__always)
        set {
            precondition(index >= 0 && index < endIndex, "attribute index out of range")
            switch index {
            case 0: inline.0 = newValue
            case 1: inline.1 = newValue
            case 2: inline.2 = newValue
            case 3: inline.3 = newValue
            default: overflow[index] = newValue
            }
        }
    }
}

// In an extension, so that the initializer below hands its values to the memberwise one: assigning them one by one
// made the optimizer copy the whole value and destroy the original.
extension AttributeValues {
    /// The values in order, one per attribute.
    package init(_ values: [AttributeValue?]) {
        let count = values.count
        self.init(
            inline: (
                count > 0 ? values[0] : nil, count > 1 ? values[1] : nil, count > 2 ? values[2] : nil,
                count > 3 ? values[3] : nil
            ),
            overflow: values)
    }
}
