import Foundation
import Testing
import SeedKit
import SeedKitJSON

@Suite("JSON reader")
struct JSONReaderTests {
    /// The error of parsing `text`, as `line:column: message`.
    private func error(_ text: String, maxDepth: Int = 512) -> String? {
        error(Array(text.utf8), maxDepth: maxDepth)
    }

    private func error(_ bytes: [UInt8], maxDepth: Int = 512) -> String? {
        do {
            _ = try JSONDocument(parsing: bytes, maxDepth: maxDepth)
            return nil
        } catch {
            return error.description
        }
    }

    private func parse(_ text: String) throws -> JSON {
        try JSONDocument(parsing: text).value
    }

    @Test func readsEveryKindOfValue() throws {
        let json = try parse(#" {"a": [1, -2.5, "x", true, false, null, {}, []], "b": {"c": "d"}} "#)
        #expect(
            json == .object([
                "a": [1, -2.5, "x", true, false, nil, .object([:]), .array([])],
                "b": ["c": "d"],
            ]))
    }

    @Test func acceptsAnyTopLevelValue() throws {
        #expect(try parse("42") == 42)
        #expect(try parse(" \"x\" ") == "x")
        #expect(try parse("null") == nil)
        #expect(try parse("[]") == [])
    }

    @Test func decodesEscapesAndUnicode() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0000x\u00e9\u20AC""#) == .string("\u{0}xé€"))
        #expect(try parse(#""\uD83D\uDE00 and 😀""#) == .string("😀 and 😀"))
        #expect(try parse(#"{"é\u00e9": "日本語"}"#) == ["éé": "日本語"])
        // Text of escapes only, which unescapes to the fewest bytes, at most as many as the text has.
        #expect(try parse(#""\"\"\\\n""#) == .string("\"\"\\\n"))
        let escapes = String(repeating: #"\u00e9\uD83D\uDE00\"x"#, count: 50)
        #expect(try parse("[\"\(escapes)\", 1]") == [.string(String(repeating: "é😀\"x", count: 50)), 1])
        #expect(error(#""\u00e9"#) == "1:1: unterminated string")
        #expect(error(#""ab\"#) == "1:4: unterminated string")
    }

    @Test func readsLongStringsAcrossWordBoundaries() throws {
        for length in 0..<40 {
            let plain = String(repeating: "abcdefgh", count: 5).prefix(length)
            #expect(try parse("\"\(plain)\"") == .string(String(plain)))
            #expect(try parse("\"\(plain)\\n\(plain)é\"") == .string("\(plain)\n\(plain)é"))
        }
    }

    @Test func unescapesStringsOfEveryLengthOneAfterAnother() throws {
        // The buffer strings are unescaped into grows to the longest one read so far: short and long escaped strings
        // in turn, with multibyte text and escapes at both ends, each keep exactly their own bytes.
        var elements: [String] = []
        var expected: [JSON] = []
        for length in [1, 300, 2, 7, 1_000, 8, 9, 40, 0, 5_000, 3] {
            let plain = String(repeating: "aé😀", count: length)
            elements.append(#""\t\#(plain)\u00e9\"""#)
            expected.append(.string("\t\(plain)é\""))
        }
        #expect(try parse("[" + elements.joined(separator: ",") + "]") == .array(expected))
        #expect(error(#"["a\""#) == "1:2: unterminated string")
        #expect(error(#"["\n\u00e9abc"#) == "1:2: unterminated string")
    }

    @Test func rejectsBadStructureWithPositions() {
        #expect(error("") == "1:1: unexpected end of input, expected a value")
        #expect(error("  \n ") == "2:2: unexpected end of input, expected a value")
        #expect(error(#"{"a": 1 "b": 2}"#) == #"1:9: expected ',' or '}' after object member, found '"'"#)
        #expect(error("[1 2]") == "1:4: expected ',' or ']' after array element, found '2'")
        #expect(error(#"{"a" 1}"#) == "1:6: expected ':' after object key, found '1'")
        #expect(error("{a: 1}") == "1:2: expected a string key or '}', found 'a'")
        #expect(error(#"{"a": 1,}"#) == "1:9: trailing comma in object")
        #expect(error("[1,\n 2,\n]") == "3:1: trailing comma in array")
        #expect(error("[1,,2]") == "1:4: expected a value, found ','")
        #expect(error(#"{"a": 1"#) == "1:8: unexpected end of input, expected ',' or '}' after object member")
        #expect(error("[1, [2") == "1:7: unexpected end of input, expected ',' or ']' after array element")
        #expect(error("[1] x") == "1:5: unexpected 'x' after the JSON value")
        #expect(error("1 2") == "1:3: unexpected '2' after the JSON value")
        #expect(error("[tru]") == "1:2: invalid literal, expected 'true'")
        #expect(error("nul") == "1:1: invalid literal, expected 'null'")
    }

    @Test func rejectsNonJSONNumbers() {
        #expect(error("NaN") == "1:1: expected a value, found 'N'")
        #expect(error("[Infinity]") == "1:2: expected a value, found 'I'")
        #expect(error("[-Infinity]") == "1:3: expected a digit after '-', found 'I'")
        #expect(error("+1") == "1:1: expected a value, found '+'")
        #expect(error("01") == "1:1: leading zeros are not allowed")
        #expect(error("[-012]") == "1:2: leading zeros are not allowed")
        #expect(error("1.") == "1:3: unexpected end of input, expected a digit after '.'")
        #expect(error(".5") == "1:1: expected a value, found '.'")
        #expect(error("1e") == "1:3: unexpected end of input, expected a digit in the exponent")
        #expect(error("1e+x") == "1:4: expected a digit in the exponent, found 'x'")
        #expect(error("-") == "1:2: unexpected end of input, expected a digit after '-'")
    }

    @Test func rejectsBadStrings() {
        #expect(error("\"abc") == "1:1: unterminated string")
        #expect(error("[\"a\nb\"]") == "1:4: control character U+000A in string must be escaped")
        #expect(error("\"a\tb\"") == "1:3: control character U+0009 in string must be escaped")
        #expect(error(#""a\x""#) == #"1:3: invalid escape sequence: \ followed by 'x'"#)
        #expect(error(#""\u12G4""#) == #"1:2: invalid \u escape: expected 4 hexadecimal digits"#)
        #expect(error(#"["ok", "\uD800"]"#) == #"1:9: unpaired surrogate \uD800"#)
        #expect(error(#""\uD800\u0041""#) == #"1:2: unpaired surrogate \uD800"#)
        #expect(error(#""x\uDC00""#) == #"1:3: unpaired surrogate \uDC00"#)
    }

    @Test func rejectsInvalidUTF8() {
        let quote = UInt8(ascii: "\"")
        #expect(error([quote, 0x61, 0xFF, quote]) == "1:3: invalid UTF-8 byte 0xFF")
        #expect(error([quote, 0xC0, 0x80, quote]) == "1:2: invalid UTF-8 byte 0xC0")  // overlong NUL
        #expect(error([quote, 0xE0, 0x80, 0x80, quote]) == "1:2: invalid UTF-8: an overlong UTF-8 encoding (0xE0 0x80)")
        #expect(
            error([quote, 0xED, 0xA0, 0x80, quote])
                == "1:2: invalid UTF-8: a UTF-16 surrogate encoded in UTF-8 (0xED 0xA0)")
        #expect(
            error([quote, 0xF4, 0x90, 0x80, 0x80, quote])
                == "1:2: invalid UTF-8: a UTF-8 sequence beyond U+10FFFF (0xF4 0x90)")
        #expect(error([quote, 0xE2, 0x82, quote]) == "1:2: truncated UTF-8 sequence starting with 0xE2")
        #expect(error([quote, 0xE2, 0x82]) == "1:2: truncated UTF-8 sequence starting with 0xE2")
        #expect(error([0x5B, 0xFF, 0x5D]) == "1:2: expected a value, found byte 0xFF")
        // Columns count scalars: "é" is one column although two bytes.
        #expect(error([quote] + Array("éé".utf8) + [0xFF, quote]) == "1:4: invalid UTF-8 byte 0xFF")
    }

    @Test func rejectsInvalidUTF8AtEveryPositionOfAString() {
        // Strings become `String`s without a second check of their UTF-8, so the reader's own check must catch a bad
        // byte wherever it is: in an eight-byte ASCII run, in the bytes after one, after non-ASCII text, after an
        // escape, and in keys.
        let characters: [Character] = Array("abcdefghijé klmnopqrstuvwxyz€0123456789😀ABCDEFGH")
        let bad: [(bytes: [UInt8], message: String)] = [
            ([0xFF], "invalid UTF-8 byte 0xFF"),
            ([0x80], "invalid UTF-8 byte 0x80"),
            ([0xE2, 0x82, 0x41], "truncated UTF-8 sequence starting with 0xE2"),
            ([0xED, 0xB0, 0x80], "invalid UTF-8: a UTF-16 surrogate encoded in UTF-8 (0xED 0xB0)"),
        ]
        for count in 0...characters.count {
            let before = Array(String(characters[..<count]).utf8)
            let after = Array(String(characters[count...]).utf8)
            for (bytes, message) in bad {
                let quote = UInt8(ascii: "\"")
                let string = [quote] + before + bytes + after + [quote]
                // The column of the bad byte counts the opening quote and one per character before it.
                #expect(error(string) == "1:\(count + 2): \(message)", "\(string)")
                let escaped = [quote] + Array(#"\n"#.utf8) + before + bytes + after + [quote]
                #expect(error(escaped) == "1:\(count + 4): \(message)", "\(escaped)")
                let key = Array(#"{"a": 1, "#.utf8) + string + Array(": 2}".utf8)
                #expect(error(key) == "1:\(count + 11): \(message)", "\(key)")
            }
        }
    }

    @Test func readsStringsAsTheStandardLibraryDecodesThem() throws {
        // Every lead byte, with following bytes at the edges of the continuation range and beyond it: text is read
        // exactly when it is valid UTF-8, into the same string (ASCII or not, so the same UTF-16 count too).
        let followers: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for lead in UInt8(0x80)...0xFF {
            for second in followers {
                for third in followers {
                    for fourth in followers where lead >= 0xF0 || fourth == 0x41 {
                        // Long enough not to be a small string, and across eight-byte words.
                        let content = Array("0123456789abcd".utf8) + [lead, second, third, fourth] + Array("xyz".utf8)
                        let text = [UInt8(ascii: "["), UInt8(ascii: "\"")] + content + Array(#"", "\t"]"#.utf8)
                        let expected = String(validating: content, as: UTF8.self)
                        let parsed = try? JSONDocument(parsing: text).value
                        #expect((parsed != nil) == (expected != nil), "\(content)")
                        if let expected, let parsed {
                            #expect(parsed == [.string(expected), "\t"])
                            let string = try #require(parsed.arrayValue?.first?.stringValue)
                            #expect(string.utf16.count == expected.utf16.count)
                            #expect(string.hashValue == expected.hashValue)
                        }
                    }
                }
            }
        }
        for text in ["plain ASCII text longer than fifteen bytes", "Zoë, São Paulo, 東京 and 😀", "\u{7F}\u{80}\u{7FF}\u{800}"] {
            let json = text.unicodeScalars.map { $0.value < 0x80 ? String($0) : "\\u" + hexUnits(of: $0) }.joined()
            for source in [#""\#(text)""#, #""\#(json)""#, #""\n\#(text)""#] {
                let string = try #require(try parse(source).stringValue)
                let expected = source.hasPrefix(#""\n"#) ? "\n" + text : text
                #expect(string == expected)
                #expect(string.utf16.count == expected.utf16.count, "\(source)")
                #expect(string.hashValue == expected.hashValue)
            }
        }
    }

    /// The `\uXXXX` digits of a scalar, a surrogate pair for one beyond the Basic Multilingual Plane.
    private func hexUnits(of scalar: Unicode.Scalar) -> String {
        String(scalar).utf16.map { unit in
            let digits = String(unit, radix: 16)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }.joined(separator: "\\u")
    }

    @Test func rejectsByteOrderMark() {
        #expect(error([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == "1:1: byte order mark is not allowed")
    }

    @Test func rejectsDuplicateKeysNamingBothPositions() {
        let text = """
            {
              "name": "Sales",
              "budget": 1,
              "name": "Marketing"
            }
            """
        #expect(error(text) == "4:3: duplicate key 'name' (first at 2:3)")
        // Keys are compared after unescaping.
        #expect(error(#"{"a": {"x": 1, "\u0078": 2}}"#) == "1:16: duplicate key 'x' (first at 1:8)")
    }

    /// Messages show the input's control characters escaped: a key or byte from the text cannot forge a line or move
    /// a terminal's cursor.
    @Test func messagesEscapeControlCharactersOfTheInput() {
        #expect(error(#"{"a\nb": 1, "a\u000Ab": 2}"#) == #"1:13: duplicate key "a\nb" (first at 1:2)"#)
        #expect(error(#"{"it's": 1, "it's": 2}"#) == #"1:13: duplicate key "it's" (first at 1:2)"#)
        #expect(error(Array(#"["\"#.utf8) + [0xC2, 0x85] + Array(#""]"#.utf8))
            == #"1:3: invalid escape sequence: \ followed by character U+0085"#)
        #expect(error(Array("[".utf8) + [0x1B]) == "1:2: expected a value, found byte 0x1B")
    }

    /// Documents parsed one after another sharing the layouts they met read as each does alone: the same values, a
    /// duplicate key found even in an object whose other keys a layout of an earlier document has, and keys that
    /// differ from an earlier document's only by an escape or their order kept apart.
    @Test func readsRepeatedRecordsExactly() throws {
        // Records with the same keys share the key layout of the first one: each must still get its
        // own values, whatever the nesting, and records with other keys, key orders or escapes must not be mixed up.
        var records: [String] = []
        var expected: [JSON] = []
        for number in 0..<40 {
            let n = JSON.number(JSONNumber(number))
            switch number % 5 {
            case 0, 1:
                records.append(#"{"id": \#(number), "tags": ["t\#(number)"], "inner": {"x": \#(number), "y": null}}"#)
                expected.append(["id": n, "tags": [.string("t\(number)")], "inner": ["x": n, "y": nil]])
            case 2:
                records.append(#"{"inner": {"y": \#(number), "x": true}, "id": \#(number), "tags": []}"#)
                expected.append(["inner": ["y": n, "x": true], "id": n, "tags": []])
            case 3:
                records.append(#"{"\u0069d": \#(number), "tags": "s", "inner": {"x": 0}}"#)
                expected.append(["id": n, "tags": "s", "inner": ["x": 0]])
            default:
                records.append(#"{"id": \#(number), "tag": 1, "inner": {"x": \#(number), "yy": null}}"#)
                expected.append(["id": n, "tag": 1, "inner": ["x": n, "yy": nil]])
            }
        }
        #expect(try parse("[" + records.joined(separator: ",") + "]") == .array(expected))
    }

    @Test func tellsRepeatedRecordsApartByEveryByteOfTheirKeys() throws {
        // Keys of one to twenty bytes, each changed at one byte after records with the original keys: whether the
        // change is in a whole eight-byte word, in the last partial one, or near the end of the text, where fewer than
        // eight bytes remain to be read, the changed record keeps its own key.
        for length in 1...20 {
            let key = String((0..<length).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            for changed in 0..<length {
                var changedKey = Array(key.utf8)
                changedKey[changed] = UInt8(ascii: "Z")
                let other = String(decoding: changedKey, as: UTF8.self)
                let text = #"[{"\#(key)":1},{"\#(key)":2},{"\#(key)":3},{"\#(other)":4}]"#
                let expected: JSON = [[key: 1], [key: 2], [key: 3], [other: 4]]
                #expect(try parse(text) == expected, "\(text)")
                let last = #"{"k":[{"\#(key)":1},{"\#(key)":2},{"\#(other)":3}]}"#
                #expect(try parse(last) == ["k": [[key: 1], [key: 2], [other: 3]]], "\(last)")
            }
        }
    }

    @Test func tellsRepeatedRecordsApartFromKeysOneByteShorterOrLonger() throws {
        // A key is compared with the shape's together with its closing quote: a key that is a prefix of the shape's,
        // or that the shape's is a prefix of, is another key, whether it ends inside the first eight bytes or after.
        for length in 1...20 {
            let key = String((0..<length).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            for other in [String(key.dropLast()), key + "z"] where !other.isEmpty {
                let text = #"[{"\#(key)":1,"b":2},{"\#(key)":3,"b":4},{"\#(other)":5,"b":6}]  "#
                #expect(try parse(text) == [[key: 1, "b": 2], [key: 3, "b": 4], [other: 5, "b": 6]], "\(text)")
            }
        }
    }

    @Test func keepsTheKeysOfARecordWhoseShapeIsForgottenWhileItIsRead() throws {
        // The second record is expected to have the keys of the first, and its "a" and "b" do; then the objects
        // inside it take the place of every remembered shape, the last one with "c" where the first record had it.
        // The record's own "c" must not be taken for a key of that shape.
        let nested = (1...15).map { #"{"k\#($0)": 0}"# }.joined(separator: ",") + #",{"x": 0, "b": 0, "c": 0}"#
        let json = try parse(#"[{"a": 1, "b": 0, "c": 2}, {"a": 1, "b": [\#(nested)], "c": 2}]"#)
        let second = try #require(json.arrayValue?.last?.objectValue)
        #expect(second.keys == ["a", "b", "c"])
        #expect(second["b"]?.arrayValue?.last == ["x": 0, "b": 0, "c": 0])
    }

    @Test func rejectsDuplicateKeysInRepeatedRecords() {
        let record = #"{"a": 1, "b": 2}"#
        #expect(error("[\(record), \(record), \(record), {\"a\": 1, \"a\": 2}]") == "1:65: duplicate key 'a' (first at 1:57)")
        // Equal as Swift strings though their bytes differ (composed and decomposed é): still duplicates.
        let keys = #"{"\#u{E9}": 1, "e\#u{301}": 2}"#
        #expect(error("[\(keys), \(keys)]") == #"1:11: duplicate key 'e\#u{301}' (first at 1:3)"#)
        // Objects of more than eight keys find duplicates through their index rather than by comparing each pair.
        let many = (0..<12).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        #expect(error("{\(many), \"k7\": 0}") == "1:114: duplicate key 'k7' (first at 1:65)")
    }

    @Test func limitsNestingDepth() throws {
        #expect(error(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)) == "1:513: nesting deeper than 512")
        #expect(throws: Never.self) {
            _ = try JSONDocument(parsing: String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
        }
        #expect(error(String(repeating: #"{"a":"#, count: 4) + "1}}}}", maxDepth: 3) == "1:16: nesting deeper than 3")
        // Far too deep for any stack: an error, not a crash, and without reading the whole text.
        #expect(error(String(repeating: "[", count: 100_000)) == "1:513: nesting deeper than 512")
    }

    @Test func parsesDeepNestingWhenAllowed() throws {
        let depth = 10_000
        let document = try JSONDocument(
            parsing: String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth), maxDepth: depth)
        var value = document.value
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements[0]
        }
        #expect(levels == depth)
        #expect(value == 1)
    }

    @Test func keepsFileInErrors() {
        #expect(throws: JSONSyntaxError.self) { try JSONDocument(parsing: "[", file: "a.json") }
        do {
            _ = try JSONDocument(parsing: "[\n  1,\n  x\n]", file: "Templates/a.json")
        } catch {
            #expect(error.location == SourceLocation(file: "Templates/a.json", line: 3, column: 3))
            #expect(error.description == "Templates/a.json:3:3: expected a value, found 'x'")
        }
    }

    @Test func parsesAllInputForms() throws {
        let text = #"{"k": [1, "é"]}"#
        let expected: JSON = ["k": [1, "é"]]
        #expect(try JSONDocument(parsing: text).value == expected)
        #expect(try JSONDocument(parsing: Data(text.utf8)).value == expected)
        #expect(try JSONDocument(parsing: Array(text.utf8)).value == expected)
        #expect(try JSONDocument(parsing: text.utf8).value == expected)
        #expect(try JSONDocument(parsing: ArraySlice(Array(text.utf8))).value == expected)
    }

    @Test func readsFiles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-json-\(UUID()).json")
        try Data("[1,\n2,\n]".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try JSONDocument(contentsOf: url)
        } throws: { error in
            (error as? JSONSyntaxError)?.description == "\(url.path):3:1: trailing comma in array"
        }
    }

    @Test func agreesWithFoundationOnValidText() throws {
        let text = #"""
            {"users": [{"id": 1, "name": "Zoë", "tags": ["a", "b"], "score": 12.5, "ok": true, "none": null},
                       {"id": -7, "name": "\u00c5sa \"q\"", "tags": [], "score": -0.25, "ok": false, "none": null}]}
            """#
        let ours = try JSONDocument(parsing: text).value
        let theirs = try JSON(any: JSONSerialization.jsonObject(with: Data(text.utf8)))
        #expect(ours == theirs)
    }
}
