import SeedKitJSON
import SeedKitObjects

/// Reads objects from dictionaries with a `"class"` key — the form ``GraphEncoder`` writes — into a context, in two
/// phases: everything is read, checked and resolved first, and only input without a single error is applied.
///
/// Several inputs make one input: `"$id"`/`"$ref"` is one namespace across them and references may point forward,
/// into a later input, in any order. That is how a directory of seed templates is read.
///
///     var decoder = GraphDecoder(context: context)
///     decoder.add(text: departmentsText, file: "Templates/Departments.json")
///     decoder.add(text: staffText, file: "Templates/Staff.json")
///     let objects = try decoder.decode()   // or GraphDecodingErrors, with every problem of every file
///
/// A dictionary of an entity with identity is an upsert by those identity values. Merging into an object the context
/// has adds to its to-many relationships and changes only the keys given;
/// ``ManagedObject/populate(fromDictionary:policy:)`` replaces relationships instead. See
/// <doc:ObjectGraphsAsDictionaries> for the rules.
/// The model's template conventions apply: keys in each entity's ``KeyStyle``, dates in their attribute's
/// ``AttributeDescription/dateFormat``, and through a relationship given by identity
/// (``RelationshipDescription/isByIdentity``) a string, number or boolean is the member's identity value.
///
/// A decoder holds its context: use it in the context's isolation domain.
public struct GraphDecoder {
    package let context: ObjectContext
    var inputs: [DecoderInput] = []

    public init(context: ObjectContext) {
        self.context = context
    }

    /// Adds a value: one object, or an array of objects.
    public mutating func add(_ value: JSON, file: String? = nil) {
        inputs.append(DecoderInput(value: value, document: nil, file: file))
    }

    /// Adds a parsed document; errors in it get line and column.
    public mutating func add(_ document: JSONDocument) {
        inputs.append(DecoderInput(value: document.value, document: document, file: document.file))
    }

    /// Adds JSON text; a syntax error is reported by ``decode()`` with the problems of the other inputs.
    public mutating func add(text: String, file: String? = nil) {
        add(bytes: Array(text.utf8), file: file)
    }

    /// Adds UTF-8 JSON text; a syntax error is reported by ``decode()`` with the problems of the other inputs.
    ///
    /// The text is parsed when ``decode()`` reads it, and its parsed value let go once read: decoding many files holds
    /// one file's value at a time.
    public mutating func add(bytes: [UInt8], file: String? = nil) {
        inputs.append(DecoderInput(value: nil, document: nil, file: file, text: bytes))
    }

    /// Adds UTF-8 JSON text that `reload` can read again, so that the run lets it go as soon as it is read: decoding
    /// many files then holds one file's text at a time, not all of them. A problem is located in the text `reload`
    /// gives; without it (the file went or changed), the problem has a pointer but no line and column.
    package mutating func add(bytes: [UInt8], file: String?, reload: @escaping () -> [UInt8]?) {
        inputs.append(DecoderInput(value: nil, document: nil, file: file, text: bytes, reload: reload))
    }

    /// Reads every input into the context: the objects at the top of the inputs, in input order (each element of a
    /// top-level array in turn).
    ///
    /// - Throws: ``GraphDecodingErrors`` with every problem of every input; the context is unchanged then.
    /// - Complexity: O(*n*) in the size of the inputs, plus one identity lookup per object with identity.
    @discardableResult
    public func decode() throws(GraphDecodingErrors) -> [ManagedObject] {
        let reading = GraphReading(context: context, inputs: inputs)
        return try reading.run().roots
    }

    /// Reads every input into the context as ``decode()`` does, handing the inputs to the run, so that their texts go
    /// as soon as everything is checked instead of with the decoder; the decoder has no inputs afterwards.
    ///
    /// For a caller that holds no other copy of the texts, this lowers the peak memory of a large decode by their size.
    /// - Parameter inputsRead: Called with the number of inputs read so far, after each one.
    @discardableResult
    package mutating func decodeReleasingInputs(inputsRead: ((Int) -> Void)? = nil) throws(GraphDecodingErrors) -> [ManagedObject] {
        var taken: [DecoderInput] = []
        swap(&taken, &inputs)
        let reading = GraphReading(context: context, inputs: consume taken)
        reading.inputsRead = inputsRead
        return try reading.run().roots
    }
}

/// One input of a decoder: a value, with the document it was parsed from when there is one, or text to parse.
struct DecoderInput {
    let value: JSON?
    let document: JSONDocument?
    let file: String?
    /// UTF-8 text not parsed yet; the run parses it when it reads it (see `GraphReading.read`), and keeps its syntax
    /// error, if any, with the problems.
    var text: [UInt8]? = nil
    /// Reads the text again, or nil when it is gone or changed: for an input whose text the run lets go once read,
    /// and needs again only to locate a problem.
    var reload: (() -> [UInt8]?)? = nil
}
