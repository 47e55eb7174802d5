/// The description of an attribute: its name, type, whether it may be missing, its default, its old names and, for
/// a date, how templates write it.
///
///     AttributeDescription("hired", .date, isOptional: true)
///     AttributeDescription("address", .string, isOptional: true, defaultValue: .string(""))
///     AttributeDescription("updated", .date, dateFormat: .secondsSince1970)   // "updated": 1714555800
public struct AttributeDescription: Sendable, Hashable {
    /// How templates and dictionaries write a date attribute's values (model file: `"dateFormat"`).
    public enum DateFormat: String, Sendable, Hashable, CaseIterable {
        /// An ISO 8601 string, `"2024-05-01T09:30:00Z"` (the default).
        case iso8601
        /// A number of seconds since 1970-01-01T00:00:00Z, `1714555800`, with a fraction down to the nanosecond.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z, `1714555800000`, with a fraction down to the
        /// nanosecond.
        case millisecondsSince1970
    }

    public var name: String
    public var type: AttributeType
    /// Whether an object may lack a value. A required attribute must have one when its object is saved.
    public var isOptional: Bool
    /// The value a newly inserted object starts with.
    public var defaultValue: AttributeValue?
    /// Old names still accepted when reading.
    public var aliases: [String]
    /// How templates and dictionaries write the values of a date attribute; other types are always `.iso8601`.
    public var dateFormat: DateFormat

    public init(
        _ name: String, _ type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue? = nil,
        aliases: [String] = [], dateFormat: DateFormat = .iso8601
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.aliases = aliases
        self.dateFormat = dateFormat
    }
}
