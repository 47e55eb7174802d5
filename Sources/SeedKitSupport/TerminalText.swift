/// Text from templates, stores and file names made safe to print: control characters are escaped as JSON strings
/// escape them, so a value can neither move the cursor, recolour the screen nor forge a line of output.
///
///     TerminalText.escaped("x\n+FakeObject")     // x\n+FakeObject, one line
///     TerminalText.quoted("a\u{1B}[31mb")       // "a\u001b[31mb", a JSON string
///     TerminalText.quoted("staff/ann.template")  // staff/ann.template, unchanged
///
/// Control characters are C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F, which some terminals obey as escapes), the
/// line and paragraph separators U+2028 and U+2029, and the bidirectional overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069) that reorder what a line shows.
package enum TerminalText {
    /// Whether `text` holds a character ``escaped(_:)`` escapes.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// `text` with every control character written as a JSON string escape (`\n`, `\t`, `\u001b`); other characters,
    /// quotes and backslashes included, as they are.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func escaped(_ text: String) -> String {
        guard hasControlCharacters(text) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result += escape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `text` as is when it holds no control character; else as a JSON string, in quotes, with its quotes,
    /// backslashes and control characters escaped, so that it cannot be misread. For a name or a path in a line.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func quoted(_ text: String) -> String {
        guard hasControlCharacters(text) else { return text }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where isControl(scalar): result += escape(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\u{08}": return "\\b"
        case "\u{0C}": return "\\f"
        default:
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
