import SeedKitJSON

/// A problem writing an export, or reading one back: where it is, when it is in a file, and what is wrong.
///
///     old.export.json:14:5: /objects/11/class: unknown class 'Employe'; did you mean 'Employee'?
///
/// The `seed export` and `seed diff` commands exit with status 2 for it.
public struct ExportError: Error, Sendable, CustomStringConvertible {
    /// Where in a file, when the problem is in one.
    public var location: SourceLocation?
    /// The value concerned, in the export document.
    public var pointer: JSONPointer?
    /// What is wrong, saying what would be valid.
    public var message: String
    /// For a template set that cannot be read, every problem of its templates, each on a line of the description.
    public var issues: [Diagnostic] = []

    package init(
        _ message: String, location: SourceLocation? = nil, pointer: JSONPointer? = nil, issues: [Diagnostic] = []
    ) {
        self.message = message
        self.location = location
        self.pointer = pointer
        self.issues = issues
    }

    /// `file:line:column: /pointer: message`, leaving out what is unknown.
    public var description: String {
        ([Diagnostic(Self.code, location: location, pointer: pointer, message: message).description]
            + issues.map(\.description)).joined(separator: "\n")
    }

    /// The code of every export error.
    static let code = Diagnostic.Code(rawValue: "invalidExport")
}
