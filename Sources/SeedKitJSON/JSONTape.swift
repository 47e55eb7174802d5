import Foundation

/// A JSON text read into a flat list of its values, in document order, with no ``JSON`` value made: for a reader
/// that walks a document once and keeps little of it as it is (the seeding read stage), and makes a value's string
/// or number only where it needs one.
///
///     let tape = JSONTape()
///     try tape.read(Array(#"[{"class": "Department", "name": "Sales"}]"#.utf8), file: "sales.template")
///     tape.kind(of: 0)                        // .array, and tape.count(of: 0) == 1 element
///     let department = 1                      // an array's or object's first element or member follows it
///     tape.layout(of: department).keys        // ["class", "name"]
///     tape.string(at: department + 1)         // "Department"
///     tape.next(after: department + 1)        // 3, the entry of "Sales"
///
/// An array or object is an entry followed by the entries of its elements or members, and knows where they end, so
/// the value after one is found in one step (``next(after:)``). An object's keys are its key layout, shared with the
/// objects before it that have the same keys, as in ``JSONObject``. The text is read by the same parser as
/// ``JSONDocument``: it accepts and refuses the same, and says the same of what it refuses.
///
/// An array at the top can be read one element at a time instead (``read(_:file:maxDepth:eachElement:)``): the tape
/// then holds one element, not the text's every value, for a reader done with each element before the next.
///
/// A tape is reused from one text to the next: its memory and the key layouts it met are kept. It holds the text
/// until the next (or ``removeAll()``), to make strings from. Not `Sendable`: one reader at a time.
///
/// - Complexity: reading is O(*n*) in the text, with one 16-byte entry per value (per value of the largest element,
///   read element by element); every accessor is O(1), but ``json(at:)``, O(*n*) in the value.
package final class JSONTape {
    @usableFromInline
    struct Entry {
        @usableFromInline var kind: JSONKind
        /// For a string: ``isASCII`` and ``hasEscapes``; for a boolean, ``isTrue``.
        @usableFromInline var flags: UInt8 = 0
        /// A string's first byte; a number's index in `numbers`; an array's or object's count.
        @usableFromInline var first: UInt32 = 0
        /// The byte after a string's last (its closing quote); for an array or object, the entry after its last
        /// element's or member's.
        @usableFromInline var second: UInt32 = 0
        /// An object's key layout's index in `layouts`.
        @usableFromInline var third: UInt32 = 0

        @usableFromInline static let isASCII: UInt8 = 1
        @usableFromInline static let hasEscapes: UInt8 = 2
        @usableFromInline static let isTrue: UInt8 = 1
    }

    // Unchecked: a tape has one reader at a time (it is not `Sendable`), and a check of each access to the class's
    // properties costs more than the access itself.

    /// The entries, `count` of them in memory with room for `capacity`.
    @exclusivity(unchecked) @usableFromInline var entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) @usableFromInline var count = 0
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var numbers: [JSONNumber] = []
    @exclusivity(unchecked) private var layouts: [JSONKeyLayout] = []
    /// The text read, which strings are made from.
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// The key lists of the objects met, kept from one text to the next.
    @exclusivity(unchecked) private var shapes = JSONParser.ObjectShapes()

    /// The largest text a tape reads: its offsets are 32 bits.
    package static let maximumTextSize = Int(UInt32.max)

    package init() {
        capacity = 64
        entries = Self.reallocate(nil, capacity: capacity)
    }

    deinit {
        free(entries)
    }

    /// Reads `text` in place of the text before: the value it holds is entry 0.
    ///
    /// - Parameters:
    ///   - file: The path to show in a syntax error's location, made only for one.
    ///   - maxDepth: How deeply arrays and objects may nest; deeper text is an error rather than a stack overflow.
    /// - Throws: ``JSONSyntaxError`` for what ``JSONDocument`` refuses, and for a text of ``maximumTextSize`` bytes
    ///   or more; the tape is then empty.
    package func read(
        _ text: [UInt8], file: @autoclosure () -> String?, maxDepth: Int = JSON.maxNestingDepth
    ) throws(JSONSyntaxError) {
        try parse(text, file: file(), maxDepth: maxDepth) { parser, output throws(JSONParseFailure) in
            try parser.parseDocument(into: &output)
        }
    }

    /// Reads `text` in place of the text before, as ``read(_:file:maxDepth:)`` does, but an array at the top one
    /// element at a time: the tape holds each element alone, at entry 0, while `element` is called with its position
    /// in the array and the offset of the byte after it; then the next is read in its place. A large array of small
    /// values takes the room of its largest element rather than of the whole.
    ///
    /// - Returns: Whether the value is an array; when it is not, the tape holds it, as ``read(_:file:maxDepth:)``
    ///   leaves it, and `element` was not called.
    /// - Throws: What ``read(_:file:maxDepth:)`` throws for the same text, at the same place, after the elements
    ///   before it were handed to `element`; the tape is then empty.
    package func read(
        _ text: [UInt8], file: @autoclosure () -> String?, maxDepth: Int = JSON.maxNestingDepth,
        eachElement element: (_ position: Int, _ end: Int) -> Void
    ) throws(JSONSyntaxError) -> Bool {
        try parse(text, file: file(), maxDepth: maxDepth) { parser, output throws(JSONParseFailure) in
            var position = 0
            return try parser.parseDocument(into: &output) { end in
                element(position, end)
                position += 1
                count = 0
                // An element's entries name only its own numbers and layouts: those of the elements before are let
                // go once there are many, since emptying the lists costs more than reading a small element.
                if numbers.count > Self.keptBetweenElements || layouts.count > Self.keptBetweenElements { clear() }
            }
        }
    }

    /// Reads `text` with `body`, which tells the tape what the parser reads; a failure is located in `text` and
    /// leaves the tape empty.
    private func parse<Value>(
        _ text: [UInt8], file: @autoclosure () -> String?, maxDepth: Int,
        _ body: (inout JSONParser, inout TapeOutput) throws(JSONParseFailure) -> Value
    ) throws(JSONSyntaxError) -> Value {
        clear()
        self.text = text
        var shapes = JSONParser.ObjectShapes()
        // Moved in and out, not copied: a copy would make the parser's first change copy every shape.
        swap(&shapes, &self.shapes)
        let result = text.withUnsafeBufferPointer { buffer -> Result<Value, JSONSyntaxError> in
            guard buffer.count < Self.maximumTextSize else {
                return .failure(JSONSyntaxError(
                    location: SourceLocation(offset: 0, in: buffer, file: file()),
                    message: "a text of 4 GiB or more is not read; split it into smaller files"))
            }
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            var output = TapeOutput(tape: self)
            swap(&parser.shapes, &shapes)
            defer { swap(&parser.shapes, &shapes) }
            do throws(JSONParseFailure) {
                return .success(try body(&parser, &output))
            } catch {
                return .failure(
                    JSONSyntaxError(location: SourceLocation(offset: error.offset, in: buffer, file: file()), message: error.message))
            }
        }
        swap(&shapes, &self.shapes)
        switch result {
        case .success(let value):
            return value
        case .failure(let failure):
            count = 0
            throw failure
        }
    }

    /// Forgets the text read and what was read of it, keeping the room for the next: a tape kept for the next text
    /// would otherwise hold the last one until then.
    ///
    /// - Complexity: O(1), and the text's release.
    package func removeAll() {
        clear()
        text = []
    }

    /// How many numbers and layouts of the elements read are kept when an array is read element by element.
    private static let keptBetweenElements = 256

    /// Forgets the entries, numbers and layouts read, keeping their memory.
    private func clear() {
        count = 0
        numbers.removeAll(keepingCapacity: true)
        layouts.removeAll(keepingCapacity: true)
    }

    /// What the value at `entry` is.
    @inlinable @inline(__always)
    package func kind(of entry: Int) -> JSONKind {
        entries[entry].kind
    }

    /// The entry of the value after the one at `entry` and everything in it.
    @inlinable @inline(__always)
    package func next(after entry: Int) -> Int {
        let kind = entries[entry].kind
        return kind == .array || kind == .object ? Int(entries[entry].second) : entry + 1
    }

    /// How many elements the array, or members the object, at `entry` has; they follow it, the first at `entry + 1`.
    @inlinable @inline(__always)
    package func count(of entry: Int) -> Int {
        Int(entries[entry].first)
    }

    /// The keys of the object at `entry`, in the order of its members.
    package func layout(of entry: Int) -> JSONKeyLayout {
        layouts[Int(entries[entry].third)]
    }

    /// The string at `entry`.
    package func string(at entry: Int) -> String {
        let string = entries[entry]
        return text.withUnsafeBufferPointer { buffer in
            if string.flags & Entry.hasEscapes == 0 {
                return JSONParser.string(
                    ofValidUTF8: UnsafeBufferPointer(rebasing: buffer[Int(string.first)..<Int(string.second)]),
                    isASCII: string.flags & Entry.isASCII != 0)
            }
            var parser = JSONParser(bytes: buffer, maxDepth: 1)
            parser.index = Int(string.first) - 1
            // Cannot fail: the string was read once already.
            return (try? parser.parseString()) ?? ""
        }
    }

    /// Whether the string at `entry` is `other`, compared by their UTF-8 without making a `String`.
    package func string(at entry: Int, is other: UnsafeBufferPointer<UInt8>) -> Bool {
        withUTF8(ofStringAt: entry) { utf8 in
            utf8.count == other.count && (other.isEmpty || memcmp(utf8.baseAddress!, other.baseAddress!, other.count) == 0)
        } ?? Array(string(at: entry).utf8).elementsEqual(other)
    }

    /// Calls `body` with the UTF-8 of the string at `entry` where it lies in the text, when it has no escapes (and so
    /// is its own UTF-8); nil for a string with escapes.
    package func withUTF8<Result>(ofStringAt entry: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let string = entries[entry]
        guard string.flags & Entry.hasEscapes == 0 else { return nil }
        return text.withUnsafeBufferPointer { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[Int(string.first)..<Int(string.second)]))
        }
    }

    /// The boolean at `entry`.
    package func bool(at entry: Int) -> Bool {
        entries[entry].flags & Entry.isTrue != 0
    }

    /// The number at `entry`.
    package func number(at entry: Int) -> JSONNumber {
        numbers[Int(entries[entry].first)]
    }

    /// The value at `entry` as ``JSON``, everything in it included.
    ///
    /// - Complexity: O(1) for a scalar (but the string it makes); O(*n*) in an array or object, on a heap-allocated
    ///   stack rather than the call stack.
    package func json(at entry: Int) -> JSON {
        switch kind(of: entry) {
        case .null: return .null
        case .bool: return .bool(bool(at: entry))
        case .number: return .number(number(at: entry))
        case .string: return .string(string(at: entry))
        case .array, .object: return container(at: entry)
        }
    }

    /// The array or object at `entry` as ``JSON``.
    private func container(at entry: Int) -> JSON {
        var output = JSONTreeOutput()
        // The entries after which the open arrays and objects close, innermost last.
        var closing: [(end: Int, entry: Int)] = []
        var position = entry
        let end = next(after: entry)
        while position < end {
            switch kind(of: position) {
            case .array, .object: closing.append((next(after: position), position))
            default: output.scalar(json(at: position))
            }
            position += 1
            while let innermost = closing.last, innermost.end == position {
                closing.removeLast()
                if kind(of: innermost.entry) == .array {
                    output.closeArray(count: count(of: innermost.entry))
                } else {
                    output.closeObject(layout: layout(of: innermost.entry), count: count(of: innermost.entry))
                }
            }
        }
        return output.take()
    }

    /// Adds an entry, making room for it when there is none.
    @inline(__always)
    fileprivate func append(_ entry: Entry) {
        if count == capacity { grow() }
        (entries + count).initialize(to: entry)
        count += 1
    }

    /// Doubles the room for entries; apart from `append` so that appending inlines to a few instructions.
    @inline(never)
    private func grow() {
        capacity *= 2
        entries = Self.reallocate(entries, capacity: capacity)
    }

    /// Memory for `capacity` entries, keeping those of `entries`: `realloc`, since entries are plain bytes, so that
    /// a large tape grows in place (the C library remaps its pages) rather than being copied beside itself.
    private static func reallocate(_ entries: UnsafeMutablePointer<Entry>?, capacity: Int) -> UnsafeMutablePointer<Entry> {
        guard let memory = realloc(entries, capacity * MemoryLayout<Entry>.stride) else {
            fatalError("out of memory for a JSON tape of \(capacity) entries")
        }
        return memory.bindMemory(to: Entry.self, capacity: capacity)
    }

    /// Completes the entry of an array or object at `entry` once its elements or members are read.
    @inline(__always)
    fileprivate func close(_ entry: Int, count elements: Int, layout: JSONKeyLayout?) {
        entries[entry].first = UInt32(elements)
        entries[entry].second = UInt32(count)
        if let layout { entries[entry].third = UInt32(index(of: layout)) }
    }

    /// The index of `layout` in `layouts`, added when it is not one of the last few: objects alike follow each other.
    @inline(__always)
    private func index(of layout: JSONKeyLayout) -> Int {
        for index in layouts.indices.suffix(4).reversed() where layouts[index] === layout { return index }
        layouts.append(layout)
        return layouts.count - 1
    }

    @inline(__always)
    fileprivate func append(_ number: JSONNumber) {
        append(Entry(kind: .number, first: UInt32(numbers.count)))
        numbers.append(number)
    }
}

/// What the parser tells a tape: entries appended in document order, an array's or object's completed as it closes.
private struct TapeOutput: JSONParseOutput, ~Copyable {
    let tape: JSONTape
    /// The entries of the open arrays and objects, innermost last.
    var open = JSONParser.ParseStack<Int>()

    @inline(__always)
    mutating func string(_ parser: inout JSONParser) throws(JSONParseFailure) {
        let string = try parser.scanString()
        tape.append(
            JSONTape.Entry(
                kind: .string,
                flags: (string.isASCII ? JSONTape.Entry.isASCII : 0) | (string.hasEscapes ? JSONTape.Entry.hasEscapes : 0),
                first: UInt32(string.text.lowerBound), second: UInt32(string.text.upperBound)))
    }

    @inline(__always)
    mutating func number(_ value: JSONNumber) { tape.append(value) }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        tape.append(JSONTape.Entry(kind: .bool, flags: value ? JSONTape.Entry.isTrue : 0))
    }

    @inline(__always)
    mutating func null() { tape.append(JSONTape.Entry(kind: .null)) }

    @inline(__always)
    mutating func openArray(at offset: Int) {
        open.push(tape.count)
        tape.append(JSONTape.Entry(kind: .array))
    }

    @inline(__always)
    mutating func closeArray(count: Int) {
        tape.close(open.pop(), count: count, layout: nil)
    }

    @inline(__always)
    mutating func openObject(at offset: Int) {
        open.push(tape.count)
        tape.append(JSONTape.Entry(kind: .object))
    }

    @inline(__always)
    mutating func closeObject(layout: JSONKeyLayout, count: Int) {
        tape.close(open.pop(), count: count, layout: layout)
    }
}
