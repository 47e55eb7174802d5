/// The description of an attribute: its name, type, whether it may be missing, its default and its old names.
///
///     AttributeDescription("hired", .date, isOptional: true)
///     AttributeDescription("address", .string, isOptional: true, defaultValue: .string(""))
public struct AttributeDescription: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    /// Whether an object may lack a value. A required attribute must have one when its object is saved.
    public var isOptional: Bool
    /// The value a newly inserted object starts with.
    public var defaultValue: AttributeValue?
    /// Old names still accepted when reading.
    public var aliases: [String]

    public init(
        _ name: String, _ type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue? = nil,
        aliases: [String] = []
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.aliases = aliases
    }
}
