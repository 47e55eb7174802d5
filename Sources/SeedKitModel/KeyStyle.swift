/// How the keys of templates and dictionaries spell property names: as declared, or in snake_case, as many JSON APIs
/// and Django fixtures write them.
///
///     KeyStyle.snakeCase.key(for: "firstName")   // "first_name"
///     KeyStyle.snakeCase.key(for: "homeURL")     // "home_url"
///
/// A model file sets it for the whole model (`"keyStyle": "snake_case"`) or for one entity and its subentities.
/// Reading, `toDictionary` and template exports then use the styled keys only, so a template set round-trips
/// byte for byte; the model's own names — key-value coding, fetch requests, messages, object keys such as
/// `Employee[email=…]` — stay as declared.
public enum KeyStyle: String, Sendable, Hashable, CaseIterable {
    /// Keys are the property names as declared (the default).
    case propertyNames
    /// Keys are the property names in snake_case: a word starts at each capital, a run of capitals is one word.
    case snakeCase = "snake_case"

    /// The key a property name is written as.
    ///
    /// - Complexity: O(*n*) in the length of the name.
    public func key(for name: String) -> String {
        guard self == .snakeCase else { return name }
        let bytes = Array(name.utf8)
        guard bytes.contains(where: Self.isUppercase) else { return name }
        var key: [UInt8] = []
        key.reserveCapacity(bytes.count + 4)
        for (index, byte) in bytes.enumerated() {
            guard Self.isUppercase(byte) else {
                key.append(byte)
                continue
            }
            if index > 0 {
                let previous = bytes[index - 1]
                // A word starts after a lower-case letter or digit, and at the last capital of a run that a
                // lower-case letter follows: homeURL → home_url, URLString → url_string.
                let startsWord = Self.isLowercaseOrDigit(previous)
                    || (Self.isUppercase(previous) && index + 1 < bytes.count && Self.isLowercase(bytes[index + 1]))
                if startsWord { key.append(UInt8(ascii: "_")) }
            }
            key.append(byte + 0x20)
        }
        return String(decoding: key, as: UTF8.self)
    }

    private static func isUppercase(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }
    private static func isLowercase(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    private static func isLowercaseOrDigit(_ byte: UInt8) -> Bool { isLowercase(byte) || (0x30...0x39).contains(byte) }
}
