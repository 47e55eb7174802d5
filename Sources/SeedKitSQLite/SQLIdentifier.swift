/// A name that is safe to use as an SQL identifier: a table or column named after an entity or property.
///
/// Identifiers can't be bound as parameters, so they are validated and quoted instead; values are always bound.
///
///     let table = try SQLIdentifier(validating: "Department")
///     let sql = "SELECT name FROM \(table.quoted) WHERE id = ?"  // SELECT name FROM "Department" WHERE id = ?
///
/// A valid name matches `[A-Za-z_][A-Za-z0-9_]*` and doesn't start with `sqlite_`, which SQLite reserves for its own
/// tables. SQL keywords such as `Order` are valid: quoting makes them plain names.
package struct SQLIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The name as written in the model.
    package let name: String

    /// Checks `name` is usable as an identifier.
    ///
    /// - Throws: ``InvalidSQLIdentifierError`` saying what is wrong with `name`.
    package init(validating name: String) throws {
        if let reason = Self.problem(with: name) {
            throw InvalidSQLIdentifierError(identifier: name, reason: reason)
        }
        self.name = name
    }

    /// The name between double quotes, ready for SQL: `"Department"`.
    package var quoted: String {
        Self.quote(name)
    }

    package var description: String {
        name
    }

    /// Any string quoted as an SQL identifier: between double quotes, with inner double quotes doubled.
    ///
    ///     SQLIdentifier.quote(#"odd "name""#)  // "odd ""name"""
    ///
    /// Prefer ``init(validating:)`` for names that come from models or files.
    package static func quote(_ identifier: String) -> String {
        var quoted = "\""
        for character in identifier.unicodeScalars {
            quoted.unicodeScalars.append(character)
            if character == "\"" { quoted.unicodeScalars.append(character) }
        }
        quoted += "\""
        return quoted
    }

    private static func problem(with name: String) -> String? {
        guard let first = name.utf8.first else { return "it is empty" }
        if !(isASCIILetter(first) || first == UInt8(ascii: "_")) {
            return "it must start with an ASCII letter or an underscore"
        }
        if let invalid = name.unicodeScalars.first(where: { !($0.isASCII && isIdentifierByte(UInt8($0.value))) }) {
            return "it contains \"\(invalid.escaped(asASCII: false))\", not an ASCII letter, digit or underscore"
        }
        if name.lowercased().hasPrefix("sqlite_") {
            return "names starting with sqlite_ are reserved by SQLite"
        }
        return nil
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}

/// A name that can't be used as an SQL identifier.
///
///     "Department-Name" is not a valid SQL identifier: it contains "-", not an ASCII letter, digit or underscore
package struct InvalidSQLIdentifierError: Error, Sendable, CustomStringConvertible {
    /// The rejected name.
    package let identifier: String
    /// Why it was rejected.
    package let reason: String

    package var description: String {
        "\(identifier.debugDescription) is not a valid SQL identifier: \(reason)"
    }
}
