import Foundation
import Testing
import SeedKit

@Suite("JSON writer")
struct JSONWriterTests {
    private let sample = #"""
        {"name": "Zoë \"Z\" / 😀", "id": -9223372036854775808, "ratio": 0.1, "big": 18446744073709551616,
         "exact": 12345678901234567890.123, "tiny": 1e-7, "huge": 1.5e300, "flags": [true, false, null],
         "nested": {"b": [], "a": {}, "c": [{"z": 1, "y": "\u0000\u001f\t\n"}]}, "e\u0301x": 1, "f": 2,
         "\uff61": 3, "\ud83d\ude00": 4, "": 0}
        """#

    @Test func roundTripsEveryStyle() throws {
        let value = try JSONDocument(parsing: sample).value
        for style in [JSONWriter.Style.compact, .pretty, .canonical] {
            let text = value.serialized(style: style)
            #expect(try JSONDocument(parsing: text).value == value, "\(style)")
            // Foundation reads every style too.
            #expect(try JSON(any: JSONSerialization.jsonObject(with: Data(text))) == value, "\(style)")
        }
    }

    @Test func writesCanonicalForm() throws {
        let value = try JSONDocument(parsing: sample).value
        #expect(
            value.text(style: .canonical)
                == #"{"":0,"big":18446744073709551616,"exact":12345678901234567890.123,"e\#u{301}x":1,"f":2,"#
                + #""flags":[true,false,null],"huge":1.5e+300,"id":-9223372036854775808,"name":"Zoë \"Z\" / 😀","#
                + #""nested":{"a":{},"b":[],"c":[{"y":"\u0000\u001f\t\n","z":1}]},"ratio":0.1,"tiny":1e-7,"#
                + #""｡":3,"😀":4}"#)
    }

    @Test func sortsKeysByUTF8BytesNotStringOrder() {
        // Swift orders "éx" (decomposed) after "f"; its first byte, 'e', orders it before.
        let decomposed = "e\u{301}x"
        #expect(decomposed > "f")
        #expect(JSON.object([decomposed: 1, "f": 2]).text(style: .canonical) == "{\"\(decomposed)\":1,\"f\":2}")
        #expect(JSON.object(["😀": 1, "\u{FF61}": 2]).text(style: .canonical) == "{\"\u{FF61}\":2,\"😀\":1}")
    }

    @Test func sortsEachObjectByItsOwnKeyBytes() {
        // `respelled` is a copy of `original` with one key swapped for a different spelling that is equal as a
        // String, so both have keys equal as strings; the writer must still sort each by its own bytes.
        func respelled(_ original: JSONObject, _ key: String, as newKey: String) -> JSONObject {
            var copy = original
            copy[newKey] = copy.removeValue(forKey: key)
            return copy
        }
        let decomposed: JSONObject = ["e\u{301}": 1, "f": 2]
        #expect(
            JSON.array([.object(decomposed), .object(respelled(decomposed, "e\u{301}", as: "\u{E9}")), .object(decomposed)])
                .serialized(style: .canonical)
                == Array("[{\"e\u{301}\":1,\"f\":2},{\"f\":2,\"\u{E9}\":1},{\"e\u{301}\":1,\"f\":2}]".utf8))
        // The same with ASCII keys: the Kelvin sign is equal to "K" as a String.
        let ascii: JSONObject = ["K": 1, "L": 2]
        #expect(
            JSON.array([.object(ascii), .object(respelled(ascii, "K", as: "\u{212A}"))]).serialized(style: .canonical)
                == Array("[{\"K\":1,\"L\":2},{\"L\":2,\"\u{212A}\":1}]".utf8))
    }

    @Test func writesRecordsOfManyShapesInKeyOrder() throws {
        // More shapes than are remembered, repeated, nested, with keys of every length: each object in key order.
        var text = "["
        for round in 0..<3 {
            for shape in 0..<40 {
                let keys = (0..<(1 + shape % 7)).map { String(repeating: "k", count: (shape * 7 + $0 * 13) % 23) + "\($0)" }
                let members = keys.reversed().map { #""\#($0)": {"z": \#(round), "a": [\#(shape)]}"# }
                text += (text.count > 1 ? "," : "") + "{" + members.joined(separator: ",") + "}"
            }
        }
        text += "]"
        let value = try JSONDocument(parsing: text).value
        let canonical = value.serialized(style: .canonical)
        #expect(try JSONDocument(parsing: canonical).value == value)
        // Checked independently of the writer's sorting: every object's keys, in text order, ascend by UTF-8 bytes.
        #expect(canonicalKeysAscend(canonical))
    }

    /// Whether the keys of each object in compact `text` (no whitespace) ascend by UTF-8 bytes.
    private func canonicalKeysAscend(_ text: [UInt8]) -> Bool {
        var lastKeys: [[UInt8]?] = []
        var index = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "{"): lastKeys.append(nil)
            case UInt8(ascii: "["): lastKeys.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): lastKeys.removeLast()
            case UInt8(ascii: "\""):
                var end = index + 1
                while text[end] != UInt8(ascii: "\"") { end += text[end] == UInt8(ascii: "\\") ? 2 : 1 }
                let string = Array(text[(index + 1)..<end])
                if text[end + 1] == UInt8(ascii: ":") {
                    if let last = lastKeys[lastKeys.count - 1], !last.lexicographicallyPrecedes(string) { return false }
                    lastKeys[lastKeys.count - 1] = string
                }
                index = end
            default: break
            }
            index += 1
        }
        return true
    }

    @Test func writesEqualValuesAsIdenticalBytes() {
        var first: JSONObject = [:]
        for key in ["one", "two", "three", "four", "five", "six"] { first[key] = .number(JSONNumber(key.count)) }
        first["list"] = [1.0, .number(JSONNumber(Decimal(string: "0.1")!)), ["b": 1, "a": 2]]
        var second: JSONObject = ["list": [1, 0.1, ["a": 2.0, "b": .number(JSONNumber(Decimal(1)))]]]
        for key in ["six", "five", "four", "three", "two", "one"] {
            second[key] = .number(JSONNumber(Double(key.count)))
        }
        #expect(JSON.object(first) == JSON.object(second))
        #expect(JSON.object(first).serialized(style: .canonical) == JSON.object(second).serialized(style: .canonical))
        #expect(JSON.object(first).serialized(style: .pretty) == JSON.object(second).serialized(style: .pretty))
    }

    @Test func writesPrettyLayout() {
        let value: JSON = ["b": [1, [], ["x": nil]], "a": .object([:]), "c": "s"]
        #expect(
            value.text(style: .pretty) == """
                {
                  "a": {},
                  "b": [
                    1,
                    [],
                    {
                      "x": null
                    }
                  ],
                  "c": "s"
                }
                """)
        #expect(JSON.array([]).text(style: .pretty) == "[]")
        #expect(JSON("x").text(style: .pretty) == "\"x\"")
    }

    @Test func escapesMinimally() {
        let value = JSON.string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}é€😀")
        #expect(value.text(style: .compact) == "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u{7F}é€😀\"")
    }

    @Test func writesDeepValues() throws {
        let depth = 10_000
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let value = try JSONDocument(parsing: text, maxDepth: depth).value
        #expect(value.text(style: .canonical) == text)
    }

    @Test func streamsTheSameBytesAsTrees() throws {
        for style in [JSONWriter.Style.compact, .pretty, .canonical] {
            var writer = JSONWriter(style: style)
            writer.beginObject()
            writer.key("list")
            writer.beginArray()
            try writer.value(1)
            try writer.value("two")
            try writer.value(3.5)
            try writer.value(JSONNumber(Decimal(string: "0.1")!))
            try writer.value(true)
            try writer.nullValue()
            try writer.value(["k": [1, 2]] as JSON)
            writer.beginObject()
            try writer.endObject()
            try writer.endArray()
            writer.key("empty")
            writer.beginArray()
            try writer.endArray()
            try writer.endObject()
            let expected: JSON = ["list": [1, "two", 3.5, 0.1, true, nil, ["k": [1, 2]], .object([:])], "empty": []]
            let bytes = try writer.finish()
            if style == .compact {  // Members in the order written, not in the dictionary's order.
                #expect(try JSONDocument(parsing: bytes).value == expected)
            } else {
                #expect(bytes == expected.serialized(style: style), "\(style)")
            }
        }
    }

    @Test func reordersKeysInSortedStyles() throws {
        for style in [JSONWriter.Style.pretty, .canonical] {
            var writer = JSONWriter(style: style)
            writer.beginObject()
            for key in ["m", "b", "z", "a"] {
                writer.key(key)
                writer.beginObject()
                writer.key("y")
                try writer.value(key)
                writer.key("x")
                try writer.value([2, 1] as JSON)
                try writer.endObject()
            }
            try writer.endObject()
            var expected: JSONObject = [:]
            for key in ["m", "b", "z", "a"] { expected[key] = ["y": .string(key), "x": [2, 1]] }
            #expect(try writer.finish() == JSON.object(expected).serialized(style: style))
        }
    }

    @Test func flushesToSinkInChunks() throws {
        var records: [JSON] = []
        for index in 0..<500 {
            records.append(["name": .string("item \(index) é"), "index": .number(JSONNumber(index)), "tags": ["a", "b"]])
        }
        for style in [JSONWriter.Style.compact, .pretty, .canonical] {
            final class Chunks: @unchecked Sendable {  // Used by one test thread only.
                var bytes: [UInt8] = []
                var count = 0
            }
            let chunks = Chunks()
            var writer = JSONWriter(style: style, flushThreshold: 256) { chunk in
                chunks.bytes.append(contentsOf: chunk)
                chunks.count += 1
            }
            writer.beginObject()
            writer.key("records")
            writer.beginArray()
            for (index, record) in records.enumerated() {
                if index.isMultiple(of: 2) {
                    try writer.value(record)
                } else {
                    // Keys out of order inside a small object: reordered before it is flushed.
                    writer.beginObject()
                    writer.key("tags")
                    try writer.value(record["tags"]!)
                    writer.key("name")
                    try writer.value(record["name"]!)
                    writer.key("index")
                    try writer.value(record["index"]!)
                    try writer.endObject()
                }
            }
            try writer.endArray()
            writer.key("total")
            try writer.value(records.count)
            try writer.endObject()
            #expect(try writer.finish().isEmpty)
            #expect(chunks.count > 10)
            let expected: JSON = ["records": .array(records), "total": .number(JSONNumber(records.count))]
            if style == .compact {
                #expect(try JSONDocument(parsing: chunks.bytes).value == expected)
            } else {
                #expect(chunks.bytes == expected.serialized(style: style), "\(style)")
            }
        }
    }

    @Test func writesFiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-writer-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            var writer = try JSONWriter(style: .canonical, toFileAtPath: path, flushThreshold: 64)
            writer.beginArray()
            for index in 0..<100 { try writer.value(["i": .number(JSONNumber(index)), "s": "x"] as JSON) }
            try writer.endArray()
            #expect(try writer.finish().isEmpty)
        }
        let value = try JSONDocument(contentsOf: URL(fileURLWithPath: path)).value
        #expect(value.arrayValue?.count == 100)
        #expect(value[JSONPointer(tokens: ["99", "i"])] == 99)
    }
}
