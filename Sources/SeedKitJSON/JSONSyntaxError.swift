/// A JSON text that breaks the rules of RFC 8259, or SeedKit's stricter ones, with where and what.
///
///     do {
///         _ = try JSONDocument(parsing: #"{"a": 1,}"#, file: "a.json")
///     } catch {
///         print(error)  // a.json:1:9: trailing comma in object
///     }
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// Where the problem is: the first byte that could not be read as expected.
    public var location: SourceLocation
    /// What is wrong, saying what was expected: "expected ',' or '}' after object member, found ']'".
    public var message: String

    package init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// The error as a ``Diagnostic`` of code `syntax`.
    public var diagnostic: Diagnostic {
        Diagnostic(Diagnostic.Code(rawValue: "syntax"), location: location, message: message)
    }

    /// `file:line:column: message`.
    public var description: String { diagnostic.description }
}
