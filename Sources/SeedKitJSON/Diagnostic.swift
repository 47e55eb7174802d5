import SeedKitSupport

/// A problem that points into a file: a stable code, where it is (file, line and column, JSON Pointer), what is
/// wrong, and what would be valid.
///
///     Templates/staff/ann.template:4:7: /department/nmae: unknown attribute 'nmae' of Department; did you mean 'name'?
///
/// Every located problem SeedKit reports prints this way — template issues, decoding errors, model errors, export
/// errors — as `file:line:column: /pointer: message; suggestion`, leaving out what is unknown, and ` (see place)`
/// after it for the other place a duplicate or conflict involves. Code reacting to a problem tests ``code``, never
/// the message.
public struct Diagnostic: Error, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What kind of problem it is: a name that stays the same from release to release, for tools and tests.
    ///
    /// The code of an error with a kind is the kind's raw value (`Diagnostic.Code(GraphDecodingError.Kind.syntax)`
    /// is `syntax`); the raw value is what JSON reports write.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code of an error kind: its raw value.
        package init<Kind: RawRepresentable<String>>(_ kind: Kind) {
            self.rawValue = kind.rawValue
        }

        public var description: String { rawValue }
    }

    /// A place in a file: the other place a duplicate or a conflict involves.
    public struct Place: Sendable, Hashable, CustomStringConvertible {
        public var file: String?
        public var line: Int?
        public var column: Int?
        public var pointer: JSONPointer?

        package init(file: String? = nil, line: Int? = nil, column: Int? = nil, pointer: JSONPointer? = nil) {
            self.file = file
            self.line = line
            self.column = column
            self.pointer = pointer
        }

        /// `file:line:column`, else `file /pointer`, leaving out what is unknown.
        public var description: String {
            var text = file ?? ""
            if let line, let column { return text + (text.isEmpty ? "" : ":") + "\(line):\(column)" }
            if let pointer { text += (text.isEmpty ? "" : " ") + Diagnostic.text(of: pointer) }
            return text
        }
    }

    public var code: Code
    /// The file, as given to the reader; nil for a problem of no one file.
    public var file: String?
    /// The line, from 1, when the problem is in text.
    public var line: Int?
    /// The column, from 1, in Unicode scalars.
    public var column: Int?
    /// The value concerned; the root pointer for a whole document.
    public var pointer: JSONPointer?
    /// What is wrong.
    public var message: String
    /// What would be valid, or the name probably meant: "did you mean 'name'?".
    public var suggestion: String?
    /// The other place a duplicate or a conflict involves.
    public var related: Place?

    package init(
        _ code: Code, file: String? = nil, line: Int? = nil, column: Int? = nil, pointer: JSONPointer? = nil,
        message: String, suggestion: String? = nil, related: Place? = nil
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer
        self.message = message
        self.suggestion = suggestion
        self.related = related
    }

    /// A diagnostic at a location read from text, whose file it takes unless `file` is given.
    package init(
        _ code: Code, file: String? = nil, location: SourceLocation?, pointer: JSONPointer? = nil, message: String,
        suggestion: String? = nil, related: Place? = nil
    ) {
        self.init(
            code, file: file ?? location?.file, line: location?.line, column: location?.column, pointer: pointer,
            message: message, suggestion: suggestion, related: related)
    }

    /// The line and column with the file, when both are known.
    public var location: SourceLocation? {
        guard let line, let column else { return nil }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// `file:line:column: /pointer: message; suggestion (see place)`, leaving out what is unknown, on one line:
    /// control characters from the input (in a file name, a key or a value the message quotes) are escaped as JSON
    /// strings escape them.
    public var description: String {
        var text = file.map(TerminalText.quoted) ?? ""
        if let line, let column { text += (text.isEmpty ? "" : ":") + "\(line):\(column)" }
        if !text.isEmpty { text += ": " }
        if let pointer { text += Self.text(of: pointer) + ": " }
        text += message
        if let suggestion { text += "; " + suggestion }
        if let related, case let place = related.description, !place.isEmpty { text += " (see \(place))" }
        return TerminalText.escaped(text)
    }

    /// Orders by file (none first), line, column, pointer, then message: the order reports list problems in.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        let left = (lhs.file ?? "", lhs.line ?? 0, lhs.column ?? 0), right = (rhs.file ?? "", rhs.line ?? 0, rhs.column ?? 0)
        if left != right { return left < right }
        if lhs.pointer != rhs.pointer { return (lhs.pointer ?? .root) < (rhs.pointer ?? .root) }
        return lhs.message < rhs.message
    }

    /// A pointer as diagnostics show it: `/` for the whole document.
    static func text(of pointer: JSONPointer) -> String {
        pointer.tokens.isEmpty ? "/" : pointer.description
    }
}
