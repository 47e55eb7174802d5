/// What a parse makes of the text it reads (see ``JSONParser/parseValue(into:)``): it is told each scalar, and each
/// array and object as it opens and as it closes, in document order.
protocol JSONParseOutput: ~Copyable {
    /// A string value: `parser` is at its opening quote; the output reads the string, leaving `parser` after it.
    mutating func string(_ parser: inout JSONParser) throws(JSONParseFailure)
    mutating func number(_ value: JSONNumber)
    mutating func bool(_ value: Bool)
    mutating func null()
    /// An array opens at the byte `offset` of the text.
    mutating func openArray(at offset: Int)
    /// The innermost open array closes after `count` elements.
    mutating func closeArray(count: Int)
    /// An object opens at the byte `offset` of the text.
    mutating func openObject(at offset: Int)
    /// The innermost open object closes after `count` members, whose keys are those of `layout`.
    mutating func closeObject(layout: JSONKeyLayout, count: Int)
}

/// The ``JSON`` values a parse reads: its members and elements wait on a stack until their container closes.
struct JSONTreeOutput: JSONParseOutput, ~Copyable {
    private var values = JSONParser.ParseStack<JSON>()

    @inline(__always)
    mutating func string(_ parser: inout JSONParser) throws(JSONParseFailure) {
        values.push(.string(try parser.parseString()))
    }

    @inline(__always)
    mutating func number(_ value: JSONNumber) { values.push(.number(value)) }

    @inline(__always)
    mutating func bool(_ value: Bool) { values.push(.bool(value)) }

    @inline(__always)
    mutating func null() { values.push(.null) }

    @inline(__always)
    mutating func openArray(at offset: Int) {}

    @inline(__always)
    mutating func closeArray(count: Int) {
        let elements = values.popArray(from: values.count - count)
        values.push(.array(elements))
    }

    @inline(__always)
    mutating func openObject(at offset: Int) {}

    @inline(__always)
    mutating func closeObject(layout: JSONKeyLayout, count: Int) {
        let object = JSONObject(layout: layout, values: values.popArray(from: values.count - count))
        values.push(.object(object))
    }

    /// A value made elsewhere, as if it were read here.
    @inline(__always)
    mutating func scalar(_ value: JSON) { values.push(value) }

    /// The value read: once every container has closed, the only one left.
    mutating func take() -> JSON {
        values.pop()
    }
}
