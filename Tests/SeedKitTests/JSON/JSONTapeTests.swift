import Foundation
import Testing
import SeedKit
import SeedKitJSON

/// The tape (``JSONTape``) reads what ``JSONDocument`` reads, refuses what it refuses with the same words, and its
/// entries walk the same values, whatever texts one tape read before.
@Suite("JSON tape")
struct JSONTapeTests {
    /// What `tape` reads `text` as, made into ``JSON``, or its error.
    private func read(_ text: [UInt8], on tape: JSONTape, maxDepth: Int = JSON.maxNestingDepth) -> Result<JSON, JSONSyntaxError> {
        Result { () throws(JSONSyntaxError) in
            try tape.read(text, file: "t.json", maxDepth: maxDepth)
            return tape.json(at: 0)
        }
    }

    /// What `tape` reads `text` as when it reads an array at the top element by element, the elements made into an
    /// array, or its error; each element's end must be the byte after it.
    private func readElements(
        _ text: [UInt8], on tape: JSONTape, maxDepth: Int = JSON.maxNestingDepth,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Result<JSON, JSONSyntaxError> {
        Result { () throws(JSONSyntaxError) in
            var elements: [JSON] = []
            var lastEnd = 0
            let isArray = try tape.read(text, file: "t.json", maxDepth: maxDepth) { position, end in
                #expect(position == elements.count, sourceLocation: sourceLocation)
                #expect(end > lastEnd && end <= text.count && !" \n\r\t,".utf8.contains(text[end - 1]), sourceLocation: sourceLocation)
                lastEnd = end
                elements.append(tape.json(at: 0))
            }
            if !isArray {
                #expect(elements.isEmpty, sourceLocation: sourceLocation)
                return tape.json(at: 0)
            }
            return .array(elements)
        }
    }

    /// Whether the tape, whole and element by element, and the document read `text` alike: the same value with its
    /// keys in the same order, or the same error.
    private func expectAlike(_ text: [UInt8], on tape: JSONTape, maxDepth: Int = JSON.maxNestingDepth, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let document = Result { () throws(JSONSyntaxError) in try JSONDocument(parsing: text, file: "t.json", maxDepth: maxDepth).value }
        let reads = [
            ("tape", read(text, on: tape, maxDepth: maxDepth)),
            ("elements", readElements(text, on: tape, maxDepth: maxDepth, sourceLocation: sourceLocation)),
        ]
        for (reader, read) in reads {
            switch (document, read) {
            case (.success(let expected), .success(let read)):
                #expect(read == expected, "\(reader)", sourceLocation: sourceLocation)
                #expect(read.text(style: .compact) == expected.text(style: .compact), "\(reader): key order", sourceLocation: sourceLocation)
            case (.failure(let expected), .failure(let read)):
                #expect(read.description == expected.description, "\(reader)", sourceLocation: sourceLocation)
            case (let expected, let read):
                Issue.record("\(String(decoding: text, as: UTF8.self)): document \(expected), \(reader) \(read)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func walksEntriesInDocumentOrder() throws {
        let tape = JSONTape()
        try tape.read(Array(#"[{"class": "A", "n": 1.5, "list": [true, null, []]}, "z\u00e9", {}]"#.utf8), file: nil)
        #expect(tape.kind(of: 0) == .array && tape.count(of: 0) == 3)
        let object = 1
        #expect(tape.kind(of: object) == .object && tape.count(of: object) == 3)
        #expect(tape.layout(of: object).keys == ["class", "n", "list"])
        let className = object + 1, number = tape.next(after: className), list = tape.next(after: number)
        #expect(tape.string(at: className) == "A")
        #expect(tape.number(at: number) == JSONNumber(1.5))
        #expect(tape.kind(of: list) == .array && tape.count(of: list) == 3)
        #expect(tape.bool(at: list + 1) && tape.kind(of: list + 2) == .null && tape.count(of: list + 3) == 0)
        let string = tape.next(after: object)
        #expect(string == list + 4, "an array's next entry is past everything in it")
        #expect(tape.string(at: string) == "zé")
        let empty = tape.next(after: string)
        #expect(tape.kind(of: empty) == .object && tape.count(of: empty) == 0 && tape.layout(of: empty).keys.isEmpty)
        #expect(tape.next(after: 0) == empty + 1)
    }

    @Test func readsWhatTheDocumentReads() {
        let texts = [
            #" {"a": [1, -2.5, "x", true, false, null, {}, []], "b": {"c": "d"}} "#, "42", #" "x" "#, "null", "[]", "{}",
            #""a\"b\\c\/d\b\f\n\r\t""#, #""\u0000x\u00e9\u20AC""#, #""\uD83D\uDE00 and 😀""#, #"{"é\u00e9": "日本語"}"#,
            #"[0, -0, 1e2, 1E-2, 123456789012345678901234567890, 0.1, 77777770007170700.0, -9223372036854775808]"#,
            #"[[[[[]]]], [[{}]], {"a": {"b": {"c": []}}}]"#,
            #"[{"class": "A", "name": "x"}, {"class": "A", "name": "y"}, {"name": "z", "class": "A"}, {"cl\u0061ss": "A"}]"#,
        ]
        let tape = JSONTape()
        for text in texts { expectAlike(Array(text.utf8), on: tape) }
    }

    @Test func refusesWhatTheDocumentRefusesWithTheSameWords() {
        let texts = [
            "", "  \n ", #"{"a": 1 "b": 2}"#, "[1 2]", #"{"a" 1}"#, "{a: 1}", #"{"a": 1,}"#, "[1,\n 2,\n]", "[1,,2]",
            #"{"a": 1"#, "[1, [2", "[1] x", "[tru]", "nul", "NaN", "-", "01", "1.", "1e400", "\"abc", "[\"a\nb\"]",
            #""a\x""#, #""\u12G4""#, #"["ok", "\uD800"]"#, #"{"a": 1, "b": 2, "a": 3}"#, "\u{FEFF}[]",
            #"[{"class": "A", "name": "x"}, {"class": "A", "class": "B"}]"#,
        ]
        let tape = JSONTape()
        for text in texts {
            expectAlike(Array(text.utf8), on: tape)
            // A failure leaves nothing behind: the next text reads as if alone.
            expectAlike(Array(#"[{"class": "A", "name": "x"}]"#.utf8), on: tape)
        }
        expectAlike([UInt8(ascii: "\""), 0x61, 0xFF, UInt8(ascii: "\"")], on: tape)
        expectAlike(Array(String(repeating: "[", count: 600).utf8), on: tape)
        expectAlike(Array((String(repeating: "[", count: 20) + String(repeating: "]", count: 20)).utf8), on: tape, maxDepth: 19)
    }

    /// An array at the top read element by element says what the whole document says of every prefix of valid
    /// arrays, and of them with a stray byte put anywhere: the array's own brackets, commas and whitespace are read
    /// apart from its elements, and must fail with the same words at the same place.
    @Test func elementByElementRefusesWhatTheDocumentRefuses() {
        let texts = [
            #"[{"class": "A", "n": [1, -2.5e3, {"x": null}]}, "s\u00e9", true, [], {}, [[]], 0]"#,
            "[\n  {\"class\": \"A\", \"name\": \"x\"},\n  {\"class\": \"A\", \"name\": \"y\", \"more\": {\"$ref\": \"z\"}}\n]\n",
            " [ 1 , \"a\" ,null ] ", "[[1, 2], [3]]", "[]", " [ ] ", "{\"a\": [1, 2]}", "\"x\"",
        ]
        let strays: [[UInt8]] = [[UInt8(ascii: ",")], [UInt8(ascii: "]")], [UInt8(ascii: "[")], [UInt8(ascii: "}")], [UInt8(ascii: "x")], [UInt8(ascii: "\"")], [UInt8(ascii: " ")], [0x0C], [0xFF], [0xC3, 0xA9]]
        let tape = JSONTape()
        for text in texts.map({ Array($0.utf8) }) {
            for end in 0...text.count { expectAlike(Array(text[..<end]), on: tape) }
            for position in 0...text.count {
                for stray in strays { expectAlike(Array(text[..<position]) + stray + text[position...], on: tape) }
            }
        }
        for text in ["[1, [2, [3]]]", "[[]]", "[{}]", "[]", "[1]", " [", "{}", "1"] {
            for maxDepth in 0...3 { expectAlike(Array(text.utf8), on: tape, maxDepth: maxDepth) }
        }
        let deep = String(repeating: "[", count: JSON.maxNestingDepth) + String(repeating: "]", count: JSON.maxNestingDepth)
        expectAlike(Array(deep.utf8), on: tape)
        expectAlike(Array(("[" + deep + "]").utf8), on: tape)
        expectAlike(Array(("[1, " + deep + "]").utf8), on: tape)
        expectAlike(Array(("[1, " + deep.dropFirst().dropLast() + "]").utf8), on: tape)
    }

    /// A syntax error after elements already handed on is the document's, and leaves the tape empty for the next text.
    @Test func elementByElementHandsOnTheElementsBeforeAnError() throws {
        let tape = JSONTape()
        var handed: [JSON] = []
        #expect(throws: JSONSyntaxError.self) {
            _ = try tape.read(Array(#"[{"a": 1}, 2, 3 4]"#.utf8), file: "t.json") { _, _ in handed.append(tape.json(at: 0)) }
        }
        #expect(handed == [["a": 1], 2, 3])
        expectAlike(Array(#"[{"a": 1}, {"a": 2}]"#.utf8), on: tape)
    }

    @Test func textsSharingLayoutsReadAsAlone() {
        let texts = [
            #"[{"class": "A", "name": "x", "n": 1}, {"class": "A", "name": "y", "n": 2}]"#,
            #"{"class": "A", "name": "z", "n": 3, "more": {"class": "B"}}"#,
            #"[{"class": "A", "n": 4, "name": "w"}, {"cl\u0061ss": "A", "name": "v", "n": 5}]"#,
            #"{"class": "A", "name": "u", "name": 6}"#,
            #"[{"class": "A", "name": "t", "n": 7}]"#,
        ]
        let tape = JSONTape()
        for text in texts { expectAlike(Array(text.utf8), on: tape) }
        guard case .failure(let error) = read(Array(texts[3].utf8), on: tape) else {
            Issue.record("a duplicate key was read")
            return
        }
        #expect(error.description == "t.json:1:29: duplicate key 'name' (first at 1:16)")
    }

    /// Random documents, compact and pretty, one tape reading them one after another: records of a few key lists
    /// repeat (as templates' do), so layouts are shared across texts and forgotten as new ones come.
    @Test func randomTextsReadAsTheDocumentReadsThem() {
        var random = SeededGenerator(seed: 27)
        let keys = ["class", "name", "n", "é", "a\"b", "list", "more", "x\\u0041"]
        func value(depth: Int) -> JSON {
            switch Int.random(in: 0..<(depth > 4 ? 5 : 8), using: &random) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &random))
            case 2: return .number(JSONNumber(Int64.random(in: -1_000_000...1_000_000, using: &random)))
            case 3: return .number(JSONNumber(Double(Int.random(in: -9999...9999, using: &random)) / 100))
            case 4: return .string(String((0..<Int.random(in: 0...20, using: &random)).map { _ in "aé\"\\\n😀 xyz".randomElement(using: &random)! }))
            case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth: depth + 1) })
            default:
                var object = JSONObject()
                for key in keys.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)) {
                    object[key] = value(depth: depth + 1)
                }
                return .object(object)
            }
        }
        let tape = JSONTape()
        for round in 0..<300 {
            let document = JSON.array((0..<Int.random(in: 0...6, using: &random)).map { _ in value(depth: 1) })
            expectAlike(Array(document.text(style: round.isMultiple(of: 2) ? .compact : .pretty).utf8), on: tape)
        }
    }

    @Test func comparesStringsByTheirBytes() throws {
        let tape = JSONTape()
        try tape.read(Array(#"["Employee", "Employe", "Employees", "Emplo\u0079ee", "Zoë", ""]"#.utf8), file: nil)
        func isEmployee(_ entry: Int, _ name: String) -> Bool {
            Array(name.utf8).withUnsafeBufferPointer { tape.string(at: entry, is: $0) }
        }
        #expect(isEmployee(1, "Employee"))
        #expect(!isEmployee(2, "Employee") && !isEmployee(3, "Employee"))
        #expect(isEmployee(4, "Employee"), "an escape is compared by what it stands for")
        #expect(isEmployee(5, "Zoë") && !isEmployee(5, "Zoe"))
        #expect(isEmployee(6, "") && !isEmployee(6, "E"))
    }
}
