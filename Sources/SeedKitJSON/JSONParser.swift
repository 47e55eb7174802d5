import Foundation

/// A strict RFC 8259 reader over UTF-8 bytes that builds ``JSON`` values.
///
/// The reader is iterative: containers open and close on explicit stacks, so nesting depth is bounded by
/// `maxDepth` rather than by the thread's stack. It records no positions; a failure carries the byte offset where it
/// was found, and ``JSONDocument`` turns offsets into line and column on demand.
package struct JSONParser {
    package let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    package var index = 0
    /// Where the string being read is unescaped, reused from one escaped string to the next; made for the first.
    /// Copies of a parser share it, which is safe because each string is copied out of it before the next is read.
    var scratch: UnescapingBuffer?
    /// The key lists of recent objects, so that objects with the same keys as an earlier one skip hashing them.
    var shapes = ObjectShapes()

    package init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// An open array or object: how many members or elements it has so far, where its keys start on the key stack,
    /// and where it starts in the text.
    private struct OpenContainer {
        var isObject: Bool
        var count = 0
        var keysStart: Int
        var offset: Int
        /// For an object, the shape its keys have matched so far, if any.
        var prediction = ObjectShapes.Prediction.none
    }

    /// Reads the whole text as one value, with nothing but whitespace around it.
    mutating func parseDocument() throws(JSONParseFailure) -> JSON {
        var output = JSONTreeOutput()
        try parseDocument(into: &output)
        return output.take()
    }

    /// Reads the whole text as one value, with nothing but whitespace around it, telling `output` what it reads.
    mutating func parseDocument<Output: JSONParseOutput & ~Copyable>(into output: inout Output) throws(JSONParseFailure) {
        try rejectByteOrderMark()
        try parseValue(into: &output)
        try rejectTextAfterValue()
    }

    /// Reads the whole text as ``parseDocument(into:)`` does, but an array at the top one element at a time: `output`
    /// is told each element, not the array, and `element` is called after each with the offset of the byte after it,
    /// so that what the output holds of it can be let go before the next is read.
    ///
    /// It accepts and refuses what ``parseDocument(into:)`` does, with the same words at the same offsets: each
    /// element is read by ``parseValue(into:depth:containers:keys:)`` one level in; only the array's brackets, commas and whitespace
    /// are read here, as that loop reads them. The elements before a refusal have been handed to `element`.
    ///
    /// - Returns: Whether the value is an array; when it is not, `output` was told it whole and `element` not called.
    mutating func parseDocument<Output: JSONParseOutput & ~Copyable>(
        into output: inout Output, eachElement element: (_ end: Int) -> Void
    ) throws(JSONParseFailure) -> Bool {
        try rejectByteOrderMark()
        skipWhitespace()
        guard index < bytes.count && bytes[index] == UInt8(ascii: "[") else {
            try parseValue(into: &output)
            try rejectTextAfterValue()
            return false
        }
        guard maxDepth > 0 else { throw nestingFailure() }
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            var containers = ParseStack<OpenContainer>()
            var keys = ParseStack<KeyText>()
            readingElements: while true {
                try parseValue(into: &output, depth: 1, containers: &containers, keys: &keys)
                element(index)
                skipWhitespace()
                guard index < bytes.count else { throw failure(expected: Self.afterArrayElement) }
                switch bytes[index] {
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                    if index < bytes.count && bytes[index] == UInt8(ascii: "]") { throw trailingCommaInArray() }
                case UInt8(ascii: "]"):
                    index += 1
                    break readingElements
                default:
                    throw failure(expected: Self.afterArrayElement)
                }
            }
        }
        try rejectTextAfterValue()
        return true
    }

    /// Refuses anything but whitespace after the document's value.
    private mutating func rejectTextAfterValue() throws(JSONParseFailure) {
        skipWhitespace()
        if index < bytes.count {
            throw JSONParseFailure(offset: index, message: "unexpected \(describeByte(at: index)) after the JSON value")
        }
    }

    /// Refuses text that starts with a UTF-8 byte order mark: RFC 8259 does not allow one in JSON text.
    package func rejectByteOrderMark() throws(JSONParseFailure) {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            throw JSONParseFailure(offset: 0, message: "byte order mark is not allowed")
        }
    }

    /// Reads one value starting at `index` (after optional whitespace).
    package mutating func parseValue() throws(JSONParseFailure) -> JSON {
        var output = JSONTreeOutput()
        try parseValue(into: &output)
        return output.take()
    }

    /// Reads one value starting at `index` (after optional whitespace), telling `output` its values in document
    /// order: each scalar, and each array and object as it opens and as it closes.
    ///
    /// One loop serves every output (the ``JSON`` tree, the flat ``JSONTape``), so they accept the same text and
    /// refuse the same with the same words; it is specialized for each, so neither pays for the other.
    ///
    mutating func parseValue<Output: JSONParseOutput & ~Copyable>(into output: inout Output) throws(JSONParseFailure) {
        var containers = ParseStack<OpenContainer>()
        var keys = ParseStack<KeyText>()
        try parseValue(into: &output, depth: 0, containers: &containers, keys: &keys)
    }

    /// Reads one value as ``parseValue(into:)`` does, inside arrays and objects read by the caller, with its stacks
    /// kept by the caller: one reading many values allocates them once.
    ///
    /// - Parameters:
    ///   - depth: How many arrays and objects the value is in: they count toward `maxDepth`, and objects are matched
    ///     with the shapes last seen at their depth in the whole text.
    ///   - containers: The open arrays and objects, innermost last: empty, and empty again once the value is read.
    ///   - keys: The keys of the open objects, innermost last: likewise.
    private mutating func parseValue<Output: JSONParseOutput & ~Copyable>(
        into output: inout Output, depth: Int, containers: inout ParseStack<OpenContainer>, keys: inout ParseStack<KeyText>
    ) throws(JSONParseFailure) {
        readingValues: while true {
            skipWhitespace()
            guard index < bytes.count else { throw failure(expected: "a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth + containers.count < maxDepth else { throw nestingFailure() }
                let offset = index
                index += 1
                skipWhitespace()
                output.openObject(at: offset)
                if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    output.closeObject(layout: .empty, count: 0)
                } else {
                    containers.push(
                        OpenContainer(
                            isObject: true, keysStart: keys.count, offset: offset,
                            prediction: shapes.prediction(atDepth: depth + containers.count)))
                    keys.push(try parseKey(afterComma: false, in: &containers[containers.count - 1], keys.count))
                    continue readingValues
                }
            case UInt8(ascii: "["):
                guard depth + containers.count < maxDepth else { throw nestingFailure() }
                let offset = index
                index += 1
                skipWhitespace()
                output.openArray(at: offset)
                if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    output.closeArray(count: 0)
                } else {
                    containers.push(OpenContainer(isObject: false, keysStart: keys.count, offset: offset))
                    continue readingValues
                }
            case UInt8(ascii: "\""):
                try output.string(&self)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                output.number(try parseNumber())
            case UInt8(ascii: "t"):
                try parseLiteral("true")
                output.bool(true)
            case UInt8(ascii: "f"):
                try parseLiteral("false")
                output.bool(false)
            case UInt8(ascii: "n"):
                try parseLiteral("null")
                output.null()
            default:
                throw failure(expected: "a value")
            }

            // A value is complete: count it in its container, and close every container that ends after it.
            // The innermost container is read in place: copying it out for each value costs more than the checks.
            while containers.count > 0 {
                let top = containers.count - 1
                containers[top].count += 1
                let isObject = containers[top].isObject
                skipWhitespace()
                let expectation = isObject ? "',' or '}' after object member" : Self.afterArrayElement
                guard index < bytes.count else { throw failure(expected: expectation) }
                switch bytes[index] {
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                    if isObject {
                        keys.push(try parseKey(afterComma: true, in: &containers[top], keys.count))
                    } else if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                        throw trailingCommaInArray()
                    }
                    continue readingValues
                case UInt8(ascii: "}") where isObject:
                    index += 1
                    let container = containers[top]
                    let layout = try layout(
                        of: container, depth: depth + top, memberKeys: keys.elements(from: container.keysStart))
                    keys.removeAll(from: container.keysStart)
                    output.closeObject(layout: layout, count: container.count)
                case UInt8(ascii: "]") where !isObject:
                    index += 1
                    output.closeArray(count: containers[top].count)
                default:
                    throw failure(expected: expectation)
                }
                containers.removeAll(from: top)
            }
            return
        }
    }

    /// The key layout of a closing object with `memberKeys`, rejecting duplicate keys.
    ///
    /// An object with the same keys, in the same order, as a recent one shares that one's key layout, which needs
    /// neither key strings nor hashing; `depth` says where to look for one first.
    private mutating func layout(
        of container: OpenContainer, depth: Int, memberKeys: UnsafeBufferPointer<KeyText>
    ) throws(JSONParseFailure) -> JSONKeyLayout {
        if let shape = shapes.confirmed(container.prediction, memberCount: memberKeys.count)
            ?? shapes.match(memberKeys, in: bytes, depth: depth)
        {
            return shapes.layout(of: shape)
        }
        var keys: [String] = []
        keys.reserveCapacity(memberKeys.count)
        for keyText in memberKeys { keys.append(string(of: keyText)) }
        switch JSONKeyLayout.checking(keys) {
        case .success(let layout):
            shapes.add(memberKeys, layout: layout, in: bytes, depth: depth)
            return layout
        case .failure(let duplicate):
            throw duplicateKeyFailure(duplicate.key, inObjectAt: container.offset)
        }
    }

    /// Reads an object key of `object` and the ':' after it; `index` is at the key's opening quote (after
    /// whitespace), and `keysCount` is the count of the key stack, where the key goes.
    ///
    /// While the object's keys are those of its predicted shape, a key is compared with the shape's instead of scanned.
    private mutating func parseKey(
        afterComma: Bool, in object: inout OpenContainer, _ keysCount: Int
    ) throws(JSONParseFailure) -> KeyText {
        guard index < bytes.count && bytes[index] == UInt8(ascii: "\"") else {
            if afterComma && index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                throw JSONParseFailure(offset: index, message: "trailing comma in object")
            }
            throw failure(expected: afterComma ? "a string key after ','" : "a string key or '}'")
        }
        let key: KeyText
        if object.prediction.isActive,
            let end = shapes.predictedKeyEnd(
                object.prediction, member: keysCount - object.keysStart, at: index + 1, in: bytes)
        {
            key = KeyText(bytes: (index + 1)..<end, hasEscapes: false)
            index = end + 1
        } else {
            object.prediction = .none
            key = try skipKey()
        }
        skipWhitespace()
        guard index < bytes.count && bytes[index] == UInt8(ascii: ":") else {
            throw failure(expected: "':' after object key")
        }
        index += 1
        return key
    }

    /// The key a ``KeyText`` stands for.
    private func string(of key: KeyText) -> String {
        if !key.hasEscapes {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[key.bytes]), as: UTF8.self)
        }
        var reader = JSONParser(bytes: bytes, maxDepth: maxDepth)
        reader.index = key.bytes.lowerBound - 1
        // Cannot fail: the key was read once already.
        return (try? reader.parseString()) ?? ""
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(JSONParseFailure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
            memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else {
            throw JSONParseFailure(offset: index, message: "invalid literal, expected '\(literal)'")
        }
        index += count
    }

    @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }
}

/// A syntax error at a byte offset, before it is given a line and column.
package struct JSONParseFailure: Error {
    package var offset: Int
    package var message: String

    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

extension JSONParser {
    /// A failure at `index`: "expected …, found …".
    package func failure(expected: String) -> JSONParseFailure {
        if index >= bytes.count {
            return JSONParseFailure(offset: index, message: "unexpected end of input, expected \(expected)")
        }
        return JSONParseFailure(offset: index, message: "expected \(expected), found \(describeByte(at: index))")
    }

    /// How an error message names the text at `offset`: `'x'`, `'é'`, `byte 0xFF` or `end of input`.
    package func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80, let end = try? validateUTF8Sequence(at: offset) {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
            // C1 control characters (U+0080 to U+009F) are named rather than shown.
            if let scalar = text.unicodeScalars.first, scalar.value < 0xA0 {
                return "character U+00\(String(scalar.value, radix: 16, uppercase: true))"
            }
            return "'\(text)'"
        }
        return "byte \(hex(byte))"
    }

    /// What is expected after an array's element: the words of both the loop and the array read element by element.
    /// Computed, so that the loop's use of it is the literal rather than a global's access.
    static var afterArrayElement: String { "',' or ']' after array element" }

    /// A failure at `index`, an array or object opening `maxDepth` levels deep.
    private func nestingFailure() -> JSONParseFailure {
        JSONParseFailure(offset: index, message: "nesting deeper than \(maxDepth)")
    }

    /// A failure at `index`, the ']' after a comma.
    private func trailingCommaInArray() -> JSONParseFailure {
        JSONParseFailure(offset: index, message: "trailing comma in array")
    }

    func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
    }

    private func duplicateKeyFailure(_ key: String, inObjectAt offset: Int) -> JSONParseFailure {
        var scanner = JSONParser(bytes: bytes, maxDepth: maxDepth)
        scanner.index = offset
        let keyOffsets = scanner.memberKeyOffsets(named: key)
        let first = SourceLocation(offset: keyOffsets[0], in: bytes, file: nil)
        return JSONParseFailure(offset: keyOffsets[1], message: "duplicate key \(JSON.quotedForMessage(key)) (first at \(first))")
    }
}
