import Foundation

/// A parsed JSON text: its value, and its source, to say where any value came from.
///
/// Parsing follows RFC 8259 strictly: no byte order mark, valid UTF-8 only, no unpaired surrogate escapes,
/// no control characters in strings, no NaN, Infinity, leading zeros or '+', no trailing commas, no duplicate keys,
/// nothing after the value. Any value may be at the top. Numbers are read exactly (see ``JSONNumber``), and a number
/// no storage holds exactly, such as `1e400`, is an error.
///
/// Parsing keeps no position per value. Instead the document keeps its source bytes, and ``location(of:)``
/// finds the position of a value by scanning them again, which is fast and only needed when something is wrong.
///
///     let document = try JSONDocument(parsing: text, file: "Templates/Sales.json")
///     if document.value["name"] == nil {
///         print("\(document.location(of: .root)!): missing key 'name'")  // Templates/Sales.json:1:1: …
///     }
///
/// Initializers use typed throws: they throw ``JSONSyntaxError`` and nothing else.
public struct JSONDocument: Sendable {
    /// The top-level value.
    public let value: JSON
    /// The file the text came from, as given, for locations; nil when it came from no file.
    public let file: String?
    /// The UTF-8 text, kept for finding locations.
    let bytes: [UInt8]

    /// Parses UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - file: The path to show in locations.
    ///   - maxDepth: How deeply arrays and objects may nest; deeper text is an error rather than a stack overflow.
    /// - Complexity: O(*n*) for *n* bytes; memory for the value tree plus the bytes, which the document keeps.
    public init(parsing bytes: [UInt8], file: String? = nil, maxDepth: Int = JSON.maxNestingDepth) throws(JSONSyntaxError) {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSON, JSONSyntaxError> in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            do throws(JSONParseFailure) {
                return .success(try parser.parseDocument())
            } catch {
                let location = SourceLocation(offset: error.offset, in: buffer, file: file)
                return .failure(JSONSyntaxError(location: location, message: error.message))
            }
        }
        self.value = try result.get()
        self.file = file
        self.bytes = bytes
    }

    /// Parses UTF-8 bytes from any collection, like the `[UInt8]` initializer.
    package init(parsing bytes: some Collection<UInt8>, file: String? = nil, maxDepth: Int = JSON.maxNestingDepth)
        throws(JSONSyntaxError)
    {
        try self.init(parsing: Array(bytes), file: file, maxDepth: maxDepth)
    }

    /// Parses UTF-8 data.
    ///
    /// - Complexity: O(*n*) in the size of the text.
    public init(parsing data: Data, file: String? = nil, maxDepth: Int = JSON.maxNestingDepth) throws(JSONSyntaxError) {
        try self.init(parsing: [UInt8](data), file: file, maxDepth: maxDepth)
    }

    /// Parses a string's UTF-8.
    ///
    /// - Complexity: O(*n*) in the size of the text.
    public init(parsing text: String, file: String? = nil, maxDepth: Int = JSON.maxNestingDepth) throws(JSONSyntaxError) {
        try self.init(parsing: Array(text.utf8), file: file, maxDepth: maxDepth)
    }

    /// Reads and parses a file; its path is the document's ``file``.
    ///
    /// Throws the file system's error when the file cannot be read, and ``JSONSyntaxError`` for invalid text.
    ///
    /// - Complexity: O(*n*) in the size of the file.
    public init(contentsOf url: URL, maxDepth: Int = JSON.maxNestingDepth) throws {
        let data = try Data(contentsOf: url)
        try self.init(parsing: data, file: url.path, maxDepth: maxDepth)
    }
}
