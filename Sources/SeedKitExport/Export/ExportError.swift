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

    public init(_ message: String, location: SourceLocation? = nil, pointer: JSONPointer? = nil) {
        self.message = message
        self.location = location
        self.pointer = pointer
    }

    /// `file:line:column: /pointer: message`, leaving out what is unknown.
    public var description: String {
        Diagnostic(Self.code, location: location, pointer: pointer, message: message).description
    }

    /// The code of every export error.
    static let code = Diagnostic.Code(rawValue: "invalidExport")
}
