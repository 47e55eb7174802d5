/// The type of an attribute's values.
///
/// The raw value is the name used in model files: `"string"`, `"integer"`, `"decimal"`, …
public enum AttributeType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Text.
    case string
    /// A 64-bit signed integer.
    case integer
    /// A finite 64-bit floating-point number.
    case double
    case bool
    /// An exact decimal number and its scale (``ScaledDecimal``), never converted through `Double`.
    case decimal
    /// A point in time, UTC, with fractional seconds kept exactly (see ``Timestamp``).
    case date
    /// Bytes; base64 in JSON.
    case data
    case uuid
    case url
    /// Any JSON value, kept as is.
    case json

    public var description: String { rawValue }
}
