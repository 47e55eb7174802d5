import SeedKitJSON

/// How every output names an object by its identity: the entity, then each identity attribute and its value, in
/// identity order.
///
///     ObjectKeySpelling.text(entity: "Department", identity: ["name"], values: [.string("Engineering")])
///     // Department[name=Engineering]
///     ObjectKeySpelling.text(entity: "Department", identity: ["name"], values: [.string("A, B")])
///     // Department[name="A, B"]
///
/// A string is written as is unless it could be misread — empty, holding one of `[],="`, starting or ending with
/// white space — or holds a control character: then it is quoted and escaped as a JSON string, as is every value
/// that is not a string (numbers and booleans read the same either way). Descriptions of objects, error messages,
/// diff paths and reports all use this one spelling.
///
/// - Complexity: O(*n*) in the size of the values.
package enum ObjectKeySpelling {
    /// `Entity[name=value,other=value]`.
    package static func text(entity: String, identity names: [String], values: [JSON]) -> String {
        var text = entity + "["
        for (index, (name, value)) in zip(names, values).enumerated() {
            if index > 0 { text += "," }
            text += name + "=" + self.value(value)
        }
        return text + "]"
    }

    /// The spelling of an object of `entity` with these identity values, in identity order.
    package static func text(_ entity: Entity, identity values: [AttributeValue]) -> String {
        text(entity: entity.name, identity: entity.identity, values: values.map(\.json))
    }

    /// `Entity[$id=Address-1]`: an object without identity, named by the `"$id"` its document gives it.
    package static func text(entity: String, id: String) -> String {
        "\(entity)[$id=\(value(.string(id)))]"
    }

    /// One value as it appears in a key: a plain string as is, anything else as JSON.
    package static func value(_ value: JSON) -> String {
        if case .string(let text) = value, isPlain(text) { return text }
        return value.text(style: .canonical)
    }

    private static func isPlain(_ text: String) -> Bool {
        guard let first = text.first, let last = text.last, !first.isWhitespace, !last.isWhitespace else { return false }
        return !text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F: true
            default: "[],=\"".unicodeScalars.contains(scalar)
            }
        }
    }
}
