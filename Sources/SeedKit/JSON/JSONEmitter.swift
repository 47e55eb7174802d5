import Foundation

/// The byte-level writing shared by ``JSON/serialized(style:)`` and ``JSONWriter``: values, strings, numbers,
/// and the layout of each ``JSONWriter/Style``.
struct JSONEmitter {
    let style: JSONWriter.Style
    var bytes: [UInt8] = []

    init(style: JSONWriter.Style) {
        self.style = style
    }

    /// Whether object members are written in key order (by UTF-8 bytes, which is Unicode scalar order).
    var sortsKeys: Bool { style != .compact }

    /// Writes a whole value, with `indent` the nesting level it starts at (for the pretty style).
    ///
    /// Recursive: the recursion is as deep as the value's nesting, like `JSON`'s own equality and deinitialization.
    /// Values read by ``JSONDocument`` are at most `maxDepth` deep.
    mutating func write(_ value: JSON, indent: Int) {
        switch value {
        case .null:
            append("null")
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .number(let number):
            NumberText.appendCanonical(number, to: &bytes)
        case .string(let string):
            write(string)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                writeLineBreak(indent: indent + 1)
                write(element, indent: indent + 1)
            }
            writeLineBreak(indent: indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return append("{}") }
            bytes.append(UInt8(ascii: "{"))
            var isFirst = true
            if sortsKeys {
                for (key, value) in members.sorted(by: { Self.precedes($0.key, $1.key) }) {
                    writeMember(key, value, isFirst: isFirst, indent: indent)
                    isFirst = false
                }
            } else {
                for (key, value) in members {
                    writeMember(key, value, isFirst: isFirst, indent: indent)
                    isFirst = false
                }
            }
            writeLineBreak(indent: indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    private mutating func writeMember(_ key: String, _ value: JSON, isFirst: Bool, indent: Int) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        writeLineBreak(indent: indent + 1)
        writeKey(key)
        write(value, indent: indent + 1)
    }

    /// Writes a key and the colon after it.
    mutating func writeKey(_ key: String) {
        write(key)
        if style == .pretty {
            append(": ")
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// In the pretty style, a line break and two spaces per level; nothing in the others.
    @inline(__always)
    mutating func writeLineBreak(indent: Int) {
        guard style == .pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// Writes a string with minimal escaping: only '"', '\' and control characters, with the short escapes
    /// `\b \f \n \r \t` where they exist and `\u00xx` otherwise. Everything else, '/' and non-ASCII included,
    /// is written as is.
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var runStart = 0
            var position = 0
            while position < utf8.count {
                if position + 8 <= utf8.count,
                    !Self.needsEscape(UnsafeRawPointer(utf8.baseAddress! + position).loadUnaligned(as: UInt64.self))
                {
                    position += 8
                    continue
                }
                let byte = utf8[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                    appendEscape(for: byte)
                    runStart = position + 1
                }
                position += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            append("u00")
            bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
            bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }

    /// Whether any byte of `word` is '"', '\' or below 0x20 (see `JSONParser.hasSpecialByte`).
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & 0x8080_8080_8080_8080 != 0
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `lhs` comes before `rhs` in UTF-8 byte order, which is Unicode scalar order.
    ///
    /// Not `String.<`, which compares by canonical equivalence and orders some strings differently.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }
}
