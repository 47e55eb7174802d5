/// Text from user data as outputs show it: control characters escaped as JSON strings escape them, so that nothing a
/// template or a store holds can move the cursor or forge a line of output.
///
///     DisplayText.escaped("x\n+y")        // x\n+y, on one line
///     DisplayText.plain("A, B")           // "A, B": quoted, as a key part it could be misread
enum DisplayText {
    /// A string as it is, unless it holds a character that would make a key ambiguous (`[ ] , = "`), a control
    /// character, or leading or trailing space: then as a JSON string, escaped.
    static func plain(_ text: String) -> String {
        let isPlain = !text.isEmpty && !text.unicodeScalars.contains { isControl($0) || "[],=\"".unicodeScalars.contains($0) }
            && text.first?.isWhitespace == false && text.last?.isWhitespace == false
        return isPlain ? text : "\"" + escape(text, quoting: true) + "\""
    }

    /// The text with its control characters escaped as a JSON string escapes them (`\n`, `\u001b`), for user data
    /// inside a message.
    static func escaped(_ text: String) -> String {
        text.unicodeScalars.contains(where: isControl) ? escape(text, quoting: false) : text
    }

    /// Control characters escaped, and when `quoting`, backslashes and quotes too.
    private static func escape(_ text: String, quoting: Bool) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped.append(contentsOf: #"\n"#.unicodeScalars)
            case "\t": escaped.append(contentsOf: #"\t"#.unicodeScalars)
            case "\r": escaped.append(contentsOf: #"\r"#.unicodeScalars)
            case "\\" where quoting, "\"" where quoting:
                escaped.append("\\")
                escaped.append(scalar)
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            default:
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7f || (0x80..<0xa0).contains(scalar.value)
    }
}
