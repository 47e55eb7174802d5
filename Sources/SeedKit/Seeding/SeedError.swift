/// A problem that stops seeding before the templates are judged: a missing directory, an unreadable file, a store
/// that cannot be opened. The `seed` command exits with status 2 for it.
///
///     seed: no template directory at Templates
public struct SeedError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One problem in a template set or its model: where it is and what is wrong.
///
///     Templates/staff/ann.template:4:7: /department/nmae: unknown attribute 'nmae' of Department; did you mean 'name'?
public struct SeedIssue: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file, relative to the working directory as given; nil for a problem of no one file.
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// A JSON Pointer into the file, "" for the whole file.
    public var pointer: String
    public var message: String

    public init(file: String?, line: Int? = nil, column: Int? = nil, pointer: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer
        self.message = message
    }

    /// `file:line:column: pointer: message`, leaving out what is unknown, on one line: control characters from the
    /// templates (in a file name, a key or a value the message quotes) are escaped as JSON strings escape them.
    public var description: String {
        var place = file.map(TerminalText.quoted) ?? ""
        if let line, let column { place += ":\(line):\(column)" }
        let pointerText = pointer.isEmpty ? "/" : pointer
        let line = place.isEmpty ? "\(pointerText): \(message)" : "\(place): \(pointerText): \(message)"
        return TerminalText.escaped(line)
    }

    public static func < (lhs: SeedIssue, rhs: SeedIssue) -> Bool {
        (lhs.file ?? "", lhs.line ?? 0, lhs.column ?? 0, lhs.pointer, lhs.message)
            < (rhs.file ?? "", rhs.line ?? 0, rhs.column ?? 0, rhs.pointer, rhs.message)
    }
}

extension SeedIssue {
    init(_ error: GraphDecodingError) {
        self.init(
            file: error.location?.file ?? error.file, line: error.location?.line, column: error.location?.column,
            pointer: error.pointer.tokens.isEmpty ? "" : error.pointer.description,
            message: error.message + (error.relatedLocation.map { " (see \($0))" } ?? ""))
    }

    init(_ error: ModelError, file: String) {
        self.init(
            file: error.location?.file ?? file, line: error.location?.line, column: error.location?.column,
            pointer: error.pointer.map { $0.tokens.isEmpty ? "" : $0.description } ?? "",
            message: [error.entity, error.property].compactMap { $0 }.joined(separator: ".")
                .appending(error.entity == nil ? error.message : ": \(error.message)"))
    }
}
