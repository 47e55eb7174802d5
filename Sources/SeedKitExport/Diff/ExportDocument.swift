import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitObjects

/// An export document read for diffing: its model, and where each top-level object is in the text, by identity.
///
///     let old = try ExportDocument(contentsOf: URL(fileURLWithPath: "old.export.json"))
///     print(old.model.entityNames, old.objectCount)
///
/// Reading validates the whole text (strictly, as ``JSONDocument`` does) and the structure of the document, but
/// keeps no tree: each top-level object is parsed, keyed by its entity and identity, and dropped. A diff parses
/// again only the objects whose bytes differ, so two large exports with few changes are compared in about the time
/// it takes to read them, in little more memory than their text.
public struct ExportDocument: Sendable {
    /// One top-level object: its key (root entity and identity, else `$id`, else content) and its bytes.
    struct Entry: Sendable {
        var key: String
        var start: Int
        var end: Int
    }

    /// The path shown in locations, when the text came from a file.
    public let file: String?
    /// The model the export was written with.
    public let model: EntityModel
    /// The number of top-level objects.
    public var objectCount: Int { entries.count }

    /// How deeply each top-level object may nest: as deeply as any SeedKit document (an export writes longer chains of
    /// owned children as several top-level objects), shallow enough that reading and comparing cannot overflow a stack.
    static var maxDepth: Int { JSON.maxNestingDepth }

    let bytes: [UInt8]
    /// The top-level objects, in document order.
    let entries: [Entry]
    /// Whether the export came from a template directory whose model was inferred, there being no model file.
    package internal(set) var isModelInferred = false
    /// Where the objects are written in the template set the export was made from (see ``init(templates:modelURL:)``).
    var templateDefinitions: TemplateDefinitions?
    /// The indices of `entries` in key order (a canonical export is usually in key order already).
    let keyOrder: [Int]

    /// Reads an export document from its UTF-8 text.
    ///
    /// - Throws: ``ExportError``, located by line, column and JSON Pointer: invalid JSON, a document that is not a
    ///   SeedKit export (or of a newer format version), an invalid model, or a top-level object of no entity.
    /// - Complexity: O(*n*) in the size of the text.
    public init(bytes: [UInt8], file: String? = nil) throws(ExportError) {
        self.bytes = bytes
        self.file = file
        // What the reader found; the reader itself points into the buffer, so it stays inside the closure.
        typealias Reading = (keyer: ObjectKeyer, entries: [Entry], keysPending: Bool)
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<Reading, ExportError> in
            var reader = ExportReader(parser: JSONParser(bytes: buffer, maxDepth: Self.maxDepth), file: file)
            do throws(ExportError) {
                try reader.read()
                return .success((reader.keyer!, reader.entries, reader.keysPending))
            } catch {
                return .failure(error)
            }
        }
        let reading = try result.get()
        self.model = reading.keyer.model
        self.entries = reading.entries
        self.keyOrder = []
        if reading.keysPending { try computeKeys(with: reading.keyer) }
        try orderKeys(with: reading.keyer)
    }

    /// Reads an export document from a file.
    ///
    /// - Throws: ``ExportError`` for a missing or unreadable file, and as ``init(bytes:file:)``.
    /// - Complexity: as ``init(bytes:file:)``.
    public init(contentsOf url: URL) throws(ExportError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ExportError("cannot read \(url.path): \(FileManager.default.fileExists(atPath: url.path) ? "permission denied or not a file" : "no such file")")
        }
        try self.init(bytes: [UInt8](data), file: url.relativePath)
    }

    /// A file's bytes, read straight into an array: no `Data` to copy from.
    private static func contents(of path: String) throws(ExportError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ExportError("cannot open \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw ExportError("\(path) is not a regular file")
        }
        let size = Int(status.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let read = Foundation.read(descriptor, buffer.baseAddress! + count, size - count)
                guard read > 0 else {
                    failed = read < 0
                    break
                }
                count += read
            }
        }
        if failed { throw ExportError("cannot read \(path): \(String(cString: strerror(errno)))") }
        return bytes
    }

    /// The export of a context's objects, read back for diffing.
    ///
    /// - Complexity: as ``GraphExport/document(of:)-(ObjectContext)``.
    public init(exporting context: ObjectContext, entityNames: [String]? = nil, file: String? = nil) throws {
        try self.init(bytes: GraphExport(entityNames: entityNames).document(of: context), file: file)
    }

    /// The location of a byte offset of the text.
    func location(ofOffset offset: Int) -> SourceLocation {
        bytes.withUnsafeBufferPointer { SourceLocation(offset: offset, in: $0, file: file) }
    }

    /// The locations of several byte offsets, in one pass.
    func locations(ofOffsets offsets: some Sequence<Int>) -> [Int: SourceLocation] {
        bytes.withUnsafeBufferPointer { SourceLocation.locations(ofOffsets: offsets, in: $0, file: file) }
    }

    /// The top-level object of an entry, parsed again.
    func object(at entry: Entry) -> JSON {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: buffer[..<entry.end]), maxDepth: Self.maxDepth)
            parser.index = entry.start
            // The whole text was validated when the document was read.
            return try! parser.parseValue()
        }
    }

    /// Whether two entries, of this document and another, have the same bytes.
    func hasSameBytes(_ entry: Entry, as other: Entry, in document: ExportDocument) -> Bool {
        guard entry.end - entry.start == other.end - other.start else { return false }
        return bytes.withUnsafeBufferPointer { mine in
            document.bytes.withUnsafeBufferPointer { theirs in
                memcmp(mine.baseAddress! + entry.start, theirs.baseAddress! + other.start, entry.end - entry.start) == 0
            }
        }
    }

    /// Computes the entries' keys, for a document whose objects came before its model.
    private mutating func computeKeys(with keyer: ObjectKeyer) throws(ExportError) {
        var keyed = entries
        for index in keyed.indices {
            do throws(ExportError) {
                keyed[index].key = try keyer.key(ofTopLevel: object(at: keyed[index]))
            } catch {
                throw located(error, entryAt: index)
            }
        }
        self = ExportDocument(file: file, model: model, bytes: bytes, entries: keyed, keyOrder: [])
    }

    private func located(_ error: ExportError, entryAt index: Int) -> ExportError {
        var error = error
        let pointer = JSONPointer.root.appending("objects").appending(index)
        error.location = location(ofOffset: entries[index].start)
        error.pointer = JSONPointer(tokens: pointer.tokens + (error.pointer?.tokens ?? []))
        return error
    }

    /// Sorts the entries by key, refusing an object written twice at the top level. Objects keyed by their content
    /// (without identity or `$id`) may be equal: a graph can hold several, so their copies are numbered and compared
    /// as a multiset.
    private mutating func orderKeys(with keyer: ObjectKeyer) throws(ExportError) {
        var entries = self.entries
        var copies: [String: Int] = [:]
        for index in entries.indices where entries[index].key.hasPrefix("#") {
            let copy = copies[entries[index].key, default: 0] + 1
            copies[entries[index].key] = copy
            // Content keys end with the object's closing brace, so a numbered one cannot equal another key.
            if copy > 1 { entries[index].key += "#\(copy)" }
        }
        var order = Array(entries.indices)
        if zip(entries, entries.dropFirst()).contains(where: { $0.key >= $1.key }) {
            order.sort { entries[$0].key < entries[$1].key || (entries[$0].key == entries[$1].key && $0 < $1) }
        }
        for (first, second) in zip(order, order.dropFirst()) where entries[first].key == entries[second].key {
            let firstLocation = location(ofOffset: entries[first].start)
            let object = object(at: entries[second])
            let name = (try? keyer.entity(of: object, pointer: .root, default: nil)).map { keyer.display(of: object, entity: $0) }
            throw ExportError(
                "\(name ?? entries[second].key) is written twice (first at /objects/\(first), \(firstLocation))",
                location: location(ofOffset: entries[second].start),
                pointer: .root.appending("objects").appending(second))
        }
        self = ExportDocument(file: file, model: model, bytes: bytes, entries: entries, keyOrder: order)
    }

    private init(file: String?, model: EntityModel, bytes: [UInt8], entries: [Entry], keyOrder: [Int]) {
        self.file = file
        self.model = model
        self.bytes = bytes
        self.keyOrder = keyOrder
        self.entries = entries
    }
}

/// Reads the outer structure of an export document, parsing each top-level object on its own and keying it as
/// soon as the model is known (it comes first in a canonical export).
private struct ExportReader {
    var parser: JSONParser
    let file: String?
    var keyer: ObjectKeyer?
    var entries: [ExportDocument.Entry] = []
    /// Whether objects came before the model, so their keys are still to compute.
    var keysPending = false

    init(parser: JSONParser, file: String?) {
        self.parser = parser
        self.file = file
    }

    mutating func read() throws(ExportError) {
        var members: [String: JSON] = [:]
        var hasObjects = false
        do {
            try parser.rejectByteOrderMark()
        } catch {
            throw located(error)
        }
        try expect(UInt8(ascii: "{"), "an export document: an object with \"format\", \"model\" and \"objects\"")
        if try !consume(UInt8(ascii: "}")) {
            repeat {
                parser.skipWhitespace()
                let keyOffset = parser.index
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
                    throw located(parser.failure(expected: "a string key"))
                }
                let key = try parse { (parser: inout JSONParser) throws(JSONParseFailure) in try parser.parseString() }
                try expect(UInt8(ascii: ":"), "':' after object key")
                if members[key] != nil || (key == "objects" && hasObjects) {
                    throw located(JSONParseFailure(offset: keyOffset, message: "duplicate key \(JSON.quotedForMessage(key))"))
                }
                switch key {
                case "objects":
                    hasObjects = true
                    try readObjects()
                case "model":
                    // Located at the model itself, not the whitespace before it.
                    parser.skipWhitespace()
                    let valueOffset = parser.index
                    let model = try parse { (parser: inout JSONParser) throws(JSONParseFailure) in try parser.parseValue() }
                    members[key] = model
                    do {
                        keyer = ObjectKeyer(model: try EntityModel(json: model))
                    } catch {
                        throw ExportError(
                            "the export's model is invalid: \(error)", location: location(ofOffset: valueOffset),
                            pointer: .root.appending("model"))
                    }
                case "format", "formatVersion":
                    members[key] = try parse { (parser: inout JSONParser) throws(JSONParseFailure) in try parser.parseValue() }
                default:
                    // A member this version does not know would be dropped by a diff and its patch: a newer format.
                    let known = ["format", "formatVersion", "model", "objects"]
                    throw ExportError(
                        "unknown key \(JSON.quotedForMessage(key)) in an export document\(Suggestion.didYouMean(key, among: known)); "
                            + "it has \"format\", \"formatVersion\", \"model\" and \"objects\"",
                        location: location(ofOffset: keyOffset), pointer: .root.appending(key))
                }
            } while try separator(closing: UInt8(ascii: "}"), "',' or '}' after object member")
        }
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw located(JSONParseFailure(
                offset: parser.index, message: "unexpected \(parser.describeByte(at: parser.index)) after the JSON value"))
        }
        let documentStart = SourceLocation(file: file, line: 1, column: 1)
        guard case .string(let format)? = members["format"], format == GraphExport.format else {
            throw ExportError(
                "not a SeedKit export: \"format\" must be \"\(GraphExport.format)\"", location: documentStart,
                pointer: .root.appending("format"))
        }
        guard case .number(let number)? = members["formatVersion"], let version = number.int64Value,
            version >= 1, version <= GraphExport.formatVersion
        else {
            throw ExportError(
                "\"formatVersion\" must be an integer from 1 to \(GraphExport.formatVersion), the versions this SeedKit reads",
                location: documentStart, pointer: .root.appending("formatVersion"))
        }
        guard keyer != nil else {
            throw ExportError("the export has no \"model\"", location: documentStart, pointer: .root)
        }
        guard hasObjects else {
            throw ExportError("the export has no \"objects\" array", location: documentStart, pointer: .root)
        }
    }

    /// Reads the `"objects"` array, validating each element, noting where it is and keying it.
    private mutating func readObjects() throws(ExportError) {
        try expect(UInt8(ascii: "["), "an array of objects for \"objects\"")
        if try consume(UInt8(ascii: "]")) { return }
        repeat {
            parser.skipWhitespace()
            let start = parser.index
            guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "{") else {
                throw located(parser.failure(expected: "an object (each element of \"objects\" is an object with a \"class\")"))
            }
            let object = try parse { (parser: inout JSONParser) throws(JSONParseFailure) in try parser.parseValue() }
            var key = ""
            if let keyer {
                do throws(ExportError) {
                    key = try keyer.key(ofTopLevel: object)
                } catch {
                    var error = error
                    error.location = location(ofOffset: start)
                    error.pointer = JSONPointer(
                        tokens: ["objects", String(entries.count)] + (error.pointer?.tokens ?? []))
                    throw error
                }
            } else {
                keysPending = true
            }
            entries.append(ExportDocument.Entry(key: key, start: start, end: parser.index))
        } while try separator(closing: UInt8(ascii: "]"), "',' or ']' after array element")
    }

    private mutating func parse<Value>(
        _ body: (inout JSONParser) throws(JSONParseFailure) -> Value
    ) throws(ExportError) -> Value {
        do throws(JSONParseFailure) {
            return try body(&parser)
        } catch {
            throw located(error)
        }
    }

    private mutating func expect(_ byte: UInt8, _ expectation: String) throws(ExportError) {
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == byte else {
            throw located(parser.failure(expected: expectation))
        }
        parser.index += 1
    }

    /// Consumes `byte` after optional whitespace, if it is next.
    private mutating func consume(_ byte: UInt8) throws(ExportError) -> Bool {
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == byte else { return false }
        parser.index += 1
        return true
    }

    /// Reads ',' (true: another member follows) or the closing byte (false).
    private mutating func separator(closing: UInt8, _ expectation: String) throws(ExportError) -> Bool {
        if try consume(UInt8(ascii: ",")) { return true }
        try expect(closing, expectation)
        return false
    }

    private func located(_ failure: JSONParseFailure) -> ExportError {
        ExportError(failure.message, location: location(ofOffset: failure.offset))
    }

    private func location(ofOffset offset: Int) -> SourceLocation {
        SourceLocation(offset: offset, in: parser.bytes, file: file)
    }
}
