import SeedKitSupport

extension JSON {
    /// The value as a part of an object's key shows it, `Employee[email=ann@example.com]`: a string as is, unless it
    /// could be misread there (empty, `[ ] , = "`, space at an end) or holds a control character; any other value as
    /// canonical JSON, with the control characters JSON leaves as they are (DEL, C1, U+2028…) escaped too.
    ///
    ///     JSON.string("A, B").keyText      // "A, B" — quoted
    ///     JSON.number(3).keyText           // 3
    package var keyText: String {
        if case .string(let text) = self, !text.isEmpty, !text.contains(where: { "[],=\"".contains($0) }),
            text.first?.isWhitespace == false, text.last?.isWhitespace == false,
            !TerminalText.hasControlCharacters(text)
        {
            return text
        }
        return TerminalText.escaped(self.text(style: .canonical))
    }
}
